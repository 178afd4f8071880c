"""Sections 5.2 (orders), 5.3 (resolution) and 5.5 (Reform)."""

from __future__ import annotations

from cok.rulesets.mighty_kingdoms.rules.phase import phase

from .game import Game


def test_every_army_gets_exactly_one_order_a_month() -> None:
    game = Game().two_kingdoms()
    game.orders(**{"ana-1": "defend"})
    assert "already has its order" in game.refused("order", army="ana-1", order="move", to="0,0")


def test_a_second_order_names_the_first_orders_event_for_cok_void() -> None:
    game = Game().two_kingdoms()
    game("order", army="ana-1", order="defend", id="5e1f0c2a9b7d")
    refused = game.refused("order", army="ana-1", order="move", to="0,0")
    assert "already has its order this month (defend)" in refused and "`cok void 5e1f0c2a9b7d --reason WHY`" in refused


def test_a_second_order_after_one_written_without_an_id_points_to_cok_log() -> None:
    game = Game().two_kingdoms()
    game.orders(**{"ana-1": "defend"})
    refused = game.refused("order", army="ana-1", order="move", to="0,0")
    assert "void its order event" in refused and "`cok log`" in refused and "cok void" not in refused


def test_reform_forgets_the_id_of_the_months_orders() -> None:
    game = Game().two_kingdoms()
    game("order", army="ana-1", order="defend", id="5e1f0c2a9b7d")
    assert game.army("ana-1").order_id == "5e1f0c2a9b7d"
    game("order", army="bo-1", order="defend")
    game("resolve", army="ana-1")
    game("resolve", army="bo-1")
    game("reform", order=["ana", "bo"])
    assert game.army("ana-1").order_id is None


def test_an_army_on_its_side_may_only_regroup() -> None:
    game = Game().two_kingdoms()
    game.army("ana-1").upright = False
    assert "may only regroup" in game.refused("order", army="ana-1", order="defend")
    game.orders(**{"ana-1": "regroup"})


def test_an_upright_army_may_not_regroup() -> None:
    assert "only an army on its side regroups" in Game().two_kingdoms().refused("order", army="ana-1", order="regroup")


def test_raze_only_when_the_army_stands_on_a_settlement() -> None:
    game = Game().two_kingdoms()
    game.move("ana-1", "-3,0")
    assert "no settlement to raze" in game.refused("order", army="ana-1", order="raze")


def test_move_only_to_a_neighbour_a_move_may_enter() -> None:
    game = Game().two_kingdoms()
    assert "not a neighbour" in game.refused("order", army="ana-1", order="move", to="2,0")
    game.move("bo-1", "0,-1")
    assert "water" in game.refused("order", army="bo-1", order="move", to="1,-1")
    game.move("bo-1", "1,0")
    assert "marsh" in game.refused("order", army="bo-1", order="move", to="0,1")


def test_orders_are_recorded_in_any_order() -> None:
    game = Game().two_kingdoms()
    game.orders(**{"bo-1": "defend", "ana-1": "defend"})
    assert phase(game.state) == "resolution"


def test_an_order_out_of_its_phase_names_the_phase_and_what_the_ledger_waits_for() -> None:
    game = Game().two_kingdoms()
    game.orders(**{"bo-1": "defend", "ana-1": "defend"})
    message = game.refused("order", army="ana-1", order="defend")
    assert "orders phase" in message and "resolution phase" in message and "ana to resolve" in message


def test_orders_are_resolved_in_player_order_round_the_table() -> None:
    game = Game().two_kingdoms()
    game.orders(**{"bo-1": "defend", "ana-1": "defend"})
    assert "ana's turn" in game.refused("resolve", army="bo-1")
    game("resolve", army="ana-1")
    game("resolve", army="bo-1")
    assert phase(game.state) == "reform"


def test_resolution_skips_players_with_nothing_left_and_never_restarts_from_the_first() -> None:
    game = Game().two_kingdoms()
    game.state.add_army(type(game.army("ana-1"))("ana-2", "ana", "-2,0"))
    game.orders(**{"ana-1": "defend", "ana-2": "defend", "bo-1": "defend"})
    game("resolve", army="ana-1")
    assert "bo's turn" in game.refused("resolve", army="ana-2")
    game("resolve", army="bo-1")
    game("resolve", army="ana-2")  # bo has nothing left: back to ana
    assert phase(game.state) == "reform"


