"""Section 5.4: battles (simple and Kings of War) and their results."""

from __future__ import annotations

from typing import Any

import pytest

from cok.core.errors import ChoiceNeeded
from cok.rulesets.mighty_kingdoms.rules.battle import board_size, defence
from cok.rulesets.mighty_kingdoms.rules.phase import phase
from cok.rulesets.mighty_kingdoms.rules.state import Army

from .game import Game

EVEN = {"ana-1": 1, "bo-1": 1}
BOTH = [["ana-1", "bo-1"], ["bo-1", "ana-1"]]


def fight(game: Game, **fields: Any) -> Any:
    return game("battle", tile="0,0", attacker="ana", defender="bo", **fields)


def refused(game: Game, **fields: Any) -> str:
    return game.refused("battle", tile="0,0", attacker="ana", defender="bo", **fields)


def add_army(game: Game, army_id: str, tile: str, **fields: Any) -> Army:
    army = Army(army_id, army_id.rsplit("-", 1)[0], tile, **fields)
    army.order, army.resolved = "defend", True
    game.state.add_army(army)
    return army


def test_a_battle_is_recorded_only_once_every_order_is_resolved() -> None:
    game = Game().two_kingdoms()
    game.orders(**{"ana-1": "move 0,0", "bo-1": "move 0,0"})
    game("resolve", army="ana-1", roll=[3, 4])
    assert "battles phase" in refused(game, dice=EVEN, allocate=BOTH)


def test_the_attacker_is_the_next_player_in_turn_with_a_tile_to_fight_in() -> None:
    game = Game().meeting()
    message = game.refused("battle", tile="0,0", attacker="bo", defender="ana", dice=EVEN, allocate=BOTH)
    assert "ana's turn to choose a battle" in message


def test_a_player_with_no_such_tile_is_skipped() -> None:
    game = Game().meeting()
    game.state.order = ["ana", "bo"]
    game.army("ana-1").upright = False  # ana has no upright army facing an enemy
    assert "bo's turn" in refused(game, slaughter="bo-1")


def test_the_defender_must_have_armies_in_the_tile() -> None:
    game = Game().meeting()
    game.state.kingdoms["cy"] = type(game.state.kingdoms["ana"])("cy", "cy", "x", None, 2)
    game.state.order.append("cy")
    assert "cy has no army" in game.refused("battle", tile="0,0", attacker="ana", defender="cy")


def test_the_defender_must_have_an_upright_army_there_if_any_enemy_does() -> None:
    game = Game().meeting()
    game.state.kingdoms["cy"] = type(game.state.kingdoms["ana"])("cy", "cy", "x", None, 2)
    game.state.order.append("cy")
    add_army(game, "cy-1", "0,0", upright=False)
    message = game.refused("battle", tile="0,0", attacker="ana", defender="cy", slaughter="cy-1")
    assert "enemy with upright armies" in message


def test_every_defender_army_on_its_side_is_a_slaughter_of_one_of_them() -> None:
    game = Game().meeting()
    game.army("bo-1").upright = False
    add_army(game, "bo-2", "0,0", upright=False)
    assert "no battle is fought" in refused(game, dice=EVEN)
    outcome = fight(game, slaughter="bo-2")
    assert outcome.slaughtered == "bo-2" and "bo-2" not in game.state.armies
    assert game.army("bo-1").tile == "0,0"  # no retreat, no change of control, no advance
    assert game.state.control["0,0"] == "ana"


def test_a_slaughter_is_refused_while_the_defender_has_upright_armies() -> None:
    assert "only of armies on their side" in refused(Game().meeting(), slaughter="bo-1")


def test_defence_is_points_divided_by_100_plus_1_for_defend() -> None:
    army = Army("a-1", "a", "0,0", points=300)
    assert defence(army) == 3
    army.defending = True
    assert defence(army) == 4


def test_one_die_for_each_upright_involved_army_no_more_no_fewer() -> None:
    game = Game().meeting()
    assert "no die for bo-1" in refused(game, dice={"ana-1": 3}, allocate=BOTH)
    add_army(game, "bo-2", "0,0", upright=False)
    message = refused(game, dice={**EVEN, "bo-2": 4}, allocate=BOTH)
    assert "bo-2 rolls no die" in message


