"""Section 5.6: winter."""

from __future__ import annotations

from cok.rulesets.mighty_kingdoms.rules.phase import phase, waiting_for

from .game import Game, to_winter


def winter(**extra: object) -> Game:
    return to_winter(Game(**extra).two_kingdoms())


def fed(game: Game, *players: str) -> None:
    for player in players or tuple(game.state.order):
        game("feed", player=player, unfed=[])


def test_recall_sends_every_army_to_its_kingdoms_capital() -> None:
    game = winter()
    assert game.army("ana-1").tile == "-2,0" and game.army("bo-1").tile == "2,0"
    assert not game.army("ana-1").deployed


def test_a_kingdom_without_a_capital_names_a_city_for_its_armies() -> None:
    game = Game().two_kingdoms()
    del game.state.settlement["2,0"]
    game.state.kingdoms["bo"].capital = None
    message = to_winter_refused(game)
    assert "name a city" in message
    game("winter", recall={"bo": "1,0"})
    assert game.army("bo-1").tile == "1,0"


def to_winter_refused(game: Game) -> str:
    try:
        to_winter(game)
    except Exception as error:  # the winter event is refused: the rest happened
        return str(error)
    raise AssertionError("winter was accepted without recall")


def test_with_no_city_the_recall_names_a_village() -> None:
    game = Game().two_kingdoms()
    for tile in ("2,0", "1,0"):
        del game.state.settlement[tile]
    game.state.kingdoms["bo"].capital = None
    to_winter_refused(game)
    assert "one of its villages" in game.refused("winter", recall={"bo": "1,0"})
    game("winter", recall={"bo": "3,-1"})
    assert game.army("bo-1").tile == "3,-1"


def test_with_no_city_and_no_village_the_armies_are_destroyed() -> None:
    game = Game().two_kingdoms()
    for tile in ("2,0", "1,0", "3,-1", "2,1"):
        del game.state.settlement[tile]
    game.state.kingdoms["bo"].capital = None
    to_winter(game)
    assert "bo-1" not in game.state.armies


def test_recall_is_refused_for_a_kingdom_that_has_its_capital() -> None:
    game = Game().two_kingdoms()
    try:
        to_winter(game, recall={"ana": "-1,0"})
    except Exception as error:
        assert "has its capital" in str(error)
    else:
        raise AssertionError("recall for a kingdom with a capital was accepted")


def test_gather_food_is_villages_and_gold_is_cities_plus_one_for_the_own_capital() -> None:
    game = winter()
    ana = game.state.kingdoms["ana"]
    assert (ana.gold, ana.food) == (1 + 1 + 1, 2)  # a city, the capital as a city, +1 for the capital


def test_a_capital_taken_by_another_kingdom_is_a_plain_city_for_its_holder() -> None:
    game = Game().two_kingdoms()
    game.state.control["2,0"] = "ana"
    game.state.kingdoms["bo"].capital = "2,0"
    to_winter(game, recall={"bo": "1,0"})
    ana, bo = game.state.kingdoms["ana"], game.state.kingdoms["bo"]
    assert ana.gold == 4  # its own city and capital (+1), and bo's capital as a plain city
    assert bo.gold == 1  # its city only: no capital, no +1


def test_a_tithe_gives_up_to_one_gold_and_one_food_at_least_one() -> None:
    game = winter()
    assert "1 gold, 1 food or both" in game.refused("tithe", from_="ana", to="bo")
    game("tithe", from_="ana", to="bo", gold=1, food=1)
    assert (game.state.kingdoms["bo"].gold, game.state.kingdoms["bo"].food) == (4, 3)


def test_at_most_one_tithe_from_a_player_to_another_each_winter() -> None:
    game = winter()
    game("tithe", from_="ana", to="bo", gold=1)
    assert "already tithed" in game.refused("tithe", from_="ana", to="bo", food=1)
    game("tithe", from_="bo", to="ana", food=1)


def test_a_tithe_is_never_more_than_the_giver_has() -> None:
    game = winter()
    game.state.kingdoms["ana"].food = 0
    assert "not enough" in game.refused("tithe", from_="ana", to="bo", food=1)


def test_the_first_build_recruit_quest_or_feed_ends_tithing_for_everyone() -> None:
    game = winter()
    game("build", player="ana", tile="-3,0", settlement="village")
    assert "tithing is over" in game.refused("tithe", from_="bo", to="ana", gold=1)


def test_build_costs_and_upgrades_follow_the_table() -> None:
    game = winter()
    ana = game.state.kingdoms["ana"]
    ana.gold, ana.food = 10, 10
    game("build", player="ana", tile="-3,0", settlement="village")
    assert (ana.gold, ana.food) == (9, 10)
    game("build", player="ana", tile="-3,0", settlement="city")
    assert (ana.gold, ana.food) == (8, 9)
    game("build", player="ana", tile="-1,-1", settlement="fortress")
    assert (ana.gold, ana.food) == (6, 9)
    assert game.state.settlement["-1,-1"] == "fortress"