def test_moving_into_an_unexplored_tile_needs_the_roll() -> None:
    game = Game().two_kingdoms()
    game.orders(**{"ana-1": "move 0,0", "bo-1": "defend"})
    assert "give the 2D6 `roll`" in game.refused("resolve", army="ana-1")


def test_exploration_2_to_7_is_empty_8_9_village_10_city_11_12_fortress() -> None:
    for roll, found in (
        ([1, 1], None),
        ([3, 4], None),
        ([4, 4], "village"),
        ([4, 5], "village"),
        ([5, 5], "city"),
        ([5, 6], "fortress"),
        ([6, 6], "fortress"),
    ):
        game = Game().two_kingdoms()
        game.orders(**{"ana-1": "move 0,0", "bo-1": "defend"})
        game("resolve", army="ana-1", roll=roll)
        assert game.state.settlement.get("0,0") == found, roll
        assert game.state.control["0,0"] == "ana" and "0,0" in game.state.explored
        assert game.army("ana-1").tile == "0,0"


def test_a_roll_is_refused_where_nothing_is_explored() -> None:
    game = Game().two_kingdoms()
    game.orders(**{"ana-1": "move -1,-1", "bo-1": "defend"})
    assert "explores nothing" in game.refused("resolve", army="ana-1", roll=[3, 4])


def test_moving_into_an_explored_tile_takes_it_when_no_enemy_is_there() -> None:
    game = Game().two_kingdoms()
    game.orders(**{"ana-1": "move -1,-1", "bo-1": "defend"})
    game("resolve", army="ana-1")
    assert game.army("ana-1").tile == "-1,-1"
    game = Game().two_kingdoms()
    game.state.control["0,0"] = "bo"
    game.state.explored.add("0,0")
    game.orders(**{"ana-1": "move 0,0", "bo-1": "defend"})
    game("resolve", army="ana-1")
    assert game.state.control["0,0"] == "ana"


def test_moving_into_a_tile_another_kingdom_controls_takes_it_from_that_kingdom() -> None:
    """5.3 Move | Controlled: "the tile becomes controlled by the kingdom the army belongs
    to": the outcome says whose it was, and the summary says it changed hands."""
    from cok.rulesets.mighty_kingdoms.words import tell

    game = Game().two_kingdoms()
    game.state.control["0,0"] = "bo"
    game.state.explored.add("0,0")
    game.orders(**{"ana-1": "move 0,0", "bo-1": "defend"})
    outcome = game("resolve", army="ana-1")
    assert outcome.took and outcome.taken_from == "bo"
    assert tell(game.state, outcome).endswith(", taking it from bo")


def test_moving_into_a_tile_of_ones_own_or_nobodys_takes_it_from_nobody() -> None:
    from cok.rulesets.mighty_kingdoms.words import tell

    game = Game().two_kingdoms()
    game.orders(**{"ana-1": "move -1,-1", "bo-1": "defend"})  # ana's own village
    own = game("resolve", army="ana-1")
    assert own.took and own.taken_from is None
    assert tell(game.state, own).endswith(", which ana controls")
    game = Game().two_kingdoms()
    game.state.explored.add("0,0")  # explored, held by nobody
    game.orders(**{"ana-1": "move 0,0", "bo-1": "defend"})
    assert game("resolve", army="ana-1").taken_from is None


def test_moving_into_a_tile_with_an_enemy_army_does_not_take_it() -> None:
    game = Game().meeting()
    game2 = Game().two_kingdoms()
    game2.orders(**{"ana-1": "move 0,0", "bo-1": "move 0,0"})
    game2("resolve", army="ana-1", roll=[3, 4])
    outcome = game2("resolve", army="bo-1")
    assert not outcome.took and game2.state.control["0,0"] == "ana"
    assert game.state.control["0,0"] == "ana"


def test_the_status_of_a_tile_is_read_at_resolution_not_at_ordering() -> None:
    game = Game().two_kingdoms()
    game.orders(**{"ana-1": "move 0,0", "bo-1": "move 0,0"})
    game("resolve", army="ana-1", roll=[5, 6])
    assert "explores nothing" in game.refused("resolve", army="bo-1", roll=[2, 2])


