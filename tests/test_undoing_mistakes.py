"""Mistakes easy to undo (#14): voiding an event with dependants lists them one per line and
voids them with it as one change; errors that follow from a refused event are marked so."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cok.core.append import append, journal_path, stamp
from cok.core.events import Void

from .conftest import EXAMPLE, Cok, read_events

FIRST_BATTLE = "154a6eaf8039"  # Tim beats Matt at Tarth, week 1: fifteen later events stand on it


def test_voiding_an_event_with_dependants_lists_them_one_per_line_and_writes_nothing(example: Path) -> None:
    before = (example / "events.yaml").read_bytes()
    run = Cok(example)("void", FIRST_BATTLE, "--reason", "wrong table")
    assert run.exit_code == 1
    lines = run.stderr.splitlines()
    assert "15 later events depend on it" in lines[0]
    assert sum(1 for line in lines if line.startswith("  line ")) == 15
    assert "  line 73: 9db60c7deb82: painting tim: tim has no battle recorded in week 1" in run.stderr
    assert "--cascade" in lines[-1]
    assert (example / "events.yaml").read_bytes() == before


def test_void_cascade_voids_the_event_and_its_dependants_as_one_change(example: Path) -> None:
    cok = Cok(example)
    count = len(read_events(example / "events.yaml").entries)
    run = cok("void", FIRST_BATTLE, "--reason", "wrong table", "--cascade")
    assert run.exit_code == 0, run.stderr
    assert "and, as one change, 15 more:" in run.stdout
    voids = [e.event for e in read_events(example / "events.yaml").entries[count:]]
    assert len(voids) == 16 and all(isinstance(v, Void) for v in voids)
    assert voids[0].target == FIRST_BATTLE
    assert "depends on 154a6eaf8039" in voids[1].reason
    assert cok("check").exit_code == 0


def test_void_cascade_dry_run_shows_what_would_be_voided_and_writes_nothing(example: Path) -> None:
    before = (example / "events.yaml").read_bytes()
    run = Cok(example)("void", FIRST_BATTLE, "--reason", "x", "--cascade", "--dry-run", "--json")
    assert run.exit_code == 0, run.stderr
    document = json.loads(run.stdout)
    assert len(document["together_with"]) == 15 and document["written"] is False
    assert (example / "events.yaml").read_bytes() == before


@pytest.mark.parametrize(("answer", "code", "voids"), [("y\n", 0, 16), ("n\n", 1, 0)])
def test_voiding_with_dependants_at_a_terminal_asks_before_voiding_them_too(
    example: Path, monkeypatch: pytest.MonkeyPatch, answer: str, code: int, voids: int
) -> None:
    monkeypatch.setattr("cok.cli.options.interactive", lambda: True)
    count = len(read_events(example / "events.yaml").entries)
    run = Cok(example)("void", FIRST_BATTLE, "--reason", "x", input=answer)
    assert run.exit_code == code
    assert "Void these 15 events too?" in run.stderr
    assert len(read_events(example / "events.yaml").entries) - count == voids


def test_events_appended_together_are_one_journaled_block_a_failed_write_leaves_none(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from cok.core import append as appending
    from cok.core.errors import Refused

    log = tmp_path / "events.yaml"
    log.write_text("- type: void\n  target: a\n  reason: r\n")
    before = log.read_bytes()
    blocks: list[bytes] = []

    def torn(path: Path, data: bytes) -> None:
        blocks.append(data)
        with open(path, "ab") as handle:
            handle.write(data[: len(data) // 2])
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(appending, "_write_block", torn)
    events = [Void(target=f"e{i}", reason="r", id=f"v{i}") for i in range(3)]
    with pytest.raises(Refused):
        append(log, events, expected=stamp(log))
    assert len(blocks) == 1 and blocks[0].count(b"- type: void") == 3
    assert log.read_bytes() == before
    assert not journal_path(log).exists()


def test_the_errors_that_follow_from_a_refused_event_are_counted_after_it_and_listed_in_json(example: Path) -> None:
    events = example / "events.yaml"
    events.write_text(events.read_text().replace("location: Last Hearth", "location: Last Heart", 1))
    run = Cok(example)("check")
    assert run.exit_code == 1
    lines = run.stderr.splitlines()
    assert lines[0].startswith("events.yaml:55: battle at Last Heart: unknown location 'Last Heart'")
    assert "follows from" not in lines[0]
    assert lines[1:] == ["events.yaml:55: 14 later events depend on it: fix it first (`cok check --json` lists them)"]
    document = json.loads(Cok(example)("check", "--json").stdout)
    assert document["errors"][0].get("follows_from") is None
    assert {e["follows_from"] for e in document["errors"][1:]} == {55} and len(document["errors"]) == 15


def test_independent_errors_are_not_marked_as_consequences(example: Path) -> None:
    events = example / "events.yaml"
    text = events.read_text().replace("location: Last Hearth", "location: Last Heart", 1)
    events.write_text(text + "- type: painting\n  player: jon\n  units: -1\n")
    assert EXAMPLE.exists()
    run = Cok(example)("check", "--json")
    errors = json.loads(run.stdout)["errors"]
    assert errors[-1]["line"] > 380 and "follows_from" not in errors[-1]


def test_the_same_battle_twice_is_refused_without_again_and_nothing_is_written(example: Path) -> None:
    cok = Cok(example)
    assert cok("battle", "tim", "aaron", "--at", "Ghost Hill", "--winner", "aaron").exit_code == 0
    before = (example / "events.yaml").read_bytes()
    run = cok("battle", "aaron", "tim", "--at", "ghost hill", "--winner", "aaron")
    assert run.exit_code == 1
    assert "Aaron and Tim already have this battle recorded: Ghost Hill, week 5, Aaron won" in run.stderr
    assert "--again" in run.stderr
    assert (example / "events.yaml").read_bytes() == before
    assert cok("battle", "aaron", "tim", "--at", "Ghost Hill", "--winner", "aaron", "--again").exit_code == 0


def test_a_battle_with_another_winner_is_not_a_repeat(example: Path) -> None:
    cok = Cok(example)
    assert cok("battle", "tim", "aaron", "--at", "Ghost Hill", "--winner", "aaron").exit_code == 0
    assert cok("battle", "tim", "aaron", "--at", "Ghost Hill", "--winner", "tim").exit_code == 0


@pytest.mark.parametrize(("answer", "code", "battles"), [("y\n", 0, 2), ("n\n", 1, 1)])
def test_the_same_battle_twice_at_a_terminal_asks_first(
    example: Path, monkeypatch: pytest.MonkeyPatch, answer: str, code: int, battles: int
) -> None:
    cok = Cok(example)
    count = len(read_events(example / "events.yaml").entries)
    assert cok("battle", "tim", "aaron", "--at", "Ghost Hill", "--winner", "aaron").exit_code == 0
    monkeypatch.setattr("cok.cli.options.interactive", lambda: True)
    run = cok("battle", "tim", "aaron", "--at", "Ghost Hill", "--winner", "aaron", input=answer)
    assert run.exit_code == code
    assert "Record it again?" in run.stderr
    assert len(read_events(example / "events.yaml").entries) - count == battles


def test_the_same_battle_is_noticed_within_two_weeks_and_older_battles_are_not_kept(example: Path) -> None:
    from cok.core.campaign import open_campaign
    from cok.rulesets.clash_of_kings.rules.apply import REPEAT_WEEKS

    cok = Cok(example)
    assert cok("battle", "tim", "aaron", "--at", "Ghost Hill", "--winner", "aaron").exit_code == 0
    assert cok("week", "--next").exit_code == 0
    again = cok("battle", "aaron", "tim", "--at", "Ghost Hill", "--winner", "aaron", "--week", "5")
    assert again.exit_code == 1 and "already have this battle recorded" in again.stderr  # last week's
    state = open_campaign(example, use_cache=False).state
    assert {key[3] for key in state.battles} <= set(range(state.week - REPEAT_WEEKS + 1, state.week + 1))


def _adjusts(example: Path, *ids: str | None) -> None:
    """Organiser's adjustments written by hand at the end of the log (None: without an id)."""
    with (example / "events.yaml").open("a") as log:
        for n, given in enumerate(ids):
            log.write("- " + ("" if given is None else f"id: {given}\n  "))
            log.write(f"type: adjust\n  player: tim\n  cp: 1\n  reason: by hand {n}\n")


