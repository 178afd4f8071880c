"""Sections 5.3 (towers from exploration), 5.7 (quests, artefacts) and 5.7b (terrain recruits)."""

from __future__ import annotations

from typing import Any

from cok.rulesets.mighty_kingdoms.documents import kingdoms_doc

from .game import Game, to_winter


def tower(**extra: Any) -> Game:
    """ana-1 finds a wizard's tower on the Ford (a double, then a double)."""
    units = extra.pop("units", None)
    game = Game(advanced=["wizards-towers"], **extra).two_kingdoms(**({"units": units} if units else {}))
    game.orders(**{"ana-1": "move 0,0", "bo-1": "defend"})
    game("resolve", army="ana-1", roll=[2, 2], reroll=[3, 3])
    return game


def tower_month(**extra: Any) -> Game:
    """The tower's month, finished."""
    game = tower(**extra)
    game("resolve", army="bo-1")
    game("reform", order=["ana", "bo"])
    return game


def test_with_towers_a_double_requires_the_reroll() -> None:
    game = Game(advanced=["wizards-towers"]).two_kingdoms()
    game.orders(**{"ana-1": "move 0,0", "bo-1": "defend"})
    assert "`reroll`" in game.refused("resolve", army="ana-1", roll=[4, 4])


def test_a_second_double_makes_a_wizards_tower_and_pushes_the_army_back() -> None:
    game = tower()
    state = game.state
    assert "0,0" in state.towers and "0,0" in state.explored
    assert "0,0" not in state.control and "0,0" not in state.settlement
    assert game.army("ana-1").tile == "-1,0" and not game.army("ana-1").slowed


def test_without_a_second_double_the_first_roll_decides() -> None:
    game = Game(advanced=["wizards-towers"]).two_kingdoms()
    game.orders(**{"ana-1": "move 0,0", "bo-1": "defend"})
    game("resolve", army="ana-1", roll=[5, 5], reroll=[1, 2])
    assert game.state.settlement["0,0"] == "city"


def test_reroll_is_refused_without_a_double_or_without_the_rule() -> None:
    game = Game(advanced=["wizards-towers"]).two_kingdoms()
    game.orders(**{"ana-1": "move 0,0", "bo-1": "defend"})
    assert "not one" in game.refused("resolve", army="ana-1", roll=[1, 2], reroll=[3, 3])
    plain = Game().two_kingdoms()
    plain.orders(**{"ana-1": "move 0,0", "bo-1": "defend"})
    assert "does not use" in plain.refused("resolve", army="ana-1", roll=[2, 2], reroll=[3, 3])


def test_an_order_to_move_into_a_known_tower_is_refused() -> None:
    game = tower_month()
    assert "wizard's tower" in game.refused("order", army="ana-1", order="move", to="0,0")


def test_a_move_into_a_tower_made_earlier_the_same_month_takes_no_roll_and_stays() -> None:
    game = Game(advanced=["wizards-towers"]).two_kingdoms()
    game.orders(**{"ana-1": "move 0,0", "bo-1": "move 0,0"})
    game("resolve", army="ana-1", roll=[2, 2], reroll=[3, 3])
    assert "no roll" in game.refused("resolve", army="bo-1", roll=[1, 2])
    outcome = game("resolve", army="bo-1")
    assert outcome.failed and game.army("bo-1").tile == "1,0" and not game.army("bo-1").slowed


def quest(game: Game, **fields: Any) -> Any:
    return game("quest", player="ana", tower="0,0", **fields)


def test_a_quest_is_recorded_in_winter_by_a_player_controlling_a_tile_next_to_the_tower() -> None:
    game = tower_month()
    assert "belongs to winter" in game.refused("quest", player="ana", tower="0,0", hero="Prince", roll=3)
    to_winter(game)
    assert quest(game, hero="Prince", roll=3).result == "nothing"


