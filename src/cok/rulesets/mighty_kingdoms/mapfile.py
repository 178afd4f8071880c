"""Reading a hex map file (`maps/*.yaml`, contract section 1), refusing every mistake with
its line: a repeated `at` or name, an unknown side or feature, a coordinate that is not a
whole number."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from cok.core.maps import Bad, read_spec
from cok.core.names import did_you_mean, normalize
from cok.core.yamlfile import YamlList, YamlMap
from cok.rulesets.mighty_kingdoms.map import FEATURES, SIDES, HexMap, Tile, key

Side = Literal["n", "ne", "se", "s", "sw", "nw"]
Feature = Literal["water", "mountain", "forest"]


class TileSpec(BaseModel):
    """One entry of `tiles:`."""

    # Only the fields and the JSON Schema are used (read_map checks entries itself): the
    # validator is built if ever asked for, not at every start (defer_build).
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    at: tuple[int, int] = Field(description="Axial coordinates [q, r] of a flat-topped hex.")
    name: str | None = Field(default=None, min_length=1, description="Optional; the tile is always 'q,r' too.")
    start: bool = Field(default=False, description="A starting tile: a capital may be founded here.")
    river: bool = Field(default=False, description="The tile holds a river (moving in slows an army).")
    marsh: bool = Field(default=False, description="Armies may never move into a marsh tile.")
    sides: dict[Side, Feature] = Field(default_factory=dict, description="Features drawn on this tile's sides.")


class MapSpec(BaseModel):
    """The whole hex map file (for its JSON Schema; loading checks entry by entry)."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    name: str
    tiles: list[TileSpec]


_FLAGS = ("start", "river", "marsh")


def read_map(text: str, shown: str) -> HexMap:
    """The map file's text as a HexMap; Refused lists every problem found, each with its line."""
    return read_spec(text, shown, MapSpec, "map", _hexes)


def _hexes(data: YamlMap, name: str, bad: Bad) -> HexMap:
    raw = data.get("tiles")
    tiles: dict[str, Tile] = {}
    if not isinstance(raw, YamlList) or not raw:
        if "tiles" in data:  # a missing one: the map needs it
            bad(data.key_lines["tiles"], "`tiles` must be a non-empty list")
    else:
        first_at: dict[str, int] = {}
        first_name: dict[str, int] = {}
        for entry, line in zip(raw, raw.item_lines, strict=True):
            tile = _tile(entry, line, bad)
            if tile is None:
                continue
            if tile.key in first_at:
                bad(line, f"a tile at {tile.key} is already given on line {first_at[tile.key]}")
                continue
            first_at[tile.key] = line
            if tile.name is not None:
                named = normalize(tile.name)
                if named in first_name:
                    bad(line, f"the name {tile.name!r} is already given to a tile on line {first_name[named]}")
                    continue
                first_name[named] = line
            tiles[tile.key] = tile
    return HexMap(name, tiles)


def _tile(entry: Any, line: int, bad: Any) -> Tile | None:
    if not isinstance(entry, YamlMap):
        bad(line, "a tile is a mapping like {at: [0, 0], name: Highmoor}")
        return None
    fine = True
    lines = entry.key_lines
    for field in entry:
        if field not in TileSpec.model_fields:
            bad(lines[field], f"unknown tile field {field!r}{did_you_mean(field, TileSpec.model_fields)}")
            fine = False
    at = entry.get("at")
    if not (isinstance(at, list) and len(at) == 2 and all(type(n) is int for n in at)):
        bad(lines.get("at", line), f"`at` must be two whole numbers [q, r], not {at!r}")
        return None
    name = entry.get("name")
    if name is not None and (not isinstance(name, str) or not name.strip()):
        bad(lines["name"], "a tile's `name` is text")
        fine = False
    if isinstance(name, str) and _looks_like_coordinates(name):
        bad(lines["name"], f"a tile's name may not look like coordinates ({name!r})")
        fine = False
    for flag in _FLAGS:
        if flag in entry and not isinstance(entry[flag], bool):
            bad(lines[flag], f"`{flag}` is true or false, not {entry[flag]!r}")
            fine = False
    sides: list[tuple[str, str]] = []
    raw_sides = entry.get("sides", {})
    if not isinstance(raw_sides, dict):
        bad(lines.get("sides", line), "`sides` is a mapping like {n: water, se: mountain}")
        fine = False
    else:
        side_lines = getattr(raw_sides, "key_lines", {})
        for side, feature in raw_sides.items():
            where = side_lines.get(side, lines.get("sides", line))
            if side not in SIDES:
                bad(where, f"unknown side {side!r}{did_you_mean(str(side), SIDES)}; sides are {', '.join(SIDES)}")
                fine = False
            elif feature not in FEATURES:
                bad(where, f"unknown feature {feature!r} on side {side}; features are {', '.join(FEATURES)}")
                fine = False
            else:
                sides.append((side, feature))
    if not fine:
        return None
    return Tile(
        key=key(at[0], at[1]),
        name=name.strip() if isinstance(name, str) else None,
        start=bool(entry.get("start", False)),
        river=bool(entry.get("river", False)),
        marsh=bool(entry.get("marsh", False)),
        sides=tuple(sides),
        line=line,
    )


def _looks_like_coordinates(name: str) -> bool:
    q, sep, r = name.replace(" ", "").partition(",")
    return bool(sep) and q.lstrip("+-").isdigit() and r.lstrip("+-").isdigit()