def test_turns_alternate_attacker_first() -> None:
    game = Game().meeting()
    assert "ana's turn" in refused(game, dice=EVEN, allocate=[["bo-1", "ana-1"], ["ana-1", "bo-1"]])


def test_a_die_hits_if_it_is_at_least_the_targets_defence_and_takes_100_points() -> None:
    game = Game().meeting()
    outcome = fight(game, dice={"ana-1": 5, "bo-1": 4}, allocate=BOTH, retreat={"bo-1": "1,0"})
    assert [h.hit for h in outcome.hits] == [True, False]
    assert game.army("bo-1").points == 400 and game.army("ana-1").points == 500


def test_an_army_at_0_points_is_destroyed_and_its_unused_die_may_still_be_allocated() -> None:
    game = Game().meeting()
    game.army("bo-1").points = 100
    outcome = fight(game, dice={"ana-1": 6, "bo-1": 6}, allocate=BOTH)
    assert "bo-1" not in game.state.armies
    assert outcome.hits[1].hit and game.army("ana-1").points == 400  # the destroyed army's die still hit


def test_a_player_with_no_die_left_passes_and_the_other_goes_on() -> None:
    game = Game().meeting()
    add_army(game, "ana-2", "0,0")
    dice = {"ana-1": 1, "ana-2": 1, "bo-1": 1}
    plan = [["ana-1", "bo-1"], ["bo-1", "ana-1"], ["ana-2", "bo-1"]]
    outcome = fight(game, dice=dice, allocate=plan, retreat={"bo-1": "1,0"})
    assert len(outcome.hits) == 3


def test_allocation_ends_when_no_remaining_die_has_a_target() -> None:
    game = Game().meeting()
    game.army("bo-1").points = 100
    add_army(game, "ana-2", "0,0")
    dice = {"ana-1": 6, "ana-2": 6, "bo-1": 1}
    message = refused(game, dice=dice, allocate=[["ana-1", "bo-1"], ["bo-1", "ana-1"], ["ana-2", "bo-1"]])
    assert "after the last die that had a target" in message
    fight(game, dice=dice, allocate=[["ana-1", "bo-1"], ["bo-1", "ana-1"]])


def test_an_allocation_that_stops_too_early_is_asked_with_the_dice_known() -> None:
    """#36: the allocations are a question of the rules, answered with the rolled dice."""
    game = Game().meeting()
    with pytest.raises(ChoiceNeeded) as asked:
        game("battle", tile="0,0", attacker="ana", defender="bo", dice=EVEN, allocate=[["ana-1", "bo-1"]])
    assert asked.value.field == "allocate-2" and asked.value.options == ["bo-1:ana-1"]
    assert "the dice: ana-1 1, bo-1 1" in str(asked.value)


def test_only_one_kingdom_remaining_wins() -> None:
    game = Game().meeting()
    game.army("bo-1").points = 100
    outcome = fight(game, dice={"ana-1": 6, "bo-1": 6}, allocate=BOTH)
    assert outcome.winner == "ana" and "only ana" in outcome.why


def test_both_remaining_the_kingdom_that_caused_more_reduction_wins() -> None:
    game = Game().meeting()
    outcome = fight(game, dice={"ana-1": 2, "bo-1": 5}, allocate=BOTH, retreat={"ana-1": "-1,0"})
    assert outcome.winner == "bo"


def test_equal_reductions_are_a_draw() -> None:
    game = Game().meeting()
    outcome = fight(game, dice={"ana-1": 5, "bo-1": 5}, allocate=BOTH, retreat={"bo-1": "1,0"})
    assert outcome.winner is None


def test_neither_remaining_the_kingdom_that_caused_more_reduction_wins() -> None:
    game = Game().meeting()
    game.army("ana-1").points = 100
    game.army("bo-1").points = 100
    outcome = fight(game, dice={"ana-1": 6, "bo-1": 6}, allocate=BOTH)
    assert outcome.winner is None and set(outcome.destroyed) == {"ana-1", "bo-1"}


