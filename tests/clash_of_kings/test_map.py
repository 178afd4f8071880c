"""The map: the file format's refusals, reach through regions, and the shipped Westeros map."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from cok.core.errors import Refused
from cok.rulesets.clash_of_kings.map import Geography
from cok.rulesets.clash_of_kings.mapfile import load_map

from ..conftest import tiny_map


def problems_of(tmp_path: Path, text: str) -> list[tuple[int | None, str]]:
    path = tmp_path / "map.yaml"
    path.write_text(text)
    with pytest.raises(Refused) as caught:
        load_map(path)
    return [(p.line, p.message) for p in caught.value.problems]


GOOD = """name: Test
locations:
  - {name: Winterfell, kind: castle, home: stark}
  - {name: Moat Cailin, kind: fort}
  - {name: The Neck, kind: region}
routes:
  land:
    - [Winterfell, Moat Cailin]
  sea:
    - [Moat Cailin, The Neck]
"""


def test_a_good_map_loads(tmp_path: Path) -> None:
    path = tmp_path / "map.yaml"
    path.write_text(GOOD)
    geo = load_map(path)
    assert list(geo.locations) == ["Winterfell", "Moat Cailin", "The Neck"]
    assert geo.locations["Winterfell"].home == ("stark",)
    assert geo.locations["Winterfell"].line == 3


def test_two_locations_sharing_a_name_case_insensitively(tmp_path: Path) -> None:
    found = problems_of(tmp_path, GOOD.replace("The Neck, kind: region", "winterfell, kind: region"))
    assert found[0] == (5, "location 'winterfell' is already defined on line 3")


def test_a_route_naming_an_unknown_location(tmp_path: Path) -> None:
    found = problems_of(tmp_path, GOOD.replace("[Winterfell, Moat Cailin]", "[Winterfel, Moat Cailin]"))
    assert len(found) == 1
    line, message = found[0]
    assert line == 8
    assert "unknown location 'Winterfel'" in message
    assert "did you mean 'Winterfell'" in message


def test_a_route_joining_a_location_to_itself(tmp_path: Path) -> None:
    found = problems_of(tmp_path, GOOD.replace("[Winterfell, Moat Cailin]", "[Winterfell, winterfell]"))
    assert found == [(8, "land route joins Winterfell to itself")]


def test_the_same_pair_twice_even_as_land_and_sea(tmp_path: Path) -> None:
    found = problems_of(tmp_path, GOOD.replace("[Moat Cailin, The Neck]", "[Moat Cailin, Winterfell]"))
    assert found == [(10, "route Moat Cailin — Winterfell is already given on line 8")]


def test_an_unknown_kind(tmp_path: Path) -> None:
    found = problems_of(tmp_path, GOOD.replace("kind: fort", "kind: frot"))
    assert len(found) == 1
    assert found[0][0] == 4
    assert "unknown kind 'frot'" in found[0][1]
    assert "did you mean 'fort'" in found[0][1]


def test_a_bonus_on_a_non_castle(tmp_path: Path) -> None:
    found = problems_of(tmp_path, GOOD.replace("kind: fort}", "kind: fort, bonus: Extra dice}"))
    assert found == [(4, "location 'Moat Cailin': only castles have a bonus, and this is a fort")]


def test_an_unknown_field_and_every_problem_reported(tmp_path: Path) -> None:
    text = GOOD.replace("kind: fort}", "kind: fort, owner: x}").replace("kind: region", "kind: regoin")
    found = problems_of(tmp_path, text)
    assert [line for line, _ in found] == [4, 5]
    assert "unknown field 'owner'" in found[0][1]


def test_a_map_that_is_not_a_mapping(tmp_path: Path) -> None:
    assert problems_of(tmp_path, "- just a list\n")[0][0] == 1


# reach -------------------------------------------------------------------------------------


def test_a_direct_neighbour_is_in_reach() -> None:
    geo = tiny_map("A:fort B:fort C:fort", "A-B B-C")
    assert geo.reach(["A"]) == {"B"}


def test_you_can_move_through_regions_as_though_you_occupy_them() -> None:
    geo = tiny_map("A:fort R1:region R2:region B:village C:castle", "A-R1 R1~R2 R2-B B-C")
    assert geo.reach(["A"]) == {"B"}
    assert "C" not in geo.reach(["A"])


def test_regions_are_never_in_reach() -> None:
    geo = tiny_map("A:fort R:region", "A-R")
    assert geo.reach(["A"]) == set()


def test_routes_have_no_direction() -> None:
    geo = tiny_map("A:fort B:fort", "B~A")
    assert geo.reach(["A"]) == {"B"}
    assert geo.reach(["B"]) == {"A"}


def test_a_location_is_not_adjacent_to_itself_through_a_region() -> None:
    geo = tiny_map("A:fort R:region B:fort", "A-R R-B")
    assert geo.reach(["A"]) == {"B"}
    assert geo.reach(["A", "B"]) == {"A", "B"}


# the shipped map ------------------------------------------------------------------------------


def test_last_hearth_is_adjacent_to_bear_island_through_queenscrown(westeros: Geography) -> None:
    assert westeros.kind("Queenscrown") == "region"
    assert "Mole's Town" in westeros.neighbours["Last Hearth"]
    assert "Bear Island" not in westeros.neighbours["Last Hearth"]
    assert "Bear Island" in westeros.reach(["Last Hearth"])


def test_westeros_is_big_enough_and_forts_are_the_most_common_kind(westeros: Geography) -> None:
    kinds = Counter(loc.kind for loc in westeros.locations.values())
    assert len(westeros.locations) >= 70
    assert kinds["castle"] >= 14
    assert kinds["fort"] == max(kinds.values())
    assert kinds["village"] > 0
    assert kinds["region"] >= 3


def test_every_faction_has_its_traditional_seat(westeros: Geography) -> None:
    seats = {home: loc.name for loc in westeros.locations.values() for home in loc.home}
    assert seats["stark"] == "Winterfell"
    assert seats["martell"] == "Sunspear"
    assert seats["lannister"] == "Casterly Rock"
    assert seats["baratheon"] == "Storm's End"
    assert seats["greyjoy"] == "Pyke"
    assert seats["targaryen"] == "Dragonstone"
    assert seats["bolton"] == "The Dreadfort"
    assert seats["nights-watch"] == "Castle Black"
    assert seats["free-folk"] == "Hardhome"
    for name in seats.values():
        assert westeros.kind(name) == "castle"


@pytest.mark.parametrize(
    ("name", "kind"),
    [
        ("Vulture's Roost", None),
        ("Sandstone", None),
        ("Starfall", None),
        ("Horn Hill", "castle"),
        ("Lemonwood", None),
        ("Hellholt", None),
        ("Mistwood", None),
        ("Salt Shore", None),
        ("Last Hearth", None),
        ("Mole's Town", None),
        ("Queenscrown", "region"),
        ("Bear Island", None),
    ],
)
def test_every_place_the_source_names_is_on_the_map(westeros: Geography, name: str, kind: str | None) -> None:
    assert name in westeros.locations
    if kind is not None:
        assert westeros.kind(name) == kind
    else:
        assert westeros.kind(name) != "region"  # battles are fought there, so it can be occupied


def test_westeros_is_one_connected_map_with_positions(westeros: Geography) -> None:
    seen = {"Winterfell"}
    frontier = ["Winterfell"]
    while frontier:
        for nxt in westeros.neighbours[frontier.pop()]:
            if nxt not in seen:
                seen.add(nxt)
                frontier.append(nxt)
    assert seen == set(westeros.locations)
    assert all(loc.at is not None for loc in westeros.locations.values())


def test_westeros_has_land_and_sea_routes(westeros: Geography) -> None:
    kinds = Counter(route.kind for route in westeros.routes)
    assert kinds["land"] > 0
    assert kinds["sea"] > 0
