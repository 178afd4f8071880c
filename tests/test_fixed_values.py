"""Every fixed set of values (an agent's space, a symbol, an order, a settlement, a colour
mode) gets "did you mean" as names do: one sentence from `core.names.one_of`, for a value in
the log (`file:line`, exit 1) as for one on the command line (a wrong command line, exit 2)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from cok.core.names import choose, one_of
from cok.core.validation import check
from cok.rulesets.mighty_kingdoms.events import Order
from cok.rulesets.no_true_king.events import Exchange

from .conftest import ROOT, Cok


def test_a_value_outside_a_fixed_set_lists_the_set_and_the_close_one() -> None:
    said = one_of("marshall", ["maester", "marshal", "lord"])
    assert said == "'marshall' is not one of maester, marshal, lord (did you mean 'marshal'?)"


def test_a_value_of_a_fixed_set_is_found_however_it_is_typed() -> None:
    assert choose("MARSHAL", ["maester", "marshal", "lord"]) == "marshal"


def test_an_events_field_outside_its_fixed_set_is_refused_with_did_you_mean() -> None:
    _, said = check(Order, {"type": "order", "army": "ana-1", "order": "razee"})
    assert said == ["order: 'razee' is not one of move, defend, raze, regroup (did you mean 'raze'?)"]


def test_a_value_inside_a_list_of_an_event_is_refused_with_did_you_mean() -> None:
    _, said = check(Exchange, {"type": "exchange", "player": "ana", "swap": ["2", "lft"]})
    assert len(said) == 1 and "'lft' is not one of 1, 2, 3, 4, left (did you mean 'left'?)" in said[0]


@pytest.fixture
def ntk(tmp_path: Path) -> Path:
    folder = tmp_path / "game"
    shutil.copytree(ROOT / "campaigns" / "no-true-king-example", folder)
    return folder


def test_no_true_king_marshall_is_refused_suggesting_marshal_and_nothing_is_written(ntk: Path) -> None:
    before = (ntk / "events.yaml").read_bytes()
    run = Cok(ntk)("ntk", "place", "ana", "stark", "marshall")
    assert run.exit_code == 1
    assert "did you mean 'marshal'?" in run.stderr
    assert (ntk / "events.yaml").read_bytes() == before


def test_a_misspelt_value_in_the_log_is_reported_at_its_line_with_did_you_mean(ntk: Path) -> None:
    text = (ntk / "events.yaml").read_text()
    (ntk / "events.yaml").write_text(text.replace("space: marshal", "space: marshall", 1))
    run = Cok(ntk)("check")
    assert run.exit_code == 1
    first = run.stderr.splitlines()[0]
    assert first.startswith("events.yaml:") and "did you mean 'marshal'?" in first


@pytest.mark.parametrize(
    ("args", "close"),
    [
        (("mk", "order", "dag-1", "razee"), "'raze'"),
        (("mk", "build", "dag", "1,-4", "fortres"), "'fortress'"),
        (("--color", "nevr", "standings"), "'never'"),
        (("schema", "evnts"), "'events'"),
    ],
)
def test_a_command_lines_value_outside_a_fixed_set_is_a_usage_error_with_did_you_mean(
    args: tuple[str, ...], close: str
) -> None:
    run = Cok(ROOT / "campaigns" / "mighty-kingdoms")(*args)
    assert run.exit_code == 2
    assert f"(did you mean {close}?)" in run.stderr