def test_raze_removes_the_settlement_when_no_enemy_army_is_there() -> None:
    game = Game().two_kingdoms()
    game.move("ana-1", "1,0")  # bo's city
    game.move("bo-1", "2,0")
    game.orders(**{"ana-1": "raze", "bo-1": "defend"})
    game("resolve", army="ana-1")
    assert "1,0" not in game.state.settlement


def test_a_raze_fails_when_an_enemy_army_is_in_the_tile() -> None:
    game = Game().two_kingdoms()
    game.move("ana-1", "1,0")
    game.orders(**{"ana-1": "raze", "bo-1": "defend"})
    outcome = game("resolve", army="ana-1")
    assert outcome.failed and game.state.settlement["1,0"] == "city"


def test_a_razed_capital_leaves_its_kingdom_without_a_capital() -> None:
    game = Game().two_kingdoms()
    game.move("ana-1", "2,0")
    game.move("bo-1", "3,0")
    game.orders(**{"ana-1": "raze", "bo-1": "defend"})
    game("resolve", army="ana-1")
    assert game.state.kingdoms["bo"].capital is None and not game.state.has_capital("bo")


def test_a_raze_whose_settlement_is_already_gone_does_nothing() -> None:
    game = Game().two_kingdoms()
    game.move("ana-1", "1,0")
    game.move("bo-1", "2,0")
    game.orders(**{"ana-1": "raze", "bo-1": "defend"})
    del game.state.settlement["1,0"]
    outcome = game("resolve", army="ana-1")
    assert outcome.razed is None and not outcome.failed


def test_defend_lasts_the_month() -> None:
    game = Game().two_kingdoms()
    game.orders(**{"ana-1": "defend", "bo-1": "defend"})
    game("resolve", army="ana-1")
    assert game.army("ana-1").defending
    game("resolve", army="bo-1")
    game("reform", order=["ana", "bo"])
    assert not game.army("ana-1").defending


def test_regroup_stands_the_army_upright() -> None:
    game = Game().two_kingdoms()
    game.army("ana-1").upright = False
    game.orders(**{"ana-1": "regroup", "bo-1": "defend"})
    game("resolve", army="ana-1")
    assert game.army("ana-1").upright


# ------------------------------------------------------------------ Reform (5.5)


def finish_month(game: Game, order: list[str] | None = None) -> object:
    return game("reform", order=order or ["ana", "bo"])


def test_reform_lays_on_its_side_an_army_that_moved_across_a_mountain_edge() -> None:
    game = Game().two_kingdoms()
    game.orders(**{"ana-1": "move 0,0", "bo-1": "move 1,1"})
    game("resolve", army="ana-1", roll=[1, 2])
    game("resolve", army="bo-1")
    finish_month(game)
    assert not game.army("ana-1").upright  # mountain edge, and a river
    assert game.army("bo-1").upright


def test_reform_lays_on_its_side_an_army_that_moved_across_a_forest_edge() -> None:
    game = Game().two_kingdoms()
    game.orders(**{"ana-1": "defend", "bo-1": "move 1,-1"})
    game("resolve", army="ana-1")
    game("resolve", army="bo-1", roll=[1, 2])
    finish_month(game)
    assert not game.army("bo-1").upright


def test_reform_lays_on_its_side_an_army_that_moved_into_a_river_tile() -> None:
    game = Game().two_kingdoms()
    game.move("bo-1", "1,-1")
    game.state.control["1,-1"] = "bo"
    game.orders(**{"ana-1": "defend", "bo-1": "move 0,0"})  # 1,-1|0,0 is a plain edge
    game("resolve", army="ana-1")
    game("resolve", army="bo-1", roll=[1, 2])
    finish_month(game)
    assert not game.army("bo-1").upright


def test_moving_out_of_a_river_tile_does_not_slow_the_army() -> None:
    game = Game().two_kingdoms()
    game.move("bo-1", "0,0")
    game.orders(**{"ana-1": "defend", "bo-1": "move 0,-1"})
    game("resolve", army="ana-1")
    game("resolve", army="bo-1", roll=[1, 2])
    finish_month(game)
    assert game.army("bo-1").upright


def test_reform_step_1_looks_only_at_the_armys_own_move_order() -> None:
    game = Game().meeting()
    game(
        "battle",
        tile="0,0",
        attacker="ana",
        defender="bo",
        dice={"ana-1": 6, "bo-1": 1},
        allocate=[["ana-1", "bo-1"], ["bo-1", "ana-1"]],
        retreat={"bo-1": "1,0"},
    )
    finish_month(game)
    assert not game.army("ana-1").upright  # crossed the mountain into the river by its order
    assert not game.army("bo-1").upright  # lost, laid on its side


