"""Contract §4.3 Actions and their fine points in §4.7: one test per sentence."""

from __future__ import annotations

from typing import Any

from cok.rulesets.no_true_king.rules.actions import has_legal_move, muster_points
from tests.no_true_king.helpers import begun, give, put, rec, refused, resolving


def game(house: str = "stark", space: str = "maester") -> Any:
    state = begun()
    resolving(state, "ana", house, space)
    return state


def act(house: str, *actions: dict[str, Any], space: str = "maester", player: str = "ana") -> dict[str, Any]:
    return {"type": "resolve", "player": player, "house": house, "space": space, "actions": list(actions)}


def mv(origin: str, to: str, *units: str) -> dict[str, Any]:
    return {"move": {"from": origin, "to": to, "units": list(units)}}


# Muster ---------------------------------------------------------------------------


def test_muster_points_are_the_barrels_of_the_land_areas_the_house_controls() -> None:
    state = game()
    assert muster_points(state, "stark") == 1  # Winterfell 1, White Harbor 0, a sea none
    put(state, "Widow's Watch", "stark", f=1)
    assert muster_points(state, "stark") == 2


def test_a_point_adds_a_footman_to_an_area_the_house_controls() -> None:
    state = game()
    rec(state, **act("stark", {"muster": {"Winterfell": ["footman"]}}))
    assert state.troops["Winterfell"] == ("stark", 2, 1, 0)


def test_footmen_only_in_land_areas_the_house_controls() -> None:
    state = game()
    refused(state, "does not control", **act("stark", {"muster": {"Karhold": ["footman"]}}))
    refused(state, "through land areas", **act("stark", {"muster": {"The Shivering Sea": ["footman"]}}))


def test_a_muster_may_not_spend_more_points_than_the_house_has() -> None:
    state = game()
    put(state, "Widow's Watch", "stark", f=1)
    muster = {"Winterfell": ["footman"], "Widow's Watch": ["footman"], "promote": ["Winterfell"]}
    refused(state, "2 muster point", **act("stark", {"muster": muster}))


def test_spending_fewer_points_than_the_house_has_is_allowed() -> None:
    state = game()
    rec(state, **act("stark", {"muster": {}}))
    assert state.troops["Winterfell"] == ("stark", 1, 1, 0)


def test_through_one_land_area_footmen_plus_ships_added_are_at_most_its_barrels() -> None:
    state = game("tyrell")
    refused(state, "does not control", **act("tyrell", {"muster": {"Searoad Marches": ["footman"]}}))
    put(state, "Searoad Marches", "tyrell", f=1)
    refused(state, "has 1 barrel", **act("tyrell", {"muster": {"Searoad Marches": ["footman", "footman"]}}))


def test_a_ship_is_added_through_a_coastal_area_into_a_bordering_sea() -> None:
    state = game()
    rec(state, **act("stark", {"muster": {"Winterfell": [{"ship": "Bay of Ice"}]}}))
    assert state.troops["Bay of Ice"] == ("stark", 0, 0, 1)


def test_a_ship_must_go_to_a_sea_bordering_the_area() -> None:
    state = game()
    refused(state, "bordering it", **act("stark", {"muster": {"Winterfell": [{"ship": "The Narrow Sea"}]}}))
    refused(state, "goes to a sea area", **act("stark", {"muster": {"Winterfell": [{"ship": "Karhold"}]}}))


def test_a_mustered_ship_never_goes_to_a_sea_holding_another_houses_ships() -> None:
    state = game()
    put(state, "Bay of Ice", "greyjoy", s=1)
    refused(state, "no combat in a muster", **act("stark", {"muster": {"Winterfell": [{"ship": "Bay of Ice"}]}}))


def test_a_point_promotes_a_footman_anywhere_to_a_knight() -> None:
    state = game()
    rec(state, **act("stark", {"muster": {"promote": ["White Harbor"]}}))
    assert state.troops["White Harbor"] == ("stark", 0, 1, 0)


def test_pieces_are_added_first_then_promoted_even_a_new_footman() -> None:
    state = game()
    put(state, "Winterfell", "stark", k=1)
    put(state, "Widow's Watch", "stark", f=1)
    rec(state, **act("stark", {"muster": {"Winterfell": ["footman"], "promote": ["Winterfell"]}}))
    assert state.troops["Winterfell"] == ("stark", 0, 2, 0)


def test_promoting_needs_a_footman_there() -> None:
    state = game()
    refused(state, "no footman there", **act("stark", {"muster": {"promote": ["The Shivering Sea"]}}))


def test_never_more_pieces_than_the_box_holds() -> None:
    state = game()
    put(state, "White Harbor", "stark")
    put(state, "Winterfell", "stark", f=9, k=1)
    rec(state, **act("stark", {"muster": {"Winterfell": ["footman"]}}))
    assert state.on_board("stark")[0] == 10
    state = game()
    put(state, "White Harbor", "stark")
    put(state, "Winterfell", "stark", f=10, k=1)
    refused(state, "the box holds 10", **act("stark", {"muster": {"Winterfell": ["footman"]}}))
    state = game()
    put(state, "Winterfell", "stark", f=2, k=5)
    refused(state, "the box holds 5", **act("stark", {"muster": {"promote": ["Winterfell"]}}))


# Move -----------------------------------------------------------------------------


def test_a_move_takes_any_troops_of_one_area_to_one_bordering_area() -> None:
    state = game()
    rec(state, **act("stark", mv("Winterfell", "Moat Cailin", "footman", "knight")))
    assert state.troops["Moat Cailin"] == ("stark", 1, 1, 0)
    state = game()
    refused(state, "does not border", **act("stark", mv("Winterfell", "The Twins", "footman")))


