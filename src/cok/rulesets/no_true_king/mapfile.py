"""Reading a No True King board file (contract §1), refusing every mistake with its line."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field

from cok.core.maps import Bad, joined, named_once, read_spec
from cok.core.names import did_you_mean, normalize
from cok.core.validation import check
from cok.core.yamlfile import YamlList, YamlMap
from cok.rulesets.no_true_king.map import UNITS, Area, Board, Card

Entry = TypeVar("Entry")


class AreaSpec(BaseModel):
    """One entry of `areas:`."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(min_length=1)
    kind: Literal["land", "sea"]
    crowns: int = Field(default=0, ge=0, le=2)
    barrels: int = Field(default=0, ge=0, le=2)
    fort: Literal["castle", "town"] | None = None
    at: tuple[float, float] | None = Field(default=None, description="[x, y] for drawing, y grows downward")


class CardSpec(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(min_length=1)
    strength: int = Field(ge=0)
    swords: int = Field(default=0, ge=0)
    towers: int = Field(default=0, ge=0)


class BoardSpec(BaseModel):
    """The whole board file (for its JSON Schema; reading checks piece by piece)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str
    areas: list[AreaSpec]
    borders: list[tuple[str, str]]
    houses: list[str]
    ranking: list[list[str]]
    start: dict[str, dict[str, list[Literal["footman", "knight", "ship"]]]]
    pieces: dict[Literal["footman", "knight", "ship"], int]
    house_cards: dict[str, list[CardSpec]]


def read_board(text: str, shown: str) -> Board:
    """The board file's text as a Board; Refused lists every problem with its line."""
    return read_spec(text, shown, BoardSpec, "board", _board)


def _board(data: YamlMap, name: str, bad: Bad) -> Board:
    areas = _areas(data, bad)
    borders = _borders(data, areas, bad)
    houses = _houses(data, bad)
    ranking = _ranking(data, houses, bad)
    start = _start(data, areas, houses, bad)
    pieces = _pieces(data, bad)
    cards = _cards(data, houses, bad)
    return Board(name, areas, borders, houses, ranking, start, pieces, cards)


def _line(data: YamlMap, key: str) -> int:
    return data.key_lines.get(key, data.line)


def _section(data: YamlMap, key: str, kind: type[Entry], must: str, bad: Bad) -> Entry | None:
    """The file's section `key` when it is of its kind; a section of another kind refused at
    its line (None either way, and for a section the file leaves out)."""
    raw = data.get(key)
    if isinstance(raw, kind):
        return raw
    if key in data:
        bad(_line(data, key), must)
    return None


def _areas(data: YamlMap, bad: Bad) -> dict[str, Area]:
    raw = _section(data, "areas", YamlList, "`areas` must be a list", bad)
    if raw is None:
        return {}
    found: dict[str, Area] = {}
    lines: dict[str, int] = {}
    for entry, line in zip(raw, raw.item_lines, strict=True):
        spec, errors = check(AreaSpec, entry)
        label = entry.get("name") if isinstance(entry, dict) else None
        if spec is None:
            for err in errors:
                bad(line, f"area {label!r}: {err}" if isinstance(label, str) else f"area: {err}")
            continue
        if spec.kind == "sea" and (spec.crowns or spec.barrels or spec.fort):
            bad(line, f"area {spec.name!r}: a sea area has no crowns, barrels or fort")
        if not named_once(lines, "area", spec.name, line, bad):
            continue
        found[spec.name] = Area(spec.name, spec.kind, spec.crowns, spec.barrels, spec.fort, spec.at)
    return found


def _find(areas: dict[str, Area], typed: Any, by_key: dict[str, str] | None = None) -> str | None:
    if not isinstance(typed, str):
        return None
    if typed in areas:
        return typed
    return (by_key or {normalize(n): n for n in areas}).get(normalize(typed))


def _borders(data: YamlMap, areas: dict[str, Area], bad: Bad) -> frozenset[tuple[str, str]]:
    raw = _section(data, "borders", YamlList, "`borders` must be a list of [A, B] pairs", bad)
    if raw is None:
        return frozenset()
    seen: dict[frozenset[str], int] = {}
    pairs: set[tuple[str, str]] = set()
    by_key = {normalize(n): n for n in areas}
    for pair, line in zip(raw, raw.item_lines, strict=True):
        if not (isinstance(pair, list) and len(pair) == 2 and all(isinstance(p, str) for p in pair)):
            bad(line, "a border is a pair of area names, like [Winterfell, White Harbor]")
            continue
        ends = [_find(areas, p, by_key) for p in pair]
        for typed, end in zip(pair, ends, strict=True):
            if end is None:
                bad(line, f"border {pair[0]} — {pair[1]}: unknown area {typed!r}{did_you_mean(typed, areas)}")
        link = joined(ends, line, seen, bad, "border", "border")
        if link is not None:
            a, b = link
            pairs |= {(a, b), (b, a)}
    return frozenset(pairs)


def _houses(data: YamlMap, bad: Bad) -> tuple[str, ...]:
    raw = data.get("houses")
    if not (isinstance(raw, list) and raw and all(isinstance(h, str) and h for h in raw)):
        if "houses" in data:
            bad(_line(data, "houses"), "`houses` must be a list of house ids, like [baratheon, stark]")
        return ()
    if len(set(raw)) != len(raw):
        bad(_line(data, "houses"), "a house is named twice in `houses`")
    return tuple(raw)


def _ranking(data: YamlMap, houses: tuple[str, ...], bad: Bad) -> tuple[tuple[str, ...], ...]:
    raw = data.get("ranking")
    line = _line(data, "ranking")
    if not (isinstance(raw, list) and all(isinstance(g, list) and g for g in raw)):
        if "ranking" in data:
            bad(line, "`ranking` must be a list of groups of houses, like [[baratheon], [stark, tyrell]]")
        return ()
    named = [h for group in raw for h in group]
    for house in named:
        if house not in houses:
            bad(line, f"ranking: unknown house {house!r}{did_you_mean(str(house), houses)}")
    if houses and sorted(map(str, named)) != sorted(houses):
        bad(line, "`ranking` must name every house of `houses` once")
    return tuple(tuple(map(str, group)) for group in raw)


def _by_house(
    raw: YamlMap, houses: tuple[str, ...], key: str, kind: type[Entry], must: str, bad: Bad
) -> Iterator[tuple[str, Entry]]:
    """Each known house of a section keyed by house (`start`, `house_cards`) with its entry, the
    unknown houses and the entries of another kind refused at their lines."""
    for house, entry in raw.items():
        hline = raw.key_lines[house]
        if house not in houses:
            bad(hline, f"{key}: unknown house {house!r}{did_you_mean(house, houses)}")
            continue
        if not isinstance(entry, kind):
            bad(hline, f"{key}: {house} must {must}")
            continue
        yield house, entry


def _start(
    data: YamlMap, areas: dict[str, Area], houses: tuple[str, ...], bad: Bad
) -> dict[str, dict[str, tuple[str, ...]]]:
    raw = _section(data, "start", YamlMap, "`start` must map each house to its areas and units", bad)
    if raw is None:
        return {}
    start: dict[str, dict[str, tuple[str, ...]]] = {}
    taken: dict[str, str] = {}
    for house, places in _by_house(raw, houses, "start", YamlMap, "map areas to lists of units", bad):
        start[house] = {}
        for typed, units in places.items():
            uline = places.key_lines[typed]
            area = _find(areas, typed)
            if area is None:
                bad(uline, f"start: unknown area {typed!r}{did_you_mean(typed, areas)}")
                continue
            if not (isinstance(units, list) and all(u in UNITS for u in units)):
                bad(uline, f"start: {house} in {area}: units are footman, knight or ship")
                continue
            sea = areas[area].sea
            for unit in units:
                if sea and unit != "ship":
                    bad(uline, f"start: a {unit} cannot stand at sea ({area}) without a ship")
                if not sea and unit == "ship":
                    bad(uline, f"start: a ship cannot stand on land ({area})")
            if area in taken and taken[area] != house:
                bad(uline, f"start: {area} already holds {taken[area]}'s units")
            taken[area] = house
            start[house][area] = tuple(units)
    return start


def _pieces(data: YamlMap, bad: Bad) -> dict[str, int]:
    raw = data.get("pieces")
    if not (
        isinstance(raw, dict) and set(raw) == set(UNITS) and all(isinstance(v, int) and v >= 0 for v in raw.values())
    ):
        if "pieces" in data:
            bad(_line(data, "pieces"), "`pieces` must give a whole number for footman, knight and ship")
        return {}
    return {unit: int(raw[unit]) for unit in UNITS}


def _cards(data: YamlMap, houses: tuple[str, ...], bad: Bad) -> dict[str, Card]:
    raw = _section(data, "house_cards", YamlMap, "`house_cards` must map each house to its cards", bad)
    if raw is None:
        return {}
    cards: dict[str, Card] = {}
    for house, entries in _by_house(raw, houses, "house_cards", YamlList, "be a list of cards", bad):
        for entry, line in zip(entries, entries.item_lines, strict=True):
            spec, errors = check(CardSpec, entry)
            if spec is None:
                for err in errors:
                    bad(line, f"house card: {err}")
                continue
            if spec.name in cards:
                bad(line, f"house card {spec.name!r} is given twice")
                continue
            cards[spec.name] = Card(spec.name, house, spec.strength, spec.swords, spec.towers)
    return cards