def test_reform_forgets_failed_razes_and_ends_defend() -> None:
    """A failed raze has no effect (5.3) and leaves nothing behind but its order, which Reform
    clears with the rest (5.5 step 2): the settlement stands and a new raze may be ordered."""
    game = Game().two_kingdoms()
    game.move("ana-1", "1,0")
    game.state.control["0,0"] = "ana"
    game.orders(**{"ana-1": "raze", "bo-1": "defend"})
    assert game("resolve", army="ana-1").failed
    game("resolve", army="bo-1")
    assert game.state.settlement["1,0"] == "city" and game.army("bo-1").defending
    game(
        "battle",
        tile="1,0",
        attacker="ana",
        defender="bo",
        dice={"ana-1": 1, "bo-1": 1},
        allocate=[["ana-1", "bo-1"], ["bo-1", "ana-1"]],
        retreat={"ana-1": "0,0"},
    )
    finish_month(game)
    assert game.army("ana-1").order is None and not game.army("bo-1").defending
    assert game.state.settlement["1,0"] == "city"


def test_reform_gives_a_tile_with_armies_of_only_one_kingdom_to_that_kingdom() -> None:
    game = Game().two_kingdoms()
    game.move("ana-1", "3,0")  # bo's tile, entered earlier while bo was there
    game.orders(**{"ana-1": "defend", "bo-1": "defend"})
    game("resolve", army="ana-1")
    game("resolve", army="bo-1")
    finish_month(game)
    assert game.state.control["3,0"] == "ana"


def test_reform_player_order_is_most_armies_first() -> None:
    game = Game().two_kingdoms()
    game.state.add_army(type(game.army("bo-1"))("bo-2", "bo", "2,0"))
    game.orders(**{"ana-1": "defend", "bo-1": "defend", "bo-2": "defend"})
    for army in ("ana-1", "bo-1", "bo-2"):
        game("resolve", army=army)
    assert "no players are tied" in game.refused("reform", order=["bo", "ana"])
    game("reform")
    assert game.state.order == ["bo", "ana"]


def test_reform_needs_the_roll_off_order_when_players_are_tied() -> None:
    game = Game().two_kingdoms()
    game.orders(**{"ana-1": "defend", "bo-1": "defend"})
    game("resolve", army="ana-1")
    game("resolve", army="bo-1")
    assert "tied on armies" in game.refused("reform")
    assert "every player once" in game.refused("reform", order=["bo"])
    game("reform", order=["bo", "ana"])
    assert game.state.order == ["bo", "ana"]


def test_the_roll_off_order_must_agree_with_the_army_counts() -> None:
    game = Game().two_kingdoms()
    game.state.add_army(type(game.army("bo-1"))("bo-2", "bo", "2,0"))
    game.state.kingdoms["cy"] = type(game.state.kingdoms["ana"])("cy", "cy", "x", None, 2)
    game.state.order.append("cy")
    game.state.add_army(type(game.army("bo-1"))("cy-1", "cy", "0,-3"))
    game.orders(**{"ana-1": "defend", "bo-1": "defend", "bo-2": "defend", "cy-1": "defend"})
    for army in ("ana-1", "bo-1", "cy-1", "bo-2"):
        game("resolve", army=army)
    assert "most armies go first" in game.refused("reform", order=["ana", "bo", "cy"])
    game("reform", order=["bo", "cy", "ana"])


def test_after_the_sixth_month_the_year_goes_to_winter() -> None:
    game = Game().two_kingdoms()
    for month in range(1, 7):
        assert game.state.month == month
        game.orders(**{"ana-1": "defend", "bo-1": "defend"})
        game("resolve", army=game.state.order[0] + "-1")
        game("resolve", army=game.state.order[1] + "-1")
        outcome = finish_month(game)
    assert outcome.winter and game.state.winter and phase(game.state) == "winter"  # type: ignore[attr-defined]


def test_a_sixth_reform_still_needs_the_order_when_armies_are_tied() -> None:
    game = Game().two_kingdoms()
    game.state.month = 6
    game.orders(**{"ana-1": "defend", "bo-1": "defend"})
    game("resolve", army="ana-1")
    game("resolve", army="bo-1")
    assert "tied" in game.refused("reform")
