"""Void, Campaign Points and the standings."""

from __future__ import annotations

import json
from pathlib import Path

from cok.rulesets.clash_of_kings.rules.scoring import standings

from ..conftest import Cok, holding, joins, play, replayed, tiny_map

GEO = tiny_map("A:castle B:fort C:village D:castle E:castle", "A-B B-C C-D")


START = [
    {"type": "join", "player": "tim", "faction": "neutral", "castle": "A", "id": "j1"},
    {"type": "join", "player": "matt", "faction": "neutral", "castle": "D", "id": "j2"},
]
TAKE_B = {"type": "battle", "players": ["tim", "matt"], "location": "B", "attacker": "tim", "winner": "tim", "id": "b1"}


def test_void_cancels_an_event_as_if_it_had_never_been_recorded() -> None:
    voided = replayed(GEO, [*START, TAKE_B, {"type": "void", "target": "b1", "reason": "wrong", "id": "v1"}])
    without = replayed(GEO, START)
    assert voided.problems == []
    assert voided.state.holder == without.state.holder
    assert voided.state.records["tim"].battles == 0
    assert "b1" in voided.voided


def test_every_later_event_must_still_be_valid_without_the_voided_one() -> None:
    paint = {"type": "painting", "player": "tim", "fully_painted": True, "id": "p1"}
    result = replayed(GEO, [*START, TAKE_B, paint, {"type": "void", "target": "b1", "reason": "x"}])
    assert [(p.line, "no battle recorded" in p.message) for p in result.problems] == [(4, True)]


def test_a_void_cannot_target_an_unknown_id_or_an_event_already_voided() -> None:
    result = replayed(
        GEO,
        [
            *START,
            TAKE_B,
            {"type": "void", "target": "b1", "reason": "x", "id": "v1"},
            {"type": "void", "target": "b1", "reason": "again"},
            {"type": "void", "target": "nope", "reason": "x"},
        ],
    )
    messages = [(p.line, p.message) for p in result.problems]
    assert messages == [
        (5, "void: 'b1' is already voided (on line 4)"),
        (6, "void: no earlier event has the id 'nope'"),
    ]


def test_a_voided_void_voids_nothing_and_its_target_comes_back() -> None:
    """Issue #35: a mistaken void is undone by voiding it; the battle counts again."""
    undone = replayed(
        GEO,
        [
            *START,
            TAKE_B,
            {"type": "void", "target": "b1", "reason": "wrong battle", "id": "v1"},
            {"type": "void", "target": "v1", "reason": "the battle was right", "id": "v2"},
        ],
    )
    kept = replayed(GEO, [*START, TAKE_B])
    assert undone.problems == []
    assert undone.state.holder == kept.state.holder and undone.state.records["tim"].battles == 1
    assert "b1" not in undone.voided and undone.voided["v1"].event.id == "v2"


def test_voiding_the_void_of_a_void_voids_its_target_again() -> None:
    voided = replayed(
        GEO,
        [
            *START,
            TAKE_B,
            {"type": "void", "target": "b1", "reason": "x", "id": "v1"},
            {"type": "void", "target": "v1", "reason": "undo", "id": "v2"},
            {"type": "void", "target": "v2", "reason": "undo the undo", "id": "v3"},
        ],
    )
    assert voided.problems == []
    assert voided.state.records["tim"].battles == 0 and set(voided.voided) == {"b1", "v2"}


def test_after_a_void_is_undone_its_target_may_be_voided_again() -> None:
    result = replayed(
        GEO,
        [
            *START,
            TAKE_B,
            {"type": "void", "target": "b1", "reason": "x", "id": "v1"},
            {"type": "void", "target": "v1", "reason": "undo", "id": "v2"},
            {"type": "void", "target": "b1", "reason": "after all", "id": "v3"},
        ],
    )
    assert result.problems == [] and result.state.records["tim"].battles == 0


def test_a_restored_event_is_checked_by_the_rules_as_any_event() -> None:
    """B fought again once the first battle was voided; undoing the void brings the first
    back, and the second is then refused as it would be without the void (Tim holds more)."""
    again = {**TAKE_B, "id": "b2"}
    result = replayed(
        GEO,
        [
            *START,
            TAKE_B,
            {"type": "void", "target": "b1", "reason": "x", "id": "v1"},
            again,
            {"type": "void", "target": "v1", "reason": "undo", "id": "v2"},
        ],
    )
    kept = replayed(GEO, [*START, TAKE_B, again])
    assert [p.message for p in result.problems] == [p.message for p in kept.problems] != []
    assert result.problems[0].line == 5


