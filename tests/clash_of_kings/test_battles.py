"""Fighting Battles: checking a battle, Tied Games, Occupying Territory, the castle cap,
Supply Lines, My last territory!, and the Brotherhood Without Banners."""

from __future__ import annotations

from typing import Any

import pytest

from cok.core.errors import ChoiceNeeded, RuleError
from cok.rulesets.clash_of_kings.rules.apply import apply, decide
from cok.rulesets.clash_of_kings.rules.outcomes import Fought
from cok.rulesets.clash_of_kings.rules.state import State

from ..conftest import event, holding, tiny_map

LINE = tiny_map(
    "A:castle B:fort C:village D:castle E:fort F:castle G:castle H:castle",
    "A-B B-C C-D D-E E-F F-G G-H",
)


def fight(state: State, **fields: Any) -> Fought:
    outcome = apply(state, event({"type": "battle", **fields}))
    assert isinstance(outcome, Fought)
    return outcome


def refused(state: State, **fields: Any) -> str:
    with pytest.raises(RuleError) as caught:
        decide(state, event({"type": "battle", **fields}))
    return str(caught.value)


# --- checking the battle ----------------------------------------------------------------------


def test_an_illegal_location_is_refused_listing_the_legal_ones() -> None:
    state = holding(LINE, {"tim": ["A"], "matt": ["D", "E"]})
    message = refused(state, players=["tim", "matt"], location="D", winner="tim")
    assert message == "D is not a legal location for tim (legal: B)"


def test_an_override_allows_any_location() -> None:
    state = holding(LINE, {"tim": ["A"], "matt": ["D", "E"]})
    result = fight(state, players=["tim", "matt"], location="D", winner="tim", override="organiser ruling")
    assert result.occupation.occupied
    assert state.holder["D"] == "tim"


def test_a_region_is_never_fought_over_even_with_an_override() -> None:
    geo = tiny_map("A:castle R:region B:fort", "A-R R-B")
    state = holding(geo, {"tim": ["A"], "matt": ["B"]})
    message = refused(state, players=["tim", "matt"], location="R", attacker="tim", winner="tim", override="x")
    assert "R is a region" in message


def test_a_roll_off_must_name_the_attacker() -> None:
    state = holding(LINE, {"tim": ["A"], "matt": ["E"]})
    with pytest.raises(ChoiceNeeded) as caught:
        decide(state, event({"type": "battle", "players": ["tim", "matt"], "location": "B", "winner": "tim"}))
    assert caught.value.field == "attacker"
    assert caught.value.options == ["tim", "matt"]


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"players": ["tim", "tim"]}, "two different players"),
        ({"players": ["tim", "rob"]}, "unknown player 'rob'"),
        ({"winner": "aaron"}, "winner aaron did not fight"),
        ({"vp": {"tim": 3, "aaron": 1}}, "vp names aaron"),
        ({"brotherhood": ["aaron"]}, "brotherhood names aaron"),
        ({"location": "Nowhere"}, "unknown location 'Nowhere'"),
        ({"mode": "king of the hill"}, "'king of the hill' is not a game mode this campaign allows"),
    ],
)
def test_a_battle_naming_the_wrong_things_is_refused(fields: dict[str, Any], message: str) -> None:
    state = holding(LINE, {"tim": ["A"], "matt": ["D", "E"], "aaron": ["H"]})
    battle = {"players": ["tim", "matt"], "location": "B", "winner": "tim", **fields}
    assert message in refused(state, **battle)


def test_a_known_game_mode_in_any_spelling_is_recorded_by_its_id() -> None:
    state = holding(LINE, {"tim": ["A"], "matt": ["D", "E"]})
    result = fight(state, players=["tim", "matt"], location="B", winner="tim", mode="A Clash of Kings")
    assert result.mode == "a-clash-of-kings"


# --- Tied Games ------------------------------------------------------------------------------

TIE_START = {"tim": ["A"], "matt": ["D", "E"]}


def test_the_winner_is_the_player_with_the_most_victory_points() -> None:
    state = holding(LINE, TIE_START)
    result = fight(state, players=["tim", "matt"], location="B", vp={"tim": 4, "matt": 9})
    assert (result.winner, result.won_by) == ("matt", "victory points")


