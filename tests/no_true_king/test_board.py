"""Contract §1, the board: the shipped board holds the facts of the A Game of Thrones board,
and every mistake in a board file is refused with its line."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
import yaml

from cok.core.errors import Refused
from cok.rulesets.no_true_king import RULESET
from cok.rulesets.no_true_king.mapfile import read_board
from tests.no_true_king.game import BOARD_FILE, board

FACTS = (
    yaml.safe_load(Path("/work/shared/data/agot-board.yaml").read_text())
    if Path("/work/shared/data/agot-board.yaml").exists()
    else None
)
FORTS = {"stronghold": "castle", "castle": "town"}
#: Where the shared facts file is not at hand, the shipped board's own entries stand in
#: (read with plain YAML, the fort words mapped back).
GOOD_FACTS_FALLBACK = (
    BOARD_FILE.read_text().replace("fort: castle", "fort: stronghold").replace("fort: town", "fort: castle")
)


def test_the_board_has_50_areas_38_land_and_12_sea() -> None:
    kinds = Counter(a.kind for a in board().areas.values())
    assert (len(board().areas), kinds["land"], kinds["sea"]) == (50, 38, 12)


def test_the_board_has_127_borders() -> None:
    assert len(board().borders) == 2 * 127


def test_crowns_barrels_and_forts_match_the_facts_file() -> None:
    facts = FACTS or yaml.safe_load(GOOD_FACTS_FALLBACK)
    for fact in facts["areas"]:
        area = board().areas[fact["name"]]
        assert (area.crowns, area.barrels) == (fact.get("crowns", 0), fact.get("barrels", 0))
        assert area.fort == FORTS.get(fact.get("fort", ""))
        assert area.kind == fact["kind"]
    assert {frozenset(b) for b in facts["borders"]} == {frozenset(b) for b in board().borders}


def test_icon_totals_of_the_board() -> None:
    areas = board().areas.values()
    assert sum(a.crowns for a in areas) == 19
    assert sum(a.barrels for a in areas) == 24
    assert Counter(a.fort for a in areas if a.fort) == {"castle": 10, "town": 10}


def test_a_stronghold_is_a_castle_and_a_board_castle_a_town() -> None:
    assert board().areas["Winterfell"].fort == "castle"
    assert board().areas["White Harbor"].fort == "town"


def test_starting_units_are_the_five_house_setup() -> None:
    start = board().start
    assert start["stark"] == {
        "Winterfell": ("footman", "knight"),
        "White Harbor": ("footman",),
        "The Shivering Sea": ("ship",),
    }
    assert start["greyjoy"]["Pyke"] == ("footman", "knight")
    assert start["baratheon"]["Shipbreaker Bay"] == ("ship", "ship")
    assert start["lannister"]["The Golden Sound"] == ("ship", "ship")
    assert start["tyrell"]["Redwyne Straights"] == ("ship",)
    if FACTS is not None:
        assert {h: {a: tuple(u) for a, u in places.items()} for h, places in FACTS["start"].items()} == start


def test_piece_limits_and_35_house_cards() -> None:
    assert board().pieces == {"footman": 10, "knight": 5, "ship": 6}
    assert len(board().cards) == 35
    assert Counter(c.house for c in board().cards.values()) == dict.fromkeys(board().houses, 7)
    assert board().cards["Eddard Stark"].swords == 2
    assert board().cards["Ser Rodrick Cassel"].towers == 2


def test_the_initial_ranking_is_the_sources() -> None:
    assert board().ranking == (("baratheon",), ("stark",), ("lannister", "greyjoy"), ("tyrell",))


def test_every_area_has_a_position_to_draw_it() -> None:
    assert all(a.at is not None for a in board().areas.values())


def test_the_board_ships_inside_the_game() -> None:
    """Package data in the game's own folder: no line elsewhere names it (pyproject.toml)."""
    import cok.rulesets.no_true_king as game

    assert RULESET.builtin_map() == Path(game.__file__).parent / "maps" / "westeros-agot.yaml"
    assert "westeros-agot" not in Path("pyproject.toml").read_text()


GOOD = BOARD_FILE.read_text()


def broken(old: str, new: str) -> list[str]:
    assert old in GOOD
    with pytest.raises(Refused) as info:
        read_board(GOOD.replace(old, new, 1), "board.yaml")
    return [str(p) for p in info.value.problems]


@pytest.mark.parametrize(
    ("old", "new", "says", "at"),
    [
        ("{name: Blackwater, kind: land", "{name: Castle Black, kind: land", "already defined", "Castle Black, kind"),
        ("  - [Bay of Ice, Castle Black]", "  - [Bay of Ice, Castle Blak]", "unknown area 'Castle Blak'", "Blak"),
        ("  - [Bay of Ice, Castle Black]", "  - [Bay of Ice, Bay of Ice]", "to itself", "[Bay of Ice, Bay of Ice]"),
        ("  - [Bay of Ice, Greywater Watch]", "  - [Castle Black, Bay of Ice]", "already given", "[Castle Black, Bay"),
        (
            "{name: Bay of Ice, kind: sea",
            "{name: Bay of Ice, kind: sea, crowns: 1",
            "a sea area has no crowns",
            "crowns: 1",
        ),
        ("    Kingswood: [footman]", "    Kingswood: [ship]", "a ship cannot stand on land", "Kingswood: [ship]"),
        (
            "    Shipbreaker Bay: [ship, ship]",
            "    Shipbreaker Bay: [ship, footman]",
            "footman cannot stand at sea",
            "ship, footman",
        ),
        ("    Kingswood: [footman]", "    Kingswod: [footman]", "unknown area 'Kingswod'", "Kingswod"),
        ("{name: Renly Baratheon,", "{name: Stannis Baratheon,", "given twice", "Stannis"),
        ("ranking: [[baratheon]", "ranking: [[baratheonn]", "unknown house", "ranking"),
        ("kind: land, crowns: 2", "kind: land, crowns: 3", "crowns", "crowns: 3"),
        ("pieces: {footman: 10", "pieces: {footmen: 10", "pieces", "pieces"),
        ("name: Westeros", "nmae: Westeros", "unknown field 'nmae'", "nmae"),
    ],
)
def test_a_board_mistake_is_refused_with_its_line(old: str, new: str, says: str, at: str) -> None:
    text = GOOD.replace(old, new, 1)
    problems = broken(old, new)
    found = [p for p in problems if says in p]
    assert found, problems
    line = int(found[0].split(":")[1])
    assert at in text.splitlines()[line - 1], (found, text.splitlines()[line - 1])
