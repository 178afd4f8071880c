"""Sections 2, 5.1 and 5.8: the campaign's settings and setup."""

from __future__ import annotations

import pytest

from cok.core.errors import Refused
from cok.core.settings import read_settings
from cok.rulesets import install

from .game import EAST, NORTH, WEST, Game

install()


def settings(text: str) -> object:
    return read_settings("name: X\nmap: m.yaml\nruleset: mighty-kingdoms\n" + text, "campaign.yaml")[1]


def test_the_defaults_are_simple_battles_army_limit_6_and_no_advanced_rules() -> None:
    found = settings("")
    assert (found.battles, found.army_limit, found.advanced) == ("simple", 6, [])  # type: ignore[attr-defined]


def test_an_unknown_battles_value_is_an_error_at_its_line_that_lists_the_known_ones() -> None:
    with pytest.raises(Refused) as caught:
        settings("battles: kow\n")
    assert "campaign.yaml:4" in str(caught.value) and "simple, kings-of-war" in str(caught.value)


def test_an_unknown_advanced_rule_is_an_error_that_lists_the_known_ones() -> None:
    with pytest.raises(Refused) as caught:
        settings("advanced: [wizard-towers]\n")
    assert "campaign.yaml:4" in str(caught.value) and "wizards-towers, terrain-recruits" in str(caught.value)


def test_a_kingdom_controls_its_capital_four_settlements_and_the_two_other_neighbours() -> None:
    game = Game()
    founded = game.kingdom("ana", WEST)
    state = game.state
    assert len(founded.tiles) == 7
    assert {t for t, p in state.control.items() if p == "ana"} == {"-2,0", *state.map.neighbours("-2,0")}
    assert state.settlement["-2,0"] == "capital" and state.settlement["-1,0"] == "city"
    assert state.settlement["-2,-1"] == "fortress"
    assert [state.settlement[t] for t in ("-1,-1", "-2,1")] == ["village", "village"]
    assert set(founded.tiles) <= state.explored


def test_the_first_army_is_player_1_of_500_points_upright_on_a_settlement() -> None:
    game = Game()
    game.kingdom("ana", WEST, army="-2,-1")
    army = game.army("ana-1")
    assert (army.tile, army.points, army.upright) == ("-2,-1", 500, True)


def test_the_first_army_may_not_stand_on_a_tile_without_a_settlement() -> None:
    game = Game()
    assert "settlements" in game.refused("kingdom", player="ana", race="elves", army="-3,0", **WEST)


def test_the_player_id_is_new() -> None:
    game = Game()
    game.kingdom("ana", WEST)
    assert "already founded" in game.refused("kingdom", player="ana", race="elves", army="1,0", **EAST)


def test_draw_is_refused_as_a_player_id() -> None:
    assert "battle result" in Game().refused("kingdom", player="draw", race="elves", army="-1,0", **WEST)


def test_the_capital_is_a_start_tile() -> None:
    message = Game().refused(
        "kingdom",
        player="ana",
        race="elves",
        capital="0,0",
        city="1,0",
        fortress="-1,0",
        villages=["0,-1", "1,-1"],
        army="1,0",
    )
    assert "not a start tile" in message and "West (-2,0)" in message


def test_the_capital_is_not_taken_by_another_kingdom() -> None:
    game = Game()
    game.kingdom("ana", WEST)
    assert "already held by ana" in game.refused("kingdom", player="bo", race="orcs", army="-1,0", **WEST)


def test_city_fortress_and_villages_are_four_distinct_tiles() -> None:
    twice = {**WEST, "fortress": "-1,0"}
    assert "four different tiles" in Game().refused("kingdom", player="ana", race="elves", army="-1,0", **twice)


def test_city_fortress_and_villages_are_neighbours_of_the_capital() -> None:
    far = {**WEST, "city": "0,0"}
    assert "next to the capital" in Game().refused("kingdom", player="ana", race="elves", army="0,0", **far)


