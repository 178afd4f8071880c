"""Absent players (docs/deadlines.md): after `absent_after:` deadlines missed in a row a
player is marked absent and their defaults recorded as soon as a wait opens, until they act
again or an organiser brings them back (`cok deadline back`, a `present` event)."""

from __future__ import annotations

import datetime as dt
import os
from pathlib import Path

import pytest

from cok.core.campaign import open_campaign
from cok.service import record
from cok.service.deadlines import back, owed, pending, tick
from cok.service.drafts import Draft, Who
from cok.service.recording import Refusal

from .conftest import T0, cok_at, log

HOUR = dt.timedelta(hours=1)


def score(folder: Path, player: str, at: dt.datetime, points: int = 3) -> None:
    """The player records their score at `at` (the ledger's clock set, as COK_NOW sets it)."""
    os.environ["COK_NOW"] = at.isoformat()
    try:
        record(folder, [Draft("score", {"player": player, "points": points})], by=player)
    finally:
        del os.environ["COK_NOW"]


def missed_twice(turns: Path) -> None:
    """Al scores in rounds 1 and 2, Bo in neither: two deadlines missed in a row."""
    score(turns, "al", T0 + HOUR)
    assert len(tick(turns, T0 + 48 * HOUR).defaults) == 1  # round 1: bo's first miss
    score(turns, "al", T0 + 49 * HOUR)
    done = tick(turns, T0 + 97 * HOUR)  # round 2 (opened at 48 h) due at 96 h: bo's second miss
    assert [(d.wait.key, d.kind) for d in done.defaults] == [("score:r2:bo", "deadline"), ("score:r3:bo", "absent")]


def test_a_player_who_misses_absent_after_deadlines_in_a_row_is_marked_absent(turns: Path) -> None:
    missed_twice(turns)
    campaign = open_campaign(turns, use_cache=False)
    assert campaign.state.clock.absent == {"bo"}
    assert "  default: absent\n" in log(turns)


def test_an_absent_players_wait_is_due_as_soon_as_it_opens(turns: Path) -> None:
    missed_twice(turns)
    score(turns, "al", T0 + 98 * HOUR)  # round 4 opens for both
    (due,) = [d for d in pending(open_campaign(turns)) if d.wait.who == "bo"]
    assert due.absent and due.due == T0 + 98 * HOUR
    done = tick(turns, T0 + 98 * HOUR)
    assert [(d.wait.key, d.kind) for d in done.defaults] == [("score:r4:bo", "absent")]
    assert "no score from bo, absent (applied Sat 5 Dec 14:00): bo scores 0" in done.defaults[0].recording.told


def test_one_miss_then_acting_counts_the_misses_from_nought(turns: Path) -> None:
    score(turns, "al", T0 + HOUR)
    tick(turns, T0 + 48 * HOUR)
    score(turns, "bo", T0 + 49 * HOUR)  # bo acts: the misses in a row start again
    score(turns, "al", T0 + 50 * HOUR)
    tick(turns, T0 + 98 * HOUR)  # round 3: bo's miss, the first in a row
    assert open_campaign(turns, use_cache=False).state.clock.absent == set()


def test_an_absent_player_who_acts_again_is_no_longer_absent(turns: Path) -> None:
    missed_twice(turns)
    score(turns, "al", T0 + 98 * HOUR)  # round 4 opens: bo records before any tick
    score(turns, "bo", T0 + 98 * HOUR + dt.timedelta(minutes=5))
    clock = open_campaign(turns, use_cache=False).state.clock
    assert clock.absent == set() and "bo" not in clock.missed


def test_an_organiser_brings_an_absent_player_back_with_a_whole_deadline(turns: Path) -> None:
    missed_twice(turns)
    score(turns, "al", T0 + 98 * HOUR)  # round 4 opened at 98 h
    back_at = T0 + 99 * HOUR
    run = cok_at(turns, back_at, "deadline", "back", "bo")
    assert run.exit_code == 0, run.stderr
    assert "bo is back" in run.stdout
    campaign = open_campaign(turns, use_cache=False)
    assert campaign.state.clock.absent == set()
    (due,) = [d for d in pending(campaign) if d.wait.who == "bo"]
    assert due.due == back_at + 48 * HOUR and not due.absent
    assert tick(turns, back_at).defaults == []


def test_bringing_back_a_player_who_is_not_absent_is_refused(turns: Path) -> None:
    run = cok_at(turns, T0, "deadline", "back", "bo")
    assert run.exit_code == 1
    assert "bo is not marked absent" in run.stderr
    assert "present" not in log(turns)


def test_cok_deadline_shows_the_absent_players(turns: Path) -> None:
    missed_twice(turns)
    run = cok_at(turns, T0 + 97 * HOUR, "deadline")
    assert "absent: bo" in run.stdout


def test_an_absent_player_comes_back_themselves_but_not_another(turns: Path) -> None:
    missed_twice(turns)
    with pytest.raises(Refusal, match="al may bring back only themselves"):
        back(turns, "bo", by=Who("al"))
    done = back(turns, "bo", by=Who("bo"))
    assert done.told == ["bo is back: their deadlines count again, each from now"]
    assert open_campaign(turns, use_cache=False).state.clock.absent == set()


def test_an_event_an_absent_player_records_about_another_does_not_bring_them_back(turns: Path) -> None:
    missed_twice(turns)  # round 3: al's wait open, bo's defaulted at once
    os.environ["COK_NOW"] = (T0 + 98 * HOUR).isoformat()
    try:
        record(turns, [Draft("score", {"player": "al", "points": 1})], by="bo")  # by bo, about al: not bo's
        assert open_campaign(turns, use_cache=False).state.clock.absent == {"bo"}
    finally:
        del os.environ["COK_NOW"]


def test_the_recordings_clock_is_the_replays(turns: Path) -> None:
    missed_twice(turns)
    score(turns, "al", T0 + 98 * HOUR)
    kept = open_campaign(turns).state.clock  # as the recordings left it, from the cache
    assert kept.absent == {"bo"} and kept.missed == {"bo": 3}
    assert open_campaign(turns, use_cache=False).state.clock == kept


def test_a_default_owed_when_a_tick_looked_but_acted_on_before_its_lock_is_not_recorded(turns: Path) -> None:
    from cok.service.deadlines import _drafting, _Gone

    late = T0 + 50 * HOUR
    stale = open_campaign(turns)  # the tick's look: both scores owed
    assert [o.wait.who for o in owed(stale, late)] == ["al", "bo"]
    score(turns, "bo", late)  # bo records meanwhile
    before = log(turns)
    with pytest.raises(_Gone):
        record(turns, _drafting("score:r1:bo", late), by="ledger", campaign=stale)
    assert log(turns) == before