def test_a_side_on_its_side_remains_though_it_fought_no_die() -> None:
    game = Game().meeting()
    game.army("bo-1").points = 100
    add_army(game, "bo-2", "0,0", upright=False)
    outcome = fight(game, dice={"ana-1": 6, "bo-1": 1}, allocate=BOTH, retreat={"bo-2": "1,0"})
    assert outcome.winner == "ana"  # ana caused 100, bo none: both remain, ana caused more
    assert game.army("bo-2").tile == "1,0" and not game.army("bo-2").upright


def test_the_result_is_optional_and_must_equal_what_the_dice_give() -> None:
    game = Game().meeting()
    message = refused(game, dice={"ana-1": 5, "bo-1": 1}, allocate=BOTH, result="bo", retreat={"bo-1": "1,0"})
    assert "the dice give ana" in message
    fight(game, dice={"ana-1": 5, "bo-1": 1}, allocate=BOTH, result="ana", retreat={"bo-1": "1,0"})


def test_loss_moves_each_losing_army_to_an_adjacent_controlled_tile_on_its_side() -> None:
    game = Game().meeting()
    with pytest.raises(ChoiceNeeded) as asked:  # #35: asked once the result is known
        game("battle", tile="0,0", attacker="ana", defender="bo", dice={"ana-1": 5, "bo-1": 1}, allocate=BOTH)
    assert asked.value.field == "retreat-bo-1" and "ana wins" in str(asked.value)
    fight(game, dice={"ana-1": 5, "bo-1": 1}, allocate=BOTH, retreat={"bo-1": "1,0"})
    assert game.army("bo-1").tile == "1,0" and not game.army("bo-1").upright


def test_a_retreat_goes_only_where_a_move_could_go_into_a_tile_of_the_kingdom() -> None:
    game = Game().meeting()
    message = refused(game, dice={"ana-1": 5, "bo-1": 1}, allocate=BOTH, retreat={"bo-1": "2,0"})
    assert "may retreat only" in message and "1,0" in message


def test_a_losing_army_with_no_adjacent_controlled_tile_is_destroyed() -> None:
    game = Game().meeting()
    game.state.control["1,0"] = "ana"
    outcome = fight(game, dice={"ana-1": 5, "bo-1": 1}, allocate=BOTH)
    assert "bo-1" in outcome.destroyed and "bo-1" not in game.state.armies


def test_draw_armies_of_the_tiles_controller_stay_the_others_move_and_keep_their_state() -> None:
    game = Game().meeting()
    assert "a draw: bo-1 must leave" in refused(game, dice=EVEN, allocate=BOTH)
    fight(game, dice=EVEN, allocate=BOTH, retreat={"bo-1": "1,0"})
    assert game.army("ana-1").tile == "0,0" and game.army("bo-1").tile == "1,0"
    assert game.army("bo-1").upright and game.state.control["0,0"] == "ana"


def test_draw_with_no_adjacent_controlled_tile_destroys_the_army() -> None:
    game = Game().meeting()
    game.state.control["1,0"] = "ana"
    fight(game, dice=EVEN, allocate=BOTH)
    assert "bo-1" not in game.state.armies


def test_there_is_no_advance_after_a_draw() -> None:
    game = Game().meeting()
    message = refused(game, dice=EVEN, allocate=BOTH, retreat={"bo-1": "1,0"}, advance={"ana-1": "-1,0"})
    assert "no advance after a draw" in message


def test_win_gives_the_tile_to_the_winner() -> None:
    game = Game().meeting()
    fight(game, dice={"ana-1": 1, "bo-1": 5}, allocate=BOTH, retreat={"ana-1": "-1,0"})
    assert game.state.control["0,0"] == "bo"