def test_a_player_without_an_adjacent_tile_may_not_quest_there() -> None:
    game = to_winter(tower_month())
    for tile in game.state.map.neighbours("0,0"):
        if game.state.control.get(tile) == "bo":
            game.state.control[tile] = "ana"
    assert "controls no tile next to the tower" in game.refused("quest", player="bo", tower="0,0", hero="X", roll=3)


def test_one_quest_per_tower_per_player_per_winter() -> None:
    game = to_winter(tower_month())
    quest(game, hero="Prince", roll=3)
    assert "already sent a hero" in game.refused("quest", player="ana", tower="0,0", hero="Mage", roll=3)


def test_a_hero_goes_on_at_most_one_quest_per_winter() -> None:
    from cok.rulesets.mighty_kingdoms.rules.state import Army

    game = tower_month()
    game.state.towers.add("-1,1")
    to_winter(game)
    quest(game, hero="Prince", roll=3)
    assert "already been on a quest" in game.refused("quest", player="ana", tower="-1,1", hero="prince", roll=3)
    assert Army  # the same name in another army is another hero:
    game.state.add_army(Army("ana-2", "ana", "-2,0", deployed=False))
    game("quest", player="ana", tower="-1,1", hero="Prince", army="ana-2", roll=3)


def test_the_army_is_required_in_a_kings_of_war_campaign() -> None:
    game = to_winter(tower_month(battles="kings-of-war", units={"Prince": 1, "Spears": 2}))
    assert "give `army`" in game.refused("quest", player="ana", tower="0,0", hero="Prince", roll=3)


def test_the_hero_is_one_of_the_armys_units_when_it_has_units() -> None:
    game = to_winter(tower_month(battles="kings-of-war", units={"Prince": 1, "Spears": 2}))
    assert "no unit 'Wizard'" in game.refused("quest", player="ana", tower="0,0", hero="Wizard", army="ana-1", roll=3)


def test_roll_1_the_hero_is_lost_and_the_army_with_it_if_it_was_its_last_unit() -> None:
    game = to_winter(tower_month(battles="kings-of-war", units={"Prince": 1, "Spears": 2}))
    outcome = quest(game, hero="Prince", army="ana-1", roll=1)
    assert outcome.result == "lost" and "Prince" not in game.army("ana-1").units
    game2 = to_winter(tower_month(battles="kings-of-war", units={"Prince": 1}))
    outcome = game2("quest", player="ana", tower="0,0", hero="Prince", army="ana-1", roll=1)
    assert outcome.army_lost and "ana-1" not in game2.state.armies


def test_roll_2_the_hero_takes_minus_1_unit_strength_and_reform_step_4_at_once() -> None:
    game = to_winter(tower_month(battles="kings-of-war", units={"Prince": -1, "Spears": 2}))
    outcome = quest(game, hero="Prince", army="ana-1", roll=2)
    assert outcome.result == "hurt" and outcome.unit_lost and "Prince" not in game.army("ana-1").units
    game2 = to_winter(tower_month(battles="kings-of-war", units={"Prince": 1, "Spears": 2}))
    game2("quest", player="ana", tower="0,0", hero="Prince", army="ana-1", roll=2)
    assert game2.army("ana-1").strength("Prince") == 0


def test_roll_3_changes_nothing() -> None:
    game = to_winter(tower_month())
    assert quest(game, hero="Prince", roll=3).result == "nothing" and not game.state.artefacts


def test_roll_4_5_and_6_plus_bring_artefacts_of_their_bands() -> None:
    game = to_winter(tower_month())
    game.state.towers.update({"-1,1", "-1,-1"})
    bands = []
    for tower_tile, roll, points in (("0,0", 4, 0), ("-1,1", 4, 100), ("-1,-1", 6, 250)):
        outcome = game("quest", player="ana", tower=tower_tile, hero=f"Hero {roll}{points}", roll=roll, points=points)
        bands.append(outcome.points)
    assert bands == ["5-15", "20-30", "rare"]
    assert list(game.state.artefacts) == ["art-1", "art-2", "art-3"]


