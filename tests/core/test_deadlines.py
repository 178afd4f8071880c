"""The campaign's own time, as the core computes it (issue 48): specs as organisers write them,
due times from the log's own times, the settable clock, and the words a due time is read in."""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

import pytest

from cok.core import deadlines
from cok.core.deadlines import Clock, Spec, Wait

UTC = dt.UTC
LONDON = ZoneInfo("Europe/London")


def at(text: str) -> dt.datetime:
    found = deadlines.moment(text)
    assert found is not None
    return found


@pytest.mark.parametrize(
    ("written", "seconds"),
    [("48h", 48 * 3600), ("3d", 3 * 86400), ("1d12h", 36 * 3600), ("90m", 5400), ("1w", 7 * 86400)],
)
def test_a_duration_counts_from_the_event_that_opened_the_wait(written: str, seconds: int) -> None:
    rule = deadlines.spec(written)
    assert isinstance(rule, Spec)
    opened = at("2026-12-01T10:00:00Z")
    assert deadlines.due(opened, rule, LONDON) == opened + dt.timedelta(seconds=seconds)


def test_a_weekday_and_time_is_the_first_such_moment_after_the_wait_opened() -> None:
    rule = deadlines.spec("Thursday 20:00")
    assert isinstance(rule, Spec)
    assert deadlines.due(at("2026-12-01T10:00:00Z"), rule, UTC) == at("2026-12-03T20:00:00Z")
    # opened on the Thursday after 20:00: the next week's
    assert deadlines.due(at("2026-12-03T20:30:00Z"), rule, UTC) == at("2026-12-10T20:00:00Z")
    # opened exactly at the moment: strictly after it
    assert deadlines.due(at("2026-12-03T20:00:00Z"), rule, UTC) == at("2026-12-10T20:00:00Z")


def test_a_weekday_and_time_stays_the_same_hour_across_a_change_of_summer_time() -> None:
    rule = deadlines.spec("mon 19:00")
    assert isinstance(rule, Spec)
    # London moves its clocks back on Sunday 25 October 2026: 19:00 is 18:00Z before, 19:00Z after
    assert deadlines.due(at("2026-10-20T12:00:00Z"), rule, LONDON) == at("2026-10-26T19:00:00Z")
    assert deadlines.due(at("2026-10-13T12:00:00Z"), rule, LONDON) == at("2026-10-19T18:00:00Z")


def test_an_extension_adds_its_seconds_to_the_due_time() -> None:
    rule = deadlines.spec("48h")
    assert isinstance(rule, Spec)
    opened = at("2026-12-01T10:00:00Z")
    assert deadlines.due(opened, rule, UTC, extended=86400) == at("2026-12-04T10:00:00Z")


@pytest.mark.parametrize(
    ("written", "said"),
    [
        ("soon", "neither a duration"),
        ("0h", "lasts no time"),
        ("funday 19:00", "not a weekday"),
        ("monday 25:00", "not a time of day"),
        ("", "neither a duration"),
    ],
)
def test_a_spec_that_is_not_one_says_what_would_be_accepted(written: str, said: str) -> None:
    found = deadlines.spec(written)
    assert isinstance(found, str)
    assert said in found


def test_an_unknown_time_zone_is_named_with_what_would_be_accepted() -> None:
    found = deadlines.zone("Europe/Londn")
    assert isinstance(found, str)
    assert "not an IANA time zone" in found and "Europe/London" in found
    assert deadlines.zone("Europe/Paris") == ZoneInfo("Europe/Paris")


def test_cok_now_sets_the_ledgers_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COK_NOW", "2026-12-03T20:00:00Z")
    assert deadlines.now() == at("2026-12-03T20:00:00Z")
    assert deadlines.now("2026-12-04T08:00:00+01:00") == at("2026-12-04T07:00:00Z")


