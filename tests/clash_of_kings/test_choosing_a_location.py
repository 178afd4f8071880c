"""Choosing a Location: who chooses, and where the battle may be fought."""

from __future__ import annotations

import pytest

from cok.core.errors import RuleError
from cok.rulesets.clash_of_kings.map import Geography
from cok.rulesets.clash_of_kings.rules.attacker import choose_attacker
from cok.rulesets.clash_of_kings.rules.locations import legal_locations
from cok.rulesets.clash_of_kings.rules.where import where

from ..conftest import Cok, holding, tiny_map

# --- Who chooses? ---------------------------------------------------------------------------

GEO = tiny_map("A:castle B:fort C:village D:castle E:fort", "A-B B-C C-D D-E")


def test_the_player_with_fewer_territories_chooses_even_if_higher_on_points() -> None:
    state = holding(GEO, {"tim": ["A"], "matt": ["C", "E"]}, bonus={"tim": 50})
    attack = choose_attacker(state, "matt", "tim")
    assert (attack.attacker, attack.defender, attack.decided_by) == ("tim", "matt", "fewer-territories")


def test_the_same_number_of_territories_means_a_roll_off() -> None:
    state = holding(GEO, {"tim": ["A"], "matt": ["E"]})
    assert choose_attacker(state, "tim", "matt").decided_by == "roll-needed"
    attack = choose_attacker(state, "tim", "matt", given="matt")
    assert (attack.attacker, attack.defender, attack.decided_by) == ("matt", "tim", "given")


def test_a_given_attacker_that_contradicts_fewer_territories_is_an_error() -> None:
    state = holding(GEO, {"tim": ["A"], "matt": ["C", "E"]})
    with pytest.raises(RuleError, match="the player with fewer territories, tim, is the attacker"):
        choose_attacker(state, "tim", "matt", given="matt")


def test_the_brotherhood_never_chooses_the_territory() -> None:
    state = holding(GEO, {"tim": ["A"], "matt": ["C", "E"]})
    attack = choose_attacker(state, "tim", "matt", brotherhood=["tim"])
    assert (attack.attacker, attack.defender, attack.decided_by) == ("matt", "tim", "brotherhood")
    with pytest.raises(RuleError, match="never chooses the location: matt is the attacker"):
        choose_attacker(state, "tim", "matt", brotherhood=["tim"], given="tim")


def test_when_both_fight_as_the_brotherhood_there_is_no_attacker() -> None:
    state = holding(GEO, {"tim": ["A"], "matt": ["E"]})
    found = where(state, "tim", "matt", brotherhood=["tim", "matt"])
    assert (found.attacker, found.step) == (None, "any-location")
    assert found.locations == ["A", "B", "C", "D", "E"]
    with pytest.raises(RuleError, match="neither is the attacker"):
        choose_attacker(state, "tim", "matt", brotherhood=["tim", "matt"], given="tim")


# --- Where can we fight? ------------------------------------------------------------------------


def test_the_source_example_in_dorne(westeros: Geography) -> None:
    """Tim and Matt are about to battle, Aaron holds Salt Shore."""
    state = holding(
        westeros,
        {
            "tim": ["Blackmont", "High Hermitage"],
            "matt": ["Godsgrace", "Ghost Hill"],
            "aaron": ["Salt Shore"],
        },
    )
    assert legal_locations(state, "tim", "matt") == (
        "adjacent-to-attacker",
        ["Horn Hill", "Sandstone", "Starfall", "Vulture's Roost"],
    )
    # "He cannot choose Salt Shore, as Aaron occupies it, and is not participating in the battle."
    assert legal_locations(state, "matt", "tim") == ("adjacent-to-attacker", ["Hellholt", "Lemonwood", "Mistwood"])
    found = where(state, "tim", "matt")
    assert found.decided_by == "roll-needed"
    assert [o.attacker for o in found.options] == ["tim", "matt"]


def test_the_attacker_must_choose_a_location_adjacent_to_their_own() -> None:
    state = holding(GEO, {"tim": ["A"], "matt": ["E"]})
    assert legal_locations(state, "tim", "matt") == ("adjacent-to-attacker", ["B"])


def test_a_location_of_the_defender_adjacent_to_the_attacker_is_legal() -> None:
    state = holding(GEO, {"tim": ["A"], "matt": ["B", "E"]})
    assert legal_locations(state, "tim", "matt") == ("adjacent-to-attacker", ["B"])


def test_no_eligible_location_then_any_location_adjacent_to_the_defender() -> None:
    state = holding(GEO, {"tim": ["A"], "aaron": ["B"], "matt": ["E"]})
    assert legal_locations(state, "tim", "matt") == ("adjacent-to-defender", ["D"])


def test_still_none_then_any_unoccupied_location() -> None:
    geo = tiny_map("A:castle B:fort C:village D:castle E:fort F:village", "A-B D-E")
    state = holding(geo, {"tim": ["A"], "aaron": ["B", "D"], "matt": ["E"]})
    assert legal_locations(state, "tim", "matt") == ("any-unoccupied", ["C", "F"])


def test_no_unoccupied_location_then_the_defenders_village_first() -> None:
    geo = tiny_map("A:castle B:fort C:village D:castle E:fort", "A-B")
    state = holding(geo, {"tim": ["A"], "aaron": ["B"], "matt": ["C", "D", "E"]})
    assert legal_locations(state, "tim", "matt") == ("defender-village", ["C"])


def test_if_the_defender_has_no_villages_a_fort() -> None:
    geo = tiny_map("A:castle B:fort C:village D:castle E:fort", "A-B")
    state = holding(geo, {"tim": ["A"], "aaron": ["B", "C"], "matt": ["D", "E"]})
    assert legal_locations(state, "tim", "matt") == ("defender-fort", ["E"])


def test_if_no_villages_or_forts_a_castle() -> None:
    geo = tiny_map("A:castle B:fort C:village D:castle E:fort", "A-B")
    state = holding(geo, {"tim": ["A"], "aaron": ["B", "C", "E"], "matt": ["D"]})
    assert legal_locations(state, "tim", "matt") == ("defender-castle", ["D"])


def test_regions_are_never_a_battle_location() -> None:
    geo = tiny_map("A:castle R:region B:fort", "A-R R-B")
    state = holding(geo, {"tim": ["A"], "matt": ["B"]})
    assert legal_locations(state, "tim", "matt") == ("adjacent-to-attacker", ["B"])


def test_a_roll_off_says_that_no_castle_has_a_bonus_once_after_the_last_table(cok: Cok) -> None:
    cok("join", "tim", "--faction", "martell")
    cok("join", "matt", "--faction", "baratheon")
    run = cok("where", "tim", "matt")
    assert run.exit_code == 0 and "roll off" in run.stdout
    assert run.stdout.count("No castle has a bonus") == 1
    assert run.stdout.rstrip().endswith("in the map file.")