def test_a_build_that_is_not_an_upgrade_of_the_table_is_refused() -> None:
    game = winter()
    game.state.kingdoms["ana"].gold = 5
    assert "may become city, fortress" in game.refused("build", player="ana", tile="-1,-1", settlement="capital")
    assert "may become village" in game.refused("build", player="ana", tile="-3,0", settlement="city")


def test_a_city_becomes_a_capital_only_for_a_kingdom_that_has_no_capital() -> None:
    game = winter()
    game.state.kingdoms["ana"].food = 5
    assert "still has its capital" in game.refused("build", player="ana", tile="-1,0", settlement="capital")
    game.state.control["-2,0"] = "bo"  # taken
    game("build", player="ana", tile="-1,0", settlement="capital")
    assert game.state.kingdoms["ana"].capital == "-1,0"
    assert game.state.settlement["-2,0"] == "city"  # the old one, held by an enemy, a plain city for good


def test_builds_are_on_tiles_the_player_controls() -> None:
    assert "own tiles" in winter().refused("build", player="ana", tile="3,0", settlement="village")


def test_builds_are_paid_at_once_never_below_zero() -> None:
    game = winter()
    game.state.kingdoms["ana"].gold = 1
    assert "costs 2 gold" in game.refused("build", player="ana", tile="-1,-1", settlement="fortress")


def test_building_on_a_marsh_the_kingdom_controls_is_allowed() -> None:
    game = winter()
    game.state.control["0,1"] = "ana"
    game("build", player="ana", tile="0,1", settlement="village")


def test_recruit_costs_1_gold_at_a_fortress_once_per_winter() -> None:
    game = winter()
    outcome = game("recruit", player="ana", tile="-2,-1")
    assert outcome.army == "ana-2" and game.state.kingdoms["ana"].gold == 2
    army = game.army("ana-2")
    assert (army.tile, army.points, army.upright) == ("-2,-1", 500, True)
    assert "already recruited" in game.refused("recruit", player="ana", tile="-2,-1")
    assert "at a fortress" in game.refused("recruit", player="ana", tile="-1,0")


def test_a_fortress_built_this_winter_may_recruit() -> None:
    game = winter()
    game.state.kingdoms["ana"].gold = 5
    game("build", player="ana", tile="-1,-1", settlement="fortress")
    game("recruit", player="ana", tile="-1,-1")


def test_a_kingdom_at_the_army_limit_must_disband_in_the_same_event() -> None:
    game = winter(army_limit=1)
    assert "`disband` one of them" in game.refused("recruit", player="ana", tile="-2,-1")
    game("recruit", player="ana", tile="-2,-1", disband="ana-1")
    assert set(a.id for a in game.state.armies_of("ana")) == {"ana-2"}


def test_disband_is_refused_below_the_army_limit() -> None:
    assert "only at the limit" in winter().refused("recruit", player="ana", tile="-2,-1", disband="ana-1")


def test_army_numbers_are_never_reused() -> None:
    game = winter(army_limit=1)
    game("recruit", player="ana", tile="-2,-1", disband="ana-1")
    assert "ana-2" in game.state.armies and game.state.kingdoms["ana"].armies_made == 2


def test_an_allied_army_needs_three_other_non_allied_armies_and_no_allied_one() -> None:
    game = winter(battles="kings-of-war")
    message = game.refused("recruit", player="ana", tile="-2,-1", list="Allies", allied=True)
    assert "3 or more other armies" in message
    from cok.rulesets.mighty_kingdoms.rules.state import Army

    for n in (5, 6):
        game.state.add_army(Army(f"ana-{n}", "ana", "-2,0", deployed=False))
    game.state.kingdoms["ana"].armies_made = 6
    game("recruit", player="ana", tile="-2,-1", list="Allies", allied=True)
    assert game.army("ana-7").allied


def test_allied_armies_are_for_kings_of_war_campaigns() -> None:
    assert "kings-of-war" in winter().refused("recruit", player="ana", tile="-2,-1", allied=True)


def test_feed_costs_one_food_an_army_and_not_enough_food_says_how_many_go_unfed() -> None:
    game = winter()
    game.state.kingdoms["ana"].food = 0
    assert "1 more must go unfed" in game.refused("feed", player="ana")
    game("feed", player="ana", unfed=["ana-1"])
    assert "ana-1" not in game.state.armies


def test_after_feeding_unspent_gold_and_food_are_lost() -> None:
    game = winter()
    game("feed", player="ana")
    ana = game.state.kingdoms["ana"]
    assert (ana.gold, ana.food) == (0, 0)


def test_one_feed_per_kingdom_per_winter_and_nothing_after_it() -> None:
    game = winter()
    game("feed", player="ana")
    assert "has fed" in game.refused("feed", player="ana")
    assert "has fed" in game.refused("build", player="ana", tile="-3,0", settlement="village")


def test_feed_is_required_of_every_kingdom_even_one_with_no_armies() -> None:
    game = winter()
    game.state.remove_army("bo-1")
    fed(game, "ana")
    assert phase(game.state) == "winter" and waiting_for(game.state) == [{"what": "feed", "player": "bo"}]
    game("feed", player="bo", unfed=[])
    assert phase(game.state) == "deploy"