def test_no_settlement_goes_on_a_tile_held_by_another_kingdom() -> None:
    from cok.rulesets.mighty_kingdoms.mapfile import read_map
    from cok.rulesets.mighty_kingdoms.rules.state import Settings, State

    close = "name: Close\ntiles:\n" + "".join(
        f"  - {{at: [{q}, {r}]{', start: true' if (q, r) in ((0, 0), (2, -1)) else ''}}}\n"
        for q in range(-2, 5)
        for r in range(-3, 3)
    )
    game = Game()
    game.state = State(read_map(close, "close.yaml"), Settings())
    game(
        "kingdom",
        player="ana",
        race="elves",
        capital="0,0",
        city="1,-1",
        fortress="0,-1",
        villages=["-1,0", "-1,1"],
        army="1,-1",
    )
    assert game.state.control["1,0"] == "ana"  # one of the two other neighbours
    message = game.refused(
        "kingdom",
        player="bo",
        race="orcs",
        capital="2,-1",
        city="1,0",
        fortress="2,-2",
        villages=["3,-2", "3,-1"],
        army="2,-2",
    )
    assert "1,0 is already held by ana" in message
    game(
        "kingdom",
        player="bo",
        race="orcs",
        capital="2,-1",
        city="2,-2",
        fortress="3,-2",
        villages=["3,-1", "2,0"],
        army="2,-2",
    )
    assert game.state.control["1,0"] == "ana" and game.state.control["1,-1"] == "ana"


def test_a_settlement_may_be_placed_on_a_marsh() -> None:
    game = Game()
    marsh_east = {"capital": "East", "city": "1,0", "fortress": "2,-1", "villages": ["1,1", "2,1"]}
    game.kingdom("bo", marsh_east)
    assert game.state.settlement["1,1"] == "village"


def test_the_two_other_neighbours_are_only_taken_when_no_other_kingdom_holds_them() -> None:
    game = Game()
    game.kingdom("ana", WEST)
    game.kingdom("cy", NORTH)
    assert game.state.control["-1,-2"] == "cy"  # north's neighbour, not west's


def test_race_is_normalised_like_faction_ids() -> None:
    game = Game()
    game("kingdom", player="ana", race="Forces of Nature", army="-1,0", **WEST)
    assert game.state.kingdoms["ana"].race == "forces-of-nature"


def test_begin_needs_at_least_two_kingdoms() -> None:
    game = Game()
    game.kingdom("ana", WEST)
    assert "at least two kingdoms" in game.refused("begin")


def test_begin_order_must_be_the_founding_order_and_the_error_gives_it() -> None:
    game = Game()
    game.kingdom("ana", WEST)
    game.kingdom("bo", EAST)
    assert "ana, bo" in game.refused("begin", order=["bo", "ana"])
    game("begin", order=["ana", "bo"])
    assert (game.state.year, game.state.month, game.state.order) == (1, 1, ["ana", "bo"])


def test_begin_starts_year_1_month_1_in_the_orders_phase() -> None:
    from cok.rulesets.mighty_kingdoms.rules.phase import phase

    game = Game().two_kingdoms()
    assert (game.state.year, game.state.month, phase(game.state)) == (1, 1, "orders")


def test_kingdoms_are_founded_only_in_setup() -> None:
    game = Game().two_kingdoms()
    assert "setup is over" in game.refused("kingdom", player="cy", race="elves", army="0,-2", **NORTH)


def test_a_kings_of_war_campaign_needs_a_list_on_kingdom() -> None:
    game = Game(battles="kings-of-war")
    assert "`list`" in game.refused("kingdom", player="ana", race="elves", army="-1,0", **WEST)


def test_list_and_units_are_refused_in_a_simple_campaign() -> None:
    message = Game().refused("kingdom", player="ana", race="elves", army="-1,0", list="Elves", **WEST)
    assert "kings-of-war campaigns" in message
