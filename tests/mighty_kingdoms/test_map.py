"""Section 1: the hex map."""

from __future__ import annotations

import pytest

from cok.core.errors import Refused, RuleError
from cok.rulesets.mighty_kingdoms.map import SIDES
from cok.rulesets.mighty_kingdoms.mapfile import read_map

from .game import MAP_TEXT
from .play import SHIPPED

HEXES = read_map(MAP_TEXT, "test.yaml")


def refusal(text: str) -> str:
    with pytest.raises(Refused) as caught:
        read_map(text, "map.yaml")
    return str(caught.value)


def test_the_neighbour_across_each_side_is_as_the_table_gives() -> None:
    expected = {"n": (0, -1), "ne": (1, -1), "se": (1, 0), "s": (0, 1), "sw": (-1, 1), "nw": (-1, 0)}
    assert expected == SIDES
    assert HEXES.neighbours("0,0") == ["0,-1", "1,-1", "1,0", "0,1", "-1,1", "-1,0"]


def test_an_edge_carries_a_feature_if_either_tile_draws_it_on_the_shared_side() -> None:
    assert HEXES.edge("-1,0", "0,0") == {"mountain"}  # drawn on -1,0's se side
    assert HEXES.edge("0,0", "-1,0") == {"mountain"}  # seen from the other tile
    assert HEXES.edge("0,0", "1,0") == frozenset()


def test_a_move_needs_the_target_on_the_map() -> None:
    assert not HEXES.may_enter("4,0", "5,0")


def test_a_move_never_enters_a_marsh() -> None:
    assert not HEXES.may_enter("0,0", "0,1")
    assert HEXES.may_enter("0,1", "0,0")  # leaving a marsh is allowed


def test_a_move_never_crosses_a_water_edge_but_may_go_along_the_coast() -> None:
    assert not HEXES.may_enter("0,-1", "1,-1")
    assert not HEXES.may_enter("1,-1", "0,-1")
    assert HEXES.may_enter("0,-1", "0,-2")


def test_a_move_goes_only_to_a_neighbour() -> None:
    assert not HEXES.may_enter("0,0", "2,0")


def test_two_tiles_at_the_same_at_are_refused_with_the_line() -> None:
    message = refusal("name: M\ntiles:\n  - at: [0, 0]\n  - at: [0, 0]\n")
    assert "map.yaml:4" in message and "already given on line 3" in message


def test_two_tiles_with_the_same_name_are_refused_as_names_are_compared() -> None:
    message = refusal("name: M\ntiles:\n  - {at: [0, 0], name: High Moor}\n  - {at: [1, 0], name: highmoor}\n")
    assert "map.yaml:4" in message and "'highmoor' is already given" in message


def test_a_side_that_is_not_one_of_the_six_is_refused() -> None:
    message = refusal("name: M\ntiles:\n  - at: [0, 0]\n    sides: {north: water}\n")
    assert "map.yaml:4" in message and "unknown side 'north'" in message


def test_a_feature_that_is_not_water_mountain_or_forest_is_refused() -> None:
    message = refusal("name: M\ntiles:\n  - at: [0, 0]\n    sides: {n: lava}\n")
    assert "map.yaml:4" in message and "unknown feature 'lava'" in message


def test_a_coordinate_that_is_not_a_whole_number_is_refused() -> None:
    message = refusal("name: M\ntiles:\n  - at: [0.5, 0]\n")
    assert "map.yaml:3" in message and "two whole numbers" in message


def test_an_unknown_tile_field_is_refused_with_a_suggestion() -> None:
    message = refusal("name: M\ntiles:\n  - {at: [0, 0], rivre: true}\n")
    assert "map.yaml:3" in message and "did you mean 'river'" in message


def test_a_tile_is_named_by_its_name_or_as_q_r() -> None:
    assert HEXES.find("ford") == "0,0"
    assert HEXES.find("0,0") == "0,0"
    assert HEXES.find(" -1, 0 ") == "-1,0"


def test_an_unknown_tile_says_did_you_mean() -> None:
    with pytest.raises(RuleError, match="did you mean 'Ford'"):
        HEXES.find("Frod")
    with pytest.raises(RuleError, match="no tile at 9,9"):
        HEXES.find("9,9")


class TestTheShippedMap:
    hexes = read_map(SHIPPED.read_text(encoding="utf-8"), "ember-reaches.yaml")

    def test_it_has_at_least_80_tiles(self) -> None:
        assert len(self.hexes.tiles) >= 80

    def test_it_has_start_tiles_for_six_kingdoms_at_least_three_apart(self) -> None:
        from cok.rulesets.mighty_kingdoms.map import distance

        starts = [t for t, tile in self.hexes.tiles.items() if tile.start]
        assert len(starts) >= 6
        assert all(distance(a, b) >= 3 for a in starts for b in starts if a != b)
        assert all(len(self.hexes.neighbours(s)) == 6 for s in starts)

    def test_it_has_rivers_marsh_coasts_mountains_forests_and_names(self) -> None:
        tiles = self.hexes.tiles.values()
        features = {f for tile in tiles for _, f in tile.sides}
        assert any(t.river for t in tiles) and any(t.marsh for t in tiles)
        assert features == {"water", "mountain", "forest"}
        assert sum(1 for t in tiles if t.name) >= 10
