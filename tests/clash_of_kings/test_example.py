"""The shipped example campaign: valid, and a tour of every rule a newcomer should see."""

from __future__ import annotations

import shutil
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from cok.core.campaign import open_campaign, read, read_entries, set_up
from cok.core.fold import fold
from cok.rulesets.clash_of_kings import RULESET
from cok.rulesets.clash_of_kings.rules.outcomes import Adjusted, Fought, Joined, Painted, WeekStarted

from ..conftest import EXAMPLE, Cok


class Keeping:
    """The Clash of Kings ruleset, keeping every outcome it decides."""

    def __init__(self) -> None:
        self.outcomes: list[object] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(RULESET, name)

    def apply(self, state: Any, event: Any) -> Any:
        outcome = RULESET.apply(state, event)
        self.outcomes.append(outcome)
        return outcome


def outcomes() -> list[object]:
    files = read(EXAMPLE)
    setup = set_up(EXAMPLE, files)
    keeping = Keeping()
    done = fold(keeping, read_entries(EXAMPLE, files, RULESET).entries, setup.state, "events.yaml")  # type: ignore[arg-type]
    assert done.problems == []
    return keeping.outcomes


def test_the_example_is_valid() -> None:
    assert open_campaign(EXAMPLE, use_cache=False).problems == []


def test_the_example_has_five_or_more_players_of_different_factions() -> None:
    joined = [o for o in outcomes() if isinstance(o, Joined)]
    assert len(joined) >= 5
    assert len({o.faction for o in joined}) == len(joined)


def test_the_example_has_twenty_battles_over_four_weeks() -> None:
    battles = [o for o in outcomes() if isinstance(o, Fought)]
    assert len(battles) >= 20
    assert len({b.week for b in battles}) >= 4
    assert sum(isinstance(o, WeekStarted) for o in outcomes()) >= 3


def test_the_example_shows_every_rule_in_play() -> None:
    battles = [o for o in outcomes() if isinstance(o, Fought)]
    decided = Counter(b.decided_by for b in battles)
    assert decided["given"] >= 1  # a roll-off
    assert decided["brotherhood"] >= 1
    assert any(b.won_by == "victory points" for b in battles)
    assert any(b.won_by in ("points remaining", "attacker") for b in battles)
    assert any(b.occupation.abandon_reason == "castle cap" for b in battles)
    assert any(b.occupation.unchanged == "last-territory" for b in battles)
    assert any(b.occupation.unchanged == "brotherhood" for b in battles)
    assert any(b.mode for b in battles)
    painted = [o for o in outcomes() if isinstance(o, Painted)]
    assert any(p.fully_painted for p in painted)
    assert any(p.banners for p in painted)
    assert any(p.commission for p in painted)
    assert any(isinstance(o, Adjusted) for o in outcomes())
    assert any(t.type == "void" and t.text.startswith("voided ") for t in open_campaign(EXAMPLE).history())


def test_the_readmes_first_command_shows_the_examples_standings_from_the_project_root() -> None:
    run = Cok(EXAMPLE.parents[1])("standings", "-C", "campaigns/example")
    assert run.exit_code == 0, run.stderr
    assert "The War of the Five Kings" in run.stdout
    for name in ("Dany", "Sara", "Matt", "Aaron", "Jon", "Tim"):
        assert name in run.stdout


def test_without_a_campaign_named_the_project_root_lists_the_shipped_ones() -> None:
    run = Cok(EXAMPLE.parents[1])("standings")
    assert run.exit_code == 1 and "campaigns/example" in run.stderr and "campaigns/mighty-kingdoms" in run.stderr


@pytest.mark.parametrize("shipped", sorted(p.name for p in EXAMPLE.parent.iterdir() if p.is_dir()))
def test_every_shipped_example_is_self_contained_and_checks_when_copied_to_any_depth(
    shipped: str, tmp_path: Path
) -> None:
    copy = tmp_path / "a" / "b" / "c" / shipped
    shutil.copytree(EXAMPLE.parent / shipped, copy)
    run = Cok(tmp_path)("check", "-C", str(copy))
    assert (run.exit_code, run.stderr) == (0, "")