def test_same_victory_points_then_the_most_points_remaining_wins() -> None:
    state = holding(LINE, TIE_START)
    result = fight(
        state, players=["tim", "matt"], location="B", vp={"tim": 5, "matt": 5}, remaining={"tim": 10, "matt": 12}
    )
    assert (result.winner, result.won_by) == ("matt", "points remaining")


def test_still_tied_the_attacking_player_is_declared_the_winner() -> None:
    state = holding(LINE, TIE_START)
    result = fight(
        state, players=["matt", "tim"], location="B", vp={"tim": 5, "matt": 5}, remaining={"tim": 10, "matt": 10}
    )
    assert (result.winner, result.won_by) == ("tim", "attacker")


def test_no_winner_and_no_victory_points_is_an_error() -> None:
    state = holding(LINE, TIE_START)
    assert "give `winner`" in refused(state, players=["tim", "matt"], location="B")
    assert "both tim and matt" in refused(state, players=["tim", "matt"], location="B", vp={"tim": 3})


def test_both_brotherhood_and_fully_tied_is_a_draw() -> None:
    state = holding(LINE, TIE_START)
    result = fight(state, players=["tim", "matt"], location="C", brotherhood=["tim", "matt"], vp={"tim": 2, "matt": 2})
    assert (result.winner, result.won_by) == (None, "draw")
    assert state.records["tim"].battles == 1
    assert (state.records["tim"].wins, state.records["tim"].losses) == (0, 0)


# --- Occupying Territory ------------------------------------------------------------------------


def test_the_winner_occupies_the_territory_and_removes_the_opponents_crest() -> None:
    state = holding(LINE, {"tim": ["A"], "matt": ["B", "E"]})
    result = fight(state, players=["tim", "matt"], location="B", winner="tim")
    assert result.occupation.occupied
    assert result.occupation.previous == "matt"
    assert state.holder["B"] == "tim"
    assert state.territories("matt") == {"E"}
    assert result.cp == {"tim": 3, "matt": -3}


def test_winning_as_defender_also_occupies() -> None:
    state = holding(LINE, {"tim": ["A"], "matt": ["D", "E"]})
    fight(state, players=["tim", "matt"], location="B", winner="matt")
    assert state.holder["B"] == "matt"


def test_winning_at_your_own_location_changes_nothing() -> None:
    state = holding(LINE, {"tim": ["A"], "matt": ["B", "E"]})
    result = fight(state, players=["tim", "matt"], location="B", winner="matt")
    assert result.occupation.unchanged == "already-held"
    assert result.cp == {}


def test_you_can_never_lose_the_last_territory_you_hold() -> None:
    state = holding(LINE, {"tim": ["A"], "matt": ["B"]})
    result = fight(state, players=["tim", "matt"], location="B", attacker="tim", winner="tim")
    assert result.occupation.unchanged == "last-territory"
    assert state.holder["B"] == "matt"
    assert result.cp == {}
    assert state.records["tim"].wins == 1


def test_the_last_territory_rule_protects_a_player_outside_the_battle() -> None:
    state = holding(LINE, {"tim": ["A"], "matt": ["E", "F"], "aaron": ["C"]})
    result = fight(state, players=["tim", "matt"], location="C", winner="tim", override="ruling")
    assert result.occupation.unchanged == "last-territory"
    assert result.occupation.previous == "aaron"
    assert state.holder["C"] == "aaron"


def test_the_brotherhood_cannot_occupy_territories_even_if_they_win() -> None:
    state = holding(LINE, {"tim": ["A"], "matt": ["D", "E"]})
    result = fight(state, players=["tim", "matt"], location="B", brotherhood=["matt"], winner="matt")
    assert (result.attacker, result.occupation.unchanged) == ("tim", "brotherhood")
    assert "B" not in state.holder
    assert state.records["matt"].wins == 1


def test_abandon_or_decline_where_nothing_is_occupied_is_an_error() -> None:
    state = holding(LINE, {"tim": ["A"], "matt": ["B"]})
    assert "nothing to abandon" in refused(
        state, players=["tim", "matt"], location="B", attacker="tim", winner="tim", abandon="A"
    )


# --- You can only ever hold 3 Castles ---------------------------------------------------------

CASTLES = {"tim": ["A", "D", "F"], "matt": ["G", "H", "E"]}


