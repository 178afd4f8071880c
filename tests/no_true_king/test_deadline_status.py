"""`cok ntk status` and standings under deadlines (issue 48; docs/no-true-king.md "Deadlines"):
when each turn waited for is due, soonest first, beside whose turn it is, and who is absent —
from the log's own times and the settings alone (`state.clock`)."""

from __future__ import annotations

import datetime as dt

from cok.core.deadlines import follow, set_up
from cok.rulesets.no_true_king.deadlines import waits
from cok.rulesets.no_true_king.documents import standings_doc, status_doc
from cok.rulesets.no_true_king.rules.state import State
from cok.rulesets.no_true_king.views import standings_views, status_views
from tests.no_true_king.helpers import begun, rec

OPENED = "2026-12-01T20:00:00Z"


def timed(**deadlines: str) -> State:
    """A game in its first placement, whose turns have deadlines, opened at OPENED."""
    state = begun()
    state.clock = set_up(deadlines or {"turn": "48h"}, tz="Europe/London", absent_after=2)
    follow(state.clock, OPENED, waits(state))
    return state


def test_status_json_gives_when_the_turn_is_due_beside_whose_turn_it_is() -> None:
    doc = status_doc("x", timed())
    assert doc["turn"] == "ana" and doc["absent"] == []
    assert doc["due"] == [
        {"step": "turn", "player": "ana", "what": "ana to place an agent", "due": "2026-12-03T20:00:00+00:00",
         "absent": False}
    ]  # fmt: skip


def test_a_weekday_deadline_is_due_in_the_campaigns_zone() -> None:
    doc = status_doc("x", timed(turn="thursday 20:00"))
    assert doc["due"][0]["due"] == "2026-12-03T20:00:00+00:00"  # London is on UTC in December


def test_the_next_turn_is_due_from_the_event_that_opened_it() -> None:
    state = timed()
    rec(state, type="place", player="ana", house="stark", space="maester", at="2026-12-02T08:00:00Z")
    follow(state.clock, "2026-12-02T08:00:00Z", waits(state))
    assert [(d["player"], d["due"]) for d in status_doc("x", state)["due"]] == [("bo", "2026-12-04T08:00:00+00:00")]


def test_every_unseal_is_listed_soonest_first() -> None:
    state = timed(unseal="3d")
    state.phase, state.active = "unseal", None
    follow(state.clock, "2026-12-05T10:00:00Z", waits(state))
    due = status_doc("x", state)["due"]
    assert [d["player"] for d in due] == ["ana", "bo", "cy"] and {d["due"] for d in due} == {
        "2026-12-08T10:00:00+00:00"
    }


def test_without_a_deadline_the_turn_is_listed_with_no_due_time() -> None:
    assert status_doc("x", begun())["due"] == [
        {"step": "turn", "player": "ana", "what": "ana to place an agent", "due": None, "absent": False}
    ]


def test_an_absent_conspiracys_turn_is_due_as_it_opens_and_status_names_it() -> None:
    state = timed()
    state.clock.absent.add("ana")
    doc = status_doc("x", state)
    assert doc["absent"] == ["ana"] and doc["due"][0]["due"] == "2026-12-01T20:00:00+00:00" and doc["due"][0]["absent"]


def test_status_shows_the_due_time_as_read_at_the_ledgers_clock() -> None:
    now = dt.datetime(2026, 12, 1, 20, 0, tzinfo=dt.UTC)
    lines = [str(v) for v in status_views("x", timed(), now)]
    assert "ana's turn is due Thu 3 Dec 20:00 — in 2 days." in lines


def test_status_shows_who_is_absent() -> None:
    state = timed()
    state.clock.absent.add("ana")
    lines = [str(v) for v in status_views("x", state, dt.datetime(2026, 12, 2, tzinfo=dt.UTC))]
    assert "Absent: ana (their turns pass when they open)." in lines
    assert any(line.startswith("ana's turn is due Tue 1 Dec 20:00 — 4 hours ago (absent") for line in lines)


def test_standings_show_absent_conspirators() -> None:
    state = timed()
    state.clock.absent.add("bo")
    players = {p["id"]: p["absent"] for p in standings_doc("x", state)["players"]}
    assert players == {"ana": False, "bo": True, "cy": False}
    grid = standings_views("x", state)[1]
    assert "bo (absent)" in repr(vars(grid))