def test_deploy_only_after_every_kingdom_has_fed() -> None:
    game = winter()
    fed(game, "ana")
    assert "deploy phase" in game.refused("deploy", army="ana-1", tile="-2,0")


def test_deploy_stands_the_army_upright_on_a_settlement_of_its_kingdom() -> None:
    game = winter()
    game.army("ana-1").upright = False
    fed(game)
    assert "not one" in game.refused("deploy", army="ana-1", tile="-3,0")
    game("deploy", army="ana-1", tile="-1,-1")
    army = game.army("ana-1")
    assert (army.tile, army.upright, army.deployed) == ("-1,-1", True, True)
    assert "already deployed" in game.refused("deploy", army="ana-1", tile="-2,0")


def test_deploy_limits_village_1_city_2_capital_or_fortress_3() -> None:
    from cok.rulesets.mighty_kingdoms.rules.state import Army

    game = winter()
    for n in range(2, 12):
        game.state.add_army(Army(f"ana-{n}", "ana", "-2,0", deployed=False))
    game.state.kingdoms["ana"].food = 20
    fed(game)
    for tile, room in (("-1,-1", 1), ("-1,0", 2), ("-2,0", 3), ("-2,-1", 3)):
        for _ in range(room):
            army = next(a for a in game.state.armies_of("ana") if not a.deployed)
            game("deploy", army=army.id, tile=tile)
        army = next(a for a in game.state.armies_of("ana") if not a.deployed)
        assert "is full" in game.refused("deploy", army=army.id, tile=tile)


def test_an_enemy_capital_held_gives_the_room_of_a_city() -> None:
    from cok.rulesets.mighty_kingdoms.rules.phase import room_left

    game = winter()
    game.state.control["2,0"] = "ana"
    assert room_left(game.state, "2,0", "ana") == 2 and room_left(game.state, "-2,0", "ana") == 3


def test_spring_is_refused_while_any_army_could_still_deploy() -> None:
    game = winter()
    fed(game)
    game("deploy", army="ana-1", tile="-2,0")
    assert "can still deploy: bo-1" in game.refused("spring")


def test_spring_loses_armies_with_no_room_and_starts_the_next_year() -> None:
    from cok.rulesets.mighty_kingdoms.rules.state import Army

    game = winter()
    for n in range(2, 4):
        game.state.add_army(Army(f"bo-{n}", "bo", "2,0", deployed=False))
    for tile in ("1,0", "3,-1", "2,1", "2,-1"):
        del game.state.settlement[tile]
    game.state.kingdoms["bo"].food = 3
    fed(game)
    game("deploy", army="ana-1", tile="-2,0")
    for n in (1, 2, 3):
        game("deploy", army=f"bo-{n}", tile="2,0")
    assert game.state.deploy_counts == {"ana": 1, "bo": 3}
    outcome = game("spring")
    assert (game.state.year, game.state.month, phase(game.state)) == (2, 1, "orders")
    assert outcome.order == ("bo", "ana")


def test_spring_orders_players_by_the_armies_they_had_when_deploy_began() -> None:
    from cok.rulesets.mighty_kingdoms.rules.state import Army

    game = winter()
    game.state.add_army(Army("bo-2", "bo", "2,0", deployed=False))
    for tile in ("1,0", "3,-1", "2,1", "2,-1"):
        del game.state.settlement[tile]
    game.state.kingdoms["bo"].food = 2
    fed(game)
    del game.state.settlement["2,0"]  # (only for the test: no room left for bo at all)
    game("deploy", army="ana-1", tile="-2,0")
    outcome = game("spring")
    assert set(outcome.lost) == {"bo-1", "bo-2"} and outcome.order == ("bo", "ana")


def test_spring_needs_the_order_when_armies_are_tied() -> None:
    game = winter()
    fed(game)
    game("deploy", army="ana-1", tile="-2,0")
    game("deploy", army="bo-1", tile="2,0")
    assert "tied" in game.refused("spring")
    game("spring", order=["bo", "ana"])


def test_status_suggests_tithes_only_while_tithing_is_open() -> None:
    from cok.rulesets.mighty_kingdoms.rules.summer import waiting_words

    game = winter()
    assert "tithes" in waiting_words(game.state)
    game("build", player="ana", tile="-3,0", settlement="village")
    assert "tithes" not in waiting_words(game.state) and "builds and recruits first" in waiting_words(game.state)


def test_a_copy_shares_what_each_kingdom_gathered_until_either_state_changes_it() -> None:
    """Issue 37: each recording copies the state; the winters gathered (which grow with the
    log) are shared by the copy, and copied by whichever state changes them first."""
    from pathlib import Path

    from cok.core.campaign import open_campaign

    example = Path(__file__).resolve().parents[2] / "campaigns" / "mighty-kingdoms"
    state = open_campaign(example, use_cache=False).state
    assert state.gathered
    before = {k: list(v) for k, v in state.gathered.items()}
    made = state.copy()
    assert made.gathered is state.gathered and made.map is state.map
    player = next(iter(before))
    made.own_gathered()[player].append(before[player][0])
    assert state.gathered == before and len(made.gathered[player]) == len(before[player]) + 1
