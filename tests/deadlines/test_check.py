"""`cok check` refuses, at its line, a default the log's own times and waits do not justify
(docs/deadlines.md): one recorded before its deadline, one for a player who had acted (or was
defaulted already), an absent default for a player not absent. The logs are written by hand."""

from __future__ import annotations

from pathlib import Path

from ..conftest import Cok


def checked(folder: Path, added: str) -> tuple[int, str]:
    with (folder / "events.yaml").open("a") as log:
        log.write(added)
    run = Cok(folder)("check")
    return run.exit_code, run.stderr


def test_a_default_recorded_before_its_deadline_is_refused_at_its_line(week: Path) -> None:
    code, said = checked(week, "- type: week\n  default: deadline\n  at: 2026-11-30T18:59:00Z\n  by: ledger\n")
    assert code == 1
    assert "events.yaml:11: week: recorded before its deadline (due 2026-11-30T19:00:00+00:00" in said


def test_a_default_at_its_deadline_is_accepted(week: Path) -> None:
    code, said = checked(week, "- type: week\n  default: deadline\n  at: 2026-11-30T19:00:00Z\n  by: ledger\n")
    assert (code, said) == (0, "")


def test_a_default_for_a_player_who_had_acted_is_refused_at_its_line(turns: Path) -> None:
    code, said = checked(
        turns,
        "- type: score\n  player: bo\n  points: 3\n  at: 2026-12-02T09:00:00Z\n"
        "- type: score\n  player: bo\n  points: 0\n  default: deadline\n  at: 2026-12-04T09:00:00Z\n",
    )
    assert code == 1
    assert "events.yaml:13: score bo: nobody was waited for this default: bo had acted" in said


def test_a_second_default_for_the_same_wait_is_refused(turns: Path) -> None:
    default = "- type: score\n  player: bo\n  points: 0\n  default: deadline\n  at: 2026-12-03T12:00:00Z\n"
    code, said = checked(turns, default + default)
    assert code == 1
    assert "events.yaml:14: score bo: nobody was waited for this default" in said
    assert "events.yaml:9:" not in said  # the first stands


def test_an_absent_default_for_a_player_not_absent_is_refused(turns: Path) -> None:
    code, said = checked(
        turns, "- type: score\n  player: bo\n  points: 0\n  default: absent\n  at: 2026-12-01T13:00:00Z\n"
    )
    assert code == 1
    assert "events.yaml:9: score bo: default: absent for bo, who is not absent" in said


def test_a_default_in_a_campaign_without_deadlines_is_refused(week: Path) -> None:
    (week / "campaign.yaml").write_text("name: W\nmap: map.yaml\n")
    code, said = checked(week, "- type: week\n  default: deadline\n  at: 2026-12-30T19:00:00Z\n")
    assert code == 1
    assert "campaign.yaml sets no `deadlines:`" in said


def test_a_default_is_judged_by_its_own_due_so_a_deadline_changed_later_keeps_it(week: Path) -> None:
    checked(week, "- type: week\n  default: deadline\n  due: 2026-11-30T19:00:00Z\n  at: 2026-11-30T19:05:00Z\n")
    (week / "campaign.yaml").write_text(
        (week / "campaign.yaml").read_text().replace("monday 19:00", "tuesday 19:00")
    )  # a day later from now on: the default recorded on Monday stands
    assert Cok(week)("check").exit_code == 0


def test_a_default_recorded_before_its_own_due_is_refused(week: Path) -> None:
    code, said = checked(
        week, "- type: week\n  default: deadline\n  due: 2026-12-01T19:00:00Z\n  at: 2026-11-30T19:05:00Z\n"
    )
    assert code == 1
    assert "events.yaml:11: week: recorded before its deadline (due 2026-12-01T19:00:00+00:00" in said