def test_a_move_moves_at_least_one_piece_the_house_has_there() -> None:
    state = game()
    refused(
        state,
        "has 1 footman, 1 knight in Winterfell",
        **act("stark", mv("Winterfell", "Karhold", "footman", "footman")),
    )


def test_ships_sail_sea_to_sea_and_never_onto_land() -> None:
    state = game()
    rec(state, **act("stark", mv("The Shivering Sea", "The Narrow Sea", "ship")))
    state = game()
    refused(state, "ships sail only at sea", **act("stark", mv("The Shivering Sea", "Karhold", "ship")))


def test_footmen_and_knights_go_to_sea_only_with_a_ship_for_each() -> None:
    state = game()
    rec(state, **act("stark", mv("Winterfell", "The Shivering Sea", "knight")))
    assert state.troops["The Shivering Sea"] == ("stark", 0, 1, 1)
    state = game()
    refused(state, "too few ships", **act("stark", mv("Winterfell", "The Shivering Sea", "footman", "knight")))


def test_carrying_holds_after_every_move_also_when_only_ships_sail_away() -> None:
    state = game()
    put(state, "The Shivering Sea", "stark", f=1, s=1)
    refused(state, "without a ship for each", **act("stark", mv("The Shivering Sea", "The Narrow Sea", "ship")))
    rec(state, **act("stark", mv("The Shivering Sea", "The Narrow Sea", "ship", "footman")))
    assert state.troops["The Narrow Sea"] == ("stark", 1, 0, 1)


def test_troops_carried_at_sea_may_land() -> None:
    state = game()
    put(state, "The Shivering Sea", "stark", f=1, s=1)
    rec(state, **act("stark", mv("The Shivering Sea", "Karhold", "footman")))
    assert state.troops["Karhold"] == ("stark", 1, 0, 0)


def test_a_flag_stays_where_the_last_troop_leaves_a_land_area() -> None:
    state = game()
    rec(state, **act("stark", mv("Winterfell", "Karhold", "footman", "knight")))
    assert state.flags["Winterfell"] == "stark" and state.controller("Winterfell") == "stark"


def test_no_flag_when_troops_stay_behind_and_none_at_sea() -> None:
    state = game()
    rec(state, **act("stark", mv("Winterfell", "Karhold", "footman")))
    assert "Winterfell" not in state.flags
    state = game()
    rec(state, **act("stark", mv("The Shivering Sea", "The Narrow Sea", "ship")))
    assert "The Shivering Sea" not in state.flags and state.controller("The Shivering Sea") is None


def test_troops_entering_an_area_remove_another_houses_flag_never_their_own() -> None:
    state = game()
    state.flags["Karhold"] = "greyjoy"
    rec(state, **act("stark", mv("Winterfell", "Karhold", "footman")))
    assert "Karhold" not in state.flags and state.controller("Karhold") == "stark"
    state = game()
    state.flags["Karhold"] = "stark"
    rec(state, **act("stark", mv("Winterfell", "Karhold", "footman")))
    assert state.flags["Karhold"] == "stark"


def test_a_house_controls_an_area_where_it_has_troops_or_its_flag() -> None:
    state = game()
    state.flags["Karhold"] = "stark"
    assert state.controller("Karhold") == "stark" and state.controller("Winterfell") == "stark"
    assert state.controller("The Twins") is None


def test_entering_another_houses_troops_is_a_combat_and_needs_its_record() -> None:
    state = game()
    put(state, "Karhold", "greyjoy", f=1)
    refused(state, "record the `combat`", **act("stark", mv("Winterfell", "Karhold", "knight")))


def test_a_combat_is_refused_when_no_move_entered_another_houses_troops() -> None:
    state = game()
    refused(
        state, "only when a move entered", **(act("stark", mv("Winterfell", "Karhold", "footman")) | {"combat": {}})
    )


# Draw -----------------------------------------------------------------------------


def test_draw_gives_the_player_a_card_of_the_house() -> None:
    state = game()
    rec(state, **act("stark", {"draw": True}))
    assert state.held[("ana", "stark")] == 1 and state.drawn["stark"] == 1


def test_draw_only_while_the_house_has_cards_not_yet_drawn_7_a_house() -> None:
    state = game()
    give(state, "bo", "stark", 7)
    refused(state, "no card left to draw", **act("stark", {"draw": True}))


# §4.7 Actions left out ------------------------------------------------------------


def test_a_marshal_may_leave_out_its_move_only_when_the_house_has_no_legal_move() -> None:
    state = game("stark", "marshal")
    refused(state, "may leave it out only when", **act("stark", {"muster": {}}, space="marshal"))
    state = game("stark", "marshal")
    for area in [a for a, f in state.troops.items() if f[0] == "stark"]:
        put(state, area, "stark")
    state.flags["Winterfell"] = "stark"
    assert not has_legal_move(state, "stark")
    rec(state, **act("stark", {"muster": {}}, space="marshal"))


def test_a_lord_takes_a_single_action_only_a_muster_with_no_move_and_no_card_left() -> None:
    state = game("stark", "lord")
    refused(state, "a legal move or a card to draw", **act("stark", {"muster": {}}, space="lord"))
    refused(state, "a single one only when it is a muster", **act("stark", {"draw": True}, space="lord"))
    for area in [a for a, f in state.troops.items() if f[0] == "stark"]:
        put(state, area, "stark")
    state.flags["Winterfell"] = "stark"
    give(state, "bo", "stark", 7)
    rec(state, **act("stark", {"muster": {}}, space="lord"))