def test_the_winner_may_advance_one_army_to_an_adjacent_tile_it_controls() -> None:
    game = Game().meeting()
    outcome = fight(
        game, dice={"ana-1": 5, "bo-1": 1}, allocate=BOTH, retreat={"bo-1": "1,0"}, advance={"ana-1": "-1,0"}
    )
    assert outcome.advance == ("ana-1", "-1,0") and game.army("ana-1").tile == "-1,0"
    game2 = Game().meeting()
    message = game2.refused(
        "battle",
        tile="0,0",
        attacker="ana",
        defender="bo",
        dice={"ana-1": 5, "bo-1": 1},
        allocate=BOTH,
        retreat={"bo-1": "1,0"},
        advance={"ana-1": "1,0"},
    )
    assert "may advance only" in message


def test_advance_moves_exactly_one_army() -> None:
    from pydantic import ValidationError

    from cok.rulesets.mighty_kingdoms.events import Battle

    try:
        Battle(tile="0,0", attacker="ana", defender="bo", advance={"ana-1": "-1,0", "ana-2": "-1,0"})
    except ValidationError as error:
        assert "one army at most" in str(error)
    else:
        raise AssertionError("two advancing armies were accepted")


def test_a_retreat_into_enemy_armies_makes_a_new_contested_tile_fought_in_the_same_phase() -> None:
    game = Game().meeting()
    add_army(game, "ana-2", "1,0")  # ana's army standing in bo's city
    fight(game, dice={"ana-1": 5, "bo-1": 1}, allocate=BOTH, retreat={"bo-1": "1,0"})
    assert phase(game.state) == "battles" and game.state.may_attack("ana") == ["1,0"]


def test_turns_go_round_the_table_after_a_battle() -> None:
    game = Game().meeting()
    add_army(game, "ana-2", "1,0")
    add_army(game, "bo-2", "-1,0")
    fight(game, dice=EVEN, allocate=BOTH, retreat={"bo-1": "1,0"})
    message = game.refused("battle", tile="1,0", attacker="ana", defender="bo", slaughter="bo-1")
    assert "bo's turn" in message


def test_the_board_size_follows_the_most_upright_armies_on_one_side() -> None:
    assert [board_size(n) for n in (1, 2, 3, 4, 5, 6, 9)] == [
        "4'×4'",
        "4'×4'",
        "5'×4'",
        "6'×4'",
        "6'×4'",
        "8'×4'",
        "8'×4'",
    ]


# ------------------------------------------------------------------ Kings of War


def kow() -> Game:
    units = {"Spearmen": 2, "Archers": 1}
    return Game(battles="kings-of-war").meeting(units=units)


def test_kings_of_war_needs_the_result() -> None:
    assert "give the result" in refused(kow())


def test_kings_of_war_refuses_dice_and_allocations() -> None:
    assert "for simple battles" in refused(kow(), result="ana", dice=EVEN)


def test_kings_of_war_records_unit_strength_changes_on_involved_units() -> None:
    game = kow()
    fight(game, result="ana", retreat={"bo-1": "1,0"}, strength={"ana-1": {"Spearmen": 1}, "bo-1": {"Archers": -1}})
    assert game.army("ana-1").strength("Spearmen") == 3 and game.army("bo-1").strength("Archers") == 0


def test_an_unknown_unit_is_refused_when_the_army_has_units() -> None:
    message = refused(kow(), result="ana", retreat={"bo-1": "1,0"}, strength={"ana-1": {"Knights": 1}})
    assert "no unit 'Knights'" in message


def test_a_strength_change_is_minus_one_zero_or_plus_one() -> None:
    from pydantic import ValidationError

    from cok.rulesets.mighty_kingdoms.events import Battle

    try:
        Battle(tile="0,0", attacker="a", defender="b", result="a", strength={"a-1": {"X": 2}})
    except ValidationError:
        return
    raise AssertionError("a change of +2 was accepted")


def test_simple_battles_refuse_strength() -> None:
    assert "Kings of War" in refused(Game().meeting(), dice=EVEN, allocate=BOTH, strength={"ana-1": {"X": 1}})


def test_kings_of_war_draw_and_results_apply_as_in_simple_battles() -> None:
    game = kow()
    fight(game, result="draw", retreat={"bo-1": "1,0"})
    assert game.army("bo-1").tile == "1,0" and game.army("bo-1").upright
