"""The event log: every event parsed with its line, typos refused, appends that never rewrite."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cok.core.append import append, stamp
from cok.core.errors import Refused
from cok.core.log import event_types, parse_event
from cok.core.write import to_yaml
from cok.core.yamlfile import parse
from cok.rulesets.clash_of_kings import RULESET
from cok.rulesets.clash_of_kings.events import Adjust, Battle, Join, Painting

from .conftest import read_events


def messages(text: str) -> list[tuple[int | None, str]]:
    return [(p.line, p.message) for p in read_events(write(text)).problems]


_tmp: list[Path] = []


def write(text: str) -> Path:
    path = _tmp[0] / "events.yaml"
    path.write_text(text)
    return path


@pytest.fixture(autouse=True)
def _folder(tmp_path: Path) -> None:
    _tmp[:] = [tmp_path]


def test_events_keep_the_line_they_start_on() -> None:
    log = read_events(write("# log\n- type: week\n\n- type: week\n  limit: 30\n"))
    assert [r.line for r in log.entries] == [2, 4]


def test_an_empty_file_or_an_empty_list_is_an_empty_log() -> None:
    assert read_events(write("")).entries == []
    assert read_events(write("[]\n")).entries == []
    assert read_events(write("# only a comment\n")).entries == []


def test_an_unknown_event_type_is_an_error_with_did_you_mean() -> None:
    assert messages("- type: batle\n") == [(1, "unknown event type 'batle' (did you mean 'battle'?)")]


def test_an_unknown_field_is_an_error_with_did_you_mean() -> None:
    found = messages("- type: battle\n  players: [tim, matt]\n  location: A\n  winer: tim\n")
    assert found == [(1, "battle: unknown field 'winer' (did you mean 'winner'?)")]


def test_wrong_types_and_missing_fields_are_errors() -> None:
    found = messages("- type: adjust\n  player: Tim Smith\n  cp: lots\n")
    text = " | ".join(m for _, m in found)
    assert "missing field 'reason'" in text
    assert "cp: must be a whole number" in text
    assert "player: must be an id: lowercase letters, digits, '-' and '_'" in text


def test_every_bad_event_is_reported() -> None:
    found = messages("- type: week\n- 42\n- type: nope\n- {type: week, limit: 0}\n")
    assert [line for line, _ in found] == [2, 3, 4]


def test_a_log_that_is_not_a_list_is_refused() -> None:
    with pytest.raises(Refused, match="must be a YAML list"):
        read_events(write("type: week\n"))


def add(path: Path, event: Adjust, expected: tuple[int, int, int] | None = None) -> None:
    """Append as the ledger does: with the stamp and shape of the log as it was read."""
    log = read_events(path)
    position = log.position
    append(
        path, event, expected=expected or stamp(path), item_column=position.item_column, empty_flow=position.empty_flow
    )


def test_append_adds_bytes_at_the_end_and_never_rewrites() -> None:
    original = "# hand-written, kept as is\n- type: week   # with a comment\n"
    path = write(original)
    add(path, Adjust(player="tim", cp=2, reason="x", id="a1"))
    text = path.read_text()
    assert text.startswith(original)
    assert [r.event.type for r in read_events(path).entries] == ["week", "adjust"]


def test_append_to_a_file_without_a_final_newline() -> None:
    path = write("- type: week")
    add(path, Adjust(player="tim", cp=2, reason="x"))
    assert [r.line for r in read_events(path).entries] == [1, 2]


def test_append_matches_an_indented_list() -> None:
    path = write("  - type: week\n")
    add(path, Adjust(player="tim", cp=2, reason="x"))
    assert [r.event.type for r in read_events(path).entries] == ["week", "adjust"]


def test_append_to_an_empty_flow_list_keeps_comments() -> None:
    path = write("# my campaign\n[]\n")
    add(path, Adjust(player="tim", cp=2, reason="x"))
    assert path.read_text().startswith("# my campaign\n- type: adjust\n")
    assert len(read_events(path).entries) == 1


def test_append_is_refused_when_the_file_changed_since_it_was_read() -> None:
    path = write("- type: week\n")
    was = stamp(path)
    path.write_text("- type: week\n- type: week\n")
    with pytest.raises(Refused, match="changed while this command ran"):
        add(path, Adjust(player="tim", cp=2, reason="x"), expected=was)
    assert path.read_text() == "- type: week\n- type: week\n"


text = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), min_size=1, max_size=40).filter(
    lambda s: s.strip() != ""
)
pid = st.from_regex(r"[a-z0-9_-]{1,12}", fullmatch=True)


@settings(max_examples=200, deadline=None)
@given(
    note=st.one_of(st.none(), text),
    reason=text,
    location=text,
    players=st.lists(pid, min_size=2, max_size=2, unique=True),
    vp=st.integers(0, 99),
)
def test_every_event_written_reads_back_the_same(
    note: str | None, reason: str, location: str, players: list[str], vp: int
) -> None:
    for ev in (
        Battle(players=players, location=location.strip(), vp={players[0]: vp, players[1]: 0}, note=note),
        Adjust(player=players[0], cp=-vp, reason=reason.strip(), note=note),
        Join(player=players[1], faction=reason.strip(), name=location.strip(), territories=["a", "b", "c"]),
        Painting(player=players[0], units=vp, commissioned=players[1]),
    ):
        block = to_yaml(ev)
        data = parse(block, "t")
        assert len(data) == 1
        back, errors = parse_event(data[0], event_types(RULESET), RULESET)
        assert errors == []
        assert back == ev


def test_an_old_event_shape_is_upcast_when_read_and_the_file_is_not_rewritten(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Suppose an early version wrote a battle's winner as `result`: an upcast reads it."""

    def result_was_winner(data: dict[str, object]) -> dict[str, object]:
        if data.get("type") == "battle" and "result" in data:
            data = dict(data)
            data["winner"] = data.pop("result")
        return data

    old = "- type: battle\n  players: [tim, matt]\n  location: Tarth\n  result: tim\n"
    path = write(old)
    assert read_events(path).problems  # without the upcast, `result` is an unknown field
    monkeypatch.setattr(RULESET, "upcasts", {"battle": [result_was_winner]})
    log = read_events(path)
    assert log.problems == []
    assert log.entries[0].event.winner == "tim"
    assert path.read_text() == old