def test_void_takes_any_unique_start_of_an_id_as_git_does(example: Path) -> None:
    run = Cok(example)("void", FIRST_BATTLE[:6], "--reason", "wrong table", "--cascade", "--json")
    assert run.exit_code == 0, run.stderr
    assert any(e["type"] == "void" and e["target"] == FIRST_BATTLE for e in read_events_json(example))


def test_void_lists_the_events_an_ambiguous_start_of_an_id_names_and_writes_nothing(example: Path) -> None:
    _adjusts(example, "abcd00000001", "abcd00000002")
    before = (example / "events.yaml").read_bytes()
    run = Cok(example)("void", "abcd", "--reason", "typo")
    assert run.exit_code == 1
    assert "abcd00000001" in run.stderr and "abcd00000002" in run.stderr and "2 events" in run.stderr
    assert (example / "events.yaml").read_bytes() == before


def test_void_takes_an_id_less_events_reference_without_its_equals_sign(example: Path) -> None:
    _adjusts(example, None)
    ref = next(t for t in json.loads(Cok(example)("log", "--json").stdout)["events"] if t["ref"].startswith("="))["ref"]
    run = Cok(example)("void", ref[1:], "--reason", "typo")
    assert run.exit_code == 0, run.stderr
    assert f"voided {ref}" in run.stdout


def read_events_json(example: Path) -> list[dict[str, object]]:
    return [t["event"] | {"type": t["type"]} for t in json.loads(Cok(example)("log", "--json").stdout)["events"]]
