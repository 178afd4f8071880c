"""The Clash of Kings commands record through the service (issue #24), and say what issue
#29 asks: a points limit that goes down is warned about (asked at a terminal), points
remaining above the limit are refused with it, an illegal location names the organiser's
ruling."""

from __future__ import annotations

from pathlib import Path

import pytest

from cok.cli import options

from ..conftest import Cok


def two_in_week_two(cok: Cok) -> None:
    assert cok("join", "tim", "--faction", "martell").exit_code == 0
    assert cok("join", "matt", "--faction", "baratheon").exit_code == 0
    assert cok("week", "--next", "--limit", "23").exit_code == 0


def test_a_points_limit_that_goes_down_is_recorded_with_a_warning(cok: Cok, campaign: Path) -> None:
    two_in_week_two(cok)
    run = cok("week", "--next", "--limit", "10")
    assert run.exit_code == 0, run.stderr
    assert "cok: warning: week 3's points limit of 10 is lower than week 2's 23" in run.stderr
    assert "limit: 10" in (campaign / "events.yaml").read_text()


def test_a_points_limit_below_week_ones_is_warned_about(cok: Cok) -> None:
    assert cok("join", "tim", "--faction", "martell").exit_code == 0
    run = cok("week", "--next", "--limit", "18", "--json")
    assert run.exit_code == 0
    assert "lower than week 1's 20" in run.stderr


def test_at_a_terminal_a_points_limit_that_goes_down_is_asked_about(
    cok: Cok, campaign: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    two_in_week_two(cok)
    before = (campaign / "events.yaml").read_text()
    monkeypatch.setattr(options, "interactive", lambda: True)
    run = cok("week", "--next", "--limit", "10", input="n\n")
    assert run.exit_code == 1
    assert "Record it all the same?" in run.stderr
    assert (campaign / "events.yaml").read_text() == before
    run = cok("week", "--next", "--limit", "10", input="y\n")
    assert run.exit_code == 0 and "limit: 10" in (campaign / "events.yaml").read_text()


def test_a_points_limit_that_goes_up_is_not_asked_about(cok: Cok, monkeypatch: pytest.MonkeyPatch) -> None:
    two_in_week_two(cok)
    monkeypatch.setattr(options, "interactive", lambda: True)
    run = cok("week", "--next", "--limit", "30")
    assert run.exit_code == 0 and run.stderr == ""


def test_points_remaining_above_the_weeks_limit_are_refused_with_it(cok: Cok, campaign: Path) -> None:
    two_in_week_two(cok)
    before = (campaign / "events.yaml").read_text()
    args = ("battle", "matt", "tim", "--at", "Mistwood", "--attacker", "matt", "--vp", "matt=5", "--vp", "tim=5")
    run = cok(*args, "--remaining", "tim=120", "--remaining", "matt=4")
    assert run.exit_code == 1
    assert "cok: tim cannot have 120 points remaining: that is more than week 2's points limit of 23" in run.stderr
    assert (campaign / "events.yaml").read_text() == before


def test_an_illegal_locations_refusal_names_the_organisers_ruling(cok: Cok) -> None:
    two_in_week_two(cok)
    run = cok("battle", "tim", "matt", "--at", "Winterfell", "--attacker", "tim", "--winner", "tim")
    assert run.exit_code == 1
    assert "Winterfell is not a legal location for tim" in run.stderr
    assert run.stderr.rstrip().endswith("an organiser may rule otherwise: --override REASON")


def test_a_command_records_who_recorded_it(cok: Cok, campaign: Path) -> None:
    run = cok("join", "tim", "--faction", "martell", env={"COK_BY": "the-organiser"})
    assert run.exit_code == 0
    assert "by: the-organiser" in (campaign / "events.yaml").read_text()