def test_in_a_simple_campaign_1_and_2_are_recorded_but_change_no_army() -> None:
    game = to_winter(tower_month())
    outcome = quest(game, hero="Prince", army="ana-1", roll=1)
    assert outcome.result == "lost" and "ana-1" in game.state.armies


def test_an_artefact_name_already_held_is_refused() -> None:
    game = to_winter(tower_month())
    game.state.towers.add("-1,1")
    quest(game, hero="A", roll=4, artefact="Blade of Ashes")
    message = game.refused("quest", player="ana", tower="-1,1", hero="B", roll=5, artefact="blade of ashes")
    assert "already held" in message


def test_an_artefact_name_on_a_roll_below_4_is_refused() -> None:
    assert "no artefact" in to_winter(tower_month()).refused(
        "quest", player="ana", tower="0,0", hero="A", roll=3, artefact="Blade"
    )


def test_a_quest_ends_tithing() -> None:
    game = to_winter(tower_month())
    quest(game, hero="A", roll=3)
    assert "tithing is over" in game.refused("tithe", from_="bo", to="ana", gold=1)


def test_an_artefact_changes_hands_to_a_kingdom_or_the_pool() -> None:
    game = to_winter(tower_month())
    quest(game, hero="A", roll=4, artefact="Blade")
    game("artefact", artefact="art-1", to="bo", override="carried off at the ford")
    assert game.state.artefacts["art-1"].holder == "bo"
    assert "already bo's" in game.refused("artefact", artefact="art-1", to="bo", override="again")
    game("artefact", artefact="art-1", to="pool")
    assert "back in the pool" in game.refused("artefact", artefact="art-1", to="ana")


def test_a_later_quest_gains_a_new_number() -> None:
    game = to_winter(tower_month())
    game.state.towers.add("-1,1")
    quest(game, hero="A", roll=4, artefact="Blade")
    game("artefact", artefact="art-1", to="pool")
    outcome = game("quest", player="ana", tower="-1,1", hero="B", roll=4, artefact="Blade")
    assert outcome.artefact == "art-2"


def test_kingdoms_lists_each_kingdoms_artefacts() -> None:
    game = to_winter(tower_month())
    quest(game, hero="A", roll=5, artefact="Crown")
    (ana, _) = kingdoms_doc(game.state)["kingdoms"]
    assert ana["artefacts"] == [{"id": "art-1", "name": "Crown", "points": "20-30"}]


def test_quests_and_artefacts_need_the_wizards_towers_rule() -> None:
    game = to_winter(Game().two_kingdoms())
    assert "does not use" in game.refused("quest", player="ana", tower="0,0", hero="A", roll=3)


def test_terrain_recruits_shows_what_each_fortress_may_recruit() -> None:
    game = Game(advanced=["terrain-recruits"]).two_kingdoms()
    (ana, bo) = kingdoms_doc(game.state)["kingdoms"]
    # ana's fortress -2,-1 has no mountain, marsh or forest in or next to it; bo's 2,-1 is next
    # to bo's 1,0, whose n side is forest
    assert ana["recruit_terrain"] == {"-2,-1": {"monsters": False, "war_machines": False}}
    assert bo["recruit_terrain"] == {"2,-1": {"monsters": False, "war_machines": True}}
    game.state.control["-1,-2"] = "ana"
    game.state.control["-2,-2"] = "ana"
    game.state.map.tiles["-2,-2"] = type(game.state.map.tiles["-2,-2"])("-2,-2", marsh=True)
    (ana, _) = kingdoms_doc(game.state)["kingdoms"]
    assert ana["recruit_terrain"]["-2,-1"]["monsters"] is True  # a swamp next to it


def test_terrain_recruits_is_absent_without_the_rule() -> None:
    (ana, _) = kingdoms_doc(Game().two_kingdoms().state)["kingdoms"]
    assert "recruit_terrain" not in ana