def test_a_cok_now_that_is_not_a_moment_is_refused_in_words(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COK_NOW", "next thursday")
    with pytest.raises(deadlines.BadNow, match="COK_NOW='next thursday' is not a moment"):
        deadlines.now()


def test_without_cok_now_the_clock_is_the_machines(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("COK_NOW", raising=False)
    before = dt.datetime.now(UTC)
    assert before <= deadlines.now() <= dt.datetime.now(UTC)


WAIT = Wait("orders", "bo", "orders for bo-4", "orders:1:1:bo")


def test_a_wait_is_dated_by_the_event_that_opened_it_and_forgotten_when_closed() -> None:
    clock = deadlines.set_up({"orders": "48h"})
    deadlines.follow(clock, at("2026-12-01T10:00:00Z"), [WAIT])
    deadlines.follow(clock, at("2026-12-01T12:00:00Z"), [WAIT])  # still open: keeps its opening
    assert clock.due(WAIT) == at("2026-12-03T10:00:00Z")
    deadlines.follow(clock, at("2026-12-02T09:00:00Z"), [])
    assert clock.opened == {}
    assert clock.due(WAIT) is None


def test_a_wait_opened_by_an_event_without_a_time_has_no_due_time() -> None:
    clock = deadlines.set_up({"orders": "48h"})
    deadlines.follow(clock, None, [WAIT])
    assert deadlines.pending(clock, [WAIT])[0].due is None


def test_an_absent_players_wait_is_due_as_soon_as_it_opens() -> None:
    clock = deadlines.set_up({"orders": "48h"}, absent_after=2)
    clock.absent.add("bo")
    deadlines.follow(clock, at("2026-12-01T10:00:00Z"), [WAIT])
    assert clock.due(WAIT) == at("2026-12-01T10:00:00Z")
    assert deadlines.pending(clock, [WAIT])[0].absent


def test_a_step_without_a_deadline_is_never_due() -> None:
    clock = deadlines.set_up({"resolution": "24h"})
    deadlines.follow(clock, at("2026-12-01T10:00:00Z"), [WAIT])
    assert clock.due(WAIT) is None
    assert not Clock().on and clock.on


def test_pending_waits_are_soonest_first_and_documented_with_their_offset() -> None:
    later = Wait("orders", "al", "orders for al-1", "orders:1:1:al")
    clock = deadlines.set_up({"orders": "48h"})
    deadlines.follow(clock, at("2026-12-01T10:00:00Z"), [WAIT])
    deadlines.follow(clock, at("2026-12-01T11:00:00Z"), [WAIT, later])
    clock.extended[WAIT.key] = 3 * 3600
    found = deadlines.pending(clock, [WAIT, later])
    assert [d.wait.who for d in found] == ["al", "bo"]
    assert found[0].document() == {
        "step": "orders",
        "player": "al",
        "what": "orders for al-1",
        "due": "2026-12-03T11:00:00+00:00",
        "absent": False,
    }


@pytest.mark.parametrize(
    ("now", "said"),
    [
        ("2026-12-01T20:00:00Z", "Thu 3 Dec 20:00 — in 2 days"),
        ("2026-12-03T17:00:00Z", "Thu 3 Dec 20:00 — in 3 hours"),
        ("2026-12-03T19:30:00Z", "Thu 3 Dec 20:00 — in 30 minutes"),
        ("2026-12-03T20:00:30Z", "Thu 3 Dec 20:00 — now"),
        ("2026-12-04T08:00:00Z", "Thu 3 Dec 20:00 — 12 hours ago"),
    ],
)
def test_a_due_time_is_read_as_a_day_a_time_and_how_far_off(now: str, said: str) -> None:
    assert deadlines.when(at("2026-12-03T20:00:00Z"), at(now), UTC) == said


def test_a_due_time_is_read_in_the_campaigns_zone() -> None:
    assert (
        deadlines.when(at("2026-07-02T19:00:00Z"), at("2026-07-01T19:00:00Z"), LONDON)
        == "Thu 2 Jul 20:00 — in 24 hours"
    )