def test_a_void_must_come_after_its_target() -> None:
    result = replayed(GEO, [{"type": "void", "target": "j1", "reason": "x"}, *START])
    assert [p.line for p in result.problems] == [1]


def test_ids_must_be_unique() -> None:
    result = replayed(GEO, [*START, {**TAKE_B, "id": "j1"}])
    assert [(p.line, "already used by the event on line 1" in p.message) for p in result.problems] == [(3, True)]


def test_every_problem_in_the_log_is_reported_not_only_the_first() -> None:
    result = replayed(
        GEO,
        [
            *START,
            {"type": "join", "player": "tim", "faction": "neutral", "castle": "E"},
            {"type": "adjust", "player": "rob", "cp": 1, "reason": "x"},
            {"type": "battle", "players": ["tim", "matt"], "location": "C", "attacker": "tim", "winner": "tim"},
        ],
    )
    assert sorted(p.line or 0 for p in result.problems) == [3, 4, 5]
    assert result.problems[1].message.startswith("battle at C: C is not a legal location for tim")
    assert result.problems[1].cause == 3  # tim's refused join came first: read as a possible cause


def test_territory_cp_is_the_sum_of_held_values_and_bonus_cp_is_painting_plus_adjust() -> None:
    state = play(
        GEO,
        [
            *joins(tim="A", matt="D"),
            TAKE_B,
            {"type": "painting", "player": "tim", "fully_painted": True, "units": 1},
            {"type": "adjust", "player": "tim", "cp": -1, "reason": "late"},
        ],
    )
    table = {s.player.id: s for s in standings(state)}
    assert (table["tim"].territory_cp, table["tim"].bonus_cp, table["tim"].cp) == (13, 1, 14)
    assert (table["tim"].castles, table["tim"].forts, table["tim"].villages) == (1, 1, 0)
    assert table["tim"].territories == ("A", "B")


def test_equal_totals_share_a_rank_and_are_listed_by_id() -> None:
    state = holding(GEO, {"tim": ["A"], "matt": ["D"], "aaron": ["E"], "zoe": ["C"]}, bonus={"zoe": 3})
    state.bonus["aaron"] = 1
    ranks = [(s.player.id, s.rank) for s in standings(state)]
    assert ranks == [("aaron", 1), ("matt", 2), ("tim", 2), ("zoe", 4)]


HAND_WRITTEN = "- type: adjust\n  player: tim\n  cp: 2\n  reason: hosted\n"


def _hand_written_twins(cok: Cok, campaign: Path) -> list[dict[str, object]]:
    cok("join", "tim", "--faction", "martell")
    with open(campaign / "events.yaml", "a") as handle:
        handle.write(HAND_WRITTEN + HAND_WRITTEN)
    return json.loads(cok("log", "--json").stdout)["events"]


def test_an_event_written_without_an_id_is_voided_by_the_reference_cok_log_shows(cok: Cok, campaign: Path) -> None:
    rows = _hand_written_twins(cok, campaign)
    first, second = rows[1]["ref"], rows[2]["ref"]
    assert first.startswith("=") and second == f"{first}#2"
    assert first in cok("log").stdout
    assert cok("void", second, "--reason", "counted twice").exit_code == 0
    assert json.loads(cok("standings", "--json").stdout)["players"][0]["bonus_cp"] == 2
    assert cok("check").exit_code == 0


def test_void_at_a_line_cancels_the_event_that_starts_there(cok: Cok, campaign: Path) -> None:
    rows = _hand_written_twins(cok, campaign)
    run = cok("void", f"@{rows[1]['line']}", "--reason", "typed in by mistake")
    assert run.exit_code == 0, run.stderr
    assert f"voided {rows[1]['ref']}" in run.stdout
    assert json.loads(cok("standings", "--json").stdout)["players"][0]["bonus_cp"] == 2


def test_void_at_a_line_where_no_event_starts_says_where_events_start(cok: Cok, campaign: Path) -> None:
    rows = _hand_written_twins(cok, campaign)
    run = cok("void", f"@{rows[1]['line'] + 1}", "--reason", "x")
    assert run.exit_code == 1
    assert f"events start on lines {rows[0]['line']}, {rows[1]['line']}, {rows[2]['line']}" in run.stderr
