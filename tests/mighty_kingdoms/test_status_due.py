"""`cok mk status` and its `--json` (issue 48): the due time of everything the ledger waits
for, beside what is waited for, soonest first, judged at the ledger's clock (`COK_NOW`); the
absent kingdoms in status and standings. The clock is set by hand here, as the fold sets it."""

from __future__ import annotations

import io

import pytest

from cok.core.deadlines import follow, set_up
from cok.render.output import _console, _rich
from cok.render.views import Line
from cok.rulesets.mighty_kingdoms.deadlines import waits
from cok.rulesets.mighty_kingdoms.documents import status_doc
from cok.rulesets.mighty_kingdoms.views import standings_grid, status_views

from .game import EAST, NORTH, WEST, Game


def timed(deadlines: dict[str, str], opened: str = "2026-11-30T10:00:00Z", tz: str = "UTC") -> Game:
    """ana, bo and cy in month 1's orders, their waits opened at `opened` (a Monday)."""
    game = Game()
    game.kingdom("ana", WEST, name="Ana")
    game.kingdom("bo", EAST, name="Bo")
    game.kingdom("cy", NORTH, name="Cy")
    game("begin")
    game.state.clock = set_up(deadlines, tz)
    follow(game.state.clock, opened, waits(game.state))
    return game


def shown(game: Game) -> str:
    """`cok mk status` as an 80-column terminal shows it."""
    out = io.StringIO()
    console = _console()
    console.file, console.width = out, 80
    views = status_views("Marches", game.state, status_doc("Marches", game.state))
    _rich([Line.of(v) if isinstance(v, str) else v for v in views], console)
    return out.getvalue()


def test_status_json_gives_each_wait_its_due_time_iso_with_offset_beside_what_is_waited_for() -> None:
    game = timed({"orders": "thursday 20:00"}, tz="Europe/London")
    doc = status_doc("Marches", game.state)
    assert doc["due"][0] == {
        "step": "orders",
        "player": "ana",
        "what": "orders for ana-1",
        "due": "2026-12-03T20:00:00+00:00",
        "absent": False,
    }
    assert [d["player"] for d in doc["due"]] == ["ana", "bo", "cy"]


def test_due_times_are_soonest_first_and_those_without_a_deadline_last() -> None:
    game = timed({"orders": "48h"})
    game.state.clock.opened["orders:y1:m1:bo"] = "2026-11-29T10:00:00+00:00"
    game.state.clock.opened.pop("orders:y1:m1:ana")
    doc = status_doc("Marches", game.state)
    assert [(d["player"], d["due"]) for d in doc["due"]] == [
        ("bo", "2026-12-01T10:00:00+00:00"),
        ("cy", "2026-12-02T10:00:00+00:00"),
        ("ana", None),
    ]


def test_status_shows_each_due_time_as_a_player_reads_it_at_80_columns(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COK_NOW", "2026-12-01T20:00:00Z")
    text = shown(timed({"orders": "thursday 20:00"}))
    assert "Thu 3 Dec 20:00 — in 2 days" in text
    assert all(len(line) <= 80 for line in text.splitlines())
    row = next(line for line in text.splitlines() if "orders for bo-1" in line)
    assert row.split()[0] == "Bo" and row.rstrip().endswith("in 2 days")


def test_a_due_time_is_said_in_the_campaigns_time_zone(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COK_NOW", "2026-12-01T20:00:00Z")
    text = shown(timed({"orders": "thursday 20:00"}, tz="America/New_York"))
    assert "Thu 3 Dec 20:00 — in 2 days" in text  # 20:00 in New York is 01:00 UTC on Friday


def test_a_deadline_passed_is_said_as_ago(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COK_NOW", "2026-12-03T23:00:00Z")
    assert "Thu 3 Dec 20:00 — 3 hours ago" in shown(timed({"orders": "thursday 20:00"}))


def test_a_campaign_without_deadlines_shows_no_due_table() -> None:
    game = timed({})
    assert "due" not in shown(game).split("next:")[1]
    assert all(d["due"] is None for d in status_doc("Marches", game.state)["due"])


def test_status_names_the_absent_kingdoms() -> None:
    game = timed({"orders": "48h"})
    game.state.clock.absent.add("bo")
    doc = status_doc("Marches", game.state)
    assert doc["absent"] == ["bo"]
    assert next(d for d in doc["due"] if d["player"] == "bo")["absent"] is True
    text = shown(game)
    assert "Bo (absent)" in text and "absent: Bo" in text


def test_an_absent_kingdoms_wait_is_due_as_soon_as_it_opens() -> None:
    game = timed({"orders": "48h"})
    game.state.clock.absent.add("bo")
    due = {d["player"]: d["due"] for d in status_doc("Marches", game.state)["due"]}
    assert due["bo"] == "2026-11-30T10:00:00+00:00" and due["ana"] == "2026-12-02T10:00:00+00:00"


def test_standings_show_absent_kingdoms() -> None:
    game = timed({"orders": "48h"})
    game.state.clock.absent.add("cy")
    grid = standings_grid("Marches", game.state)
    assert [row[1].text for row in grid.rows] == ["Ana", "Bo", "Cy (absent)"]
    assert grid.caption is not None and "(absent)" in grid.caption


def test_a_kingdoms_page_says_when_its_wait_is_due_and_what_the_ledger_records_if_it_is_missed() -> None:
    from cok.rulesets.mighty_kingdoms.offers import offers

    game = timed({"orders": "thursday 20:00"})
    game.army("bo-1").upright = False
    offer = offers(game.state, "bo")
    assert offer.due == "2026-12-03T20:00:00+00:00"
    assert offer.if_missed == "bo-1 regroups"
    assert offers(game.state, "bo", {"orders": "none"}).if_missed == "the organisers are told (nothing is recorded)"


def test_a_page_says_nothing_of_defaults_where_no_deadline_is_set() -> None:
    from cok.rulesets.mighty_kingdoms.offers import offers

    offer = offers(timed({"winter": "3d"}).state, "ana")
    assert (offer.due, offer.if_missed) == (None, "")