def test_a_fourth_castle_means_abandoning_one_of_your_castles() -> None:
    state = holding(LINE, CASTLES)
    with pytest.raises(ChoiceNeeded) as caught:
        decide(
            state,
            event(
                {
                    "type": "battle",
                    "players": ["tim", "matt"],
                    "location": "G",
                    "attacker": "tim",
                    "winner": "tim",
                    "override": "test",
                }
            ),
        )
    assert caught.value.options == ["A", "D", "F"]
    result = fight(
        state, players=["tim", "matt"], location="G", attacker="tim", winner="tim", override="test", abandon="A"
    )
    assert result.occupation.abandoned == "A"
    assert result.occupation.abandon_reason == "castle cap"
    assert state.castles_of("tim") == ["D", "F", "G"]
    assert "A" not in state.holder
    assert result.cp == {"tim": 0, "matt": -10}


def test_under_the_castle_cap_the_abandoned_location_must_be_a_castle() -> None:
    state = holding(LINE, {"tim": ["A", "D", "F", "B"], "matt": ["G", "H", "E", "C"]})
    message = refused(
        state, players=["tim", "matt"], location="G", attacker="tim", winner="tim", override="test", abandon="B"
    )
    assert "must abandon one of the castles A, D, F" in message


def test_abandon_where_nothing_calls_for_it_is_an_error() -> None:
    state = holding(LINE, {"tim": ["A"], "matt": ["D", "E"]})
    assert "nothing calls for abandoning" in refused(
        state, players=["tim", "matt"], location="B", winner="tim", abandon="A"
    )


def test_only_a_location_you_hold_can_be_abandoned() -> None:
    state = holding(LINE, CASTLES)
    assert "not theirs" in refused(
        state, players=["tim", "matt"], location="G", attacker="tim", winner="tim", override="test", abandon="H"
    )


# --- Supply Lines -------------------------------------------------------------------------------

LEAD = {"tim": ["A", "B"], "matt": ["D"], "aaron": ["H"]}  # tim 13 + 10 bonus vs 10 and 10


def leader() -> State:
    return holding(LINE, LEAD, bonus={"tim": 7})  # tim 20 CP, everyone else 10: a lead of 10


def test_a_first_place_lead_of_10_cp_puts_a_player_under_supply_lines() -> None:
    state = leader()
    assert state.under_supply_lines("tim")
    assert not state.under_supply_lines("matt")
    state.bonus["tim"] = 6
    assert not state.under_supply_lines("tim")


def test_under_supply_lines_you_must_abandon_a_location_of_equal_or_greater_value() -> None:
    state = leader()
    with pytest.raises(ChoiceNeeded) as caught:
        decide(state, event({"type": "battle", "players": ["tim", "matt"], "location": "C", "winner": "tim"}))
    assert caught.value.options == ["A", "B"]
    assert caught.value.decline
    result = fight(state, players=["tim", "matt"], location="C", winner="tim", abandon="B")
    assert (result.occupation.abandoned, result.occupation.abandon_reason) == ("B", "supply lines")
    assert state.territories("tim") == {"A", "C"}


def test_under_supply_lines_a_cheaper_location_will_not_do() -> None:
    state = holding(LINE, {"tim": ["A", "C"], "matt": ["F"], "aaron": ["H"]}, bonus={"tim": 9})
    message = refused(state, players=["tim", "matt"], location="E", winner="tim", abandon="C", override="x")
    assert "at least 3 CP" in message and "C is worth 1" in message


def test_under_supply_lines_the_winner_may_decline_to_occupy() -> None:
    state = leader()
    result = fight(state, players=["tim", "matt"], location="C", winner="tim", occupy=False)
    assert result.occupation.unchanged == "declined"
    assert "C" not in state.holder


def test_declining_without_supply_lines_is_an_error() -> None:
    state = holding(LINE, {"tim": ["A"], "matt": ["D", "E"]})
    assert "only for a winner under supply lines" in refused(
        state, players=["tim", "matt"], location="B", winner="tim", occupy=False
    )


def test_one_castle_abandoned_satisfies_supply_lines_and_the_castle_cap() -> None:
    state = holding(LINE, {"tim": ["A", "D", "F"], "matt": ["H"], "aaron": ["C"]})
    result = fight(state, players=["tim", "matt"], location="G", winner="tim", abandon="A", override="x")
    assert result.occupation.abandoned == "A"
    assert state.castles_of("tim") == ["D", "F", "G"]
