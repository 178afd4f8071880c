"""The hex map as a picture: every tile, side feature, settlement and army placed in SVG
coordinates (plain values; the `map.svg` template draws them, escaping every name).

Flat-topped hexes in axial [q, r] (contract section 1): the centre of a tile is
x = 1.5·size·q, y = √3·size·(r + q/2). Numbers are written with one decimal, so the same
state always gives the same bytes.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from cok.render import palette
from cok.rulesets.mighty_kingdoms.map import SIDES, Tile, coords, key
from cok.rulesets.mighty_kingdoms.rules.state import Army, State

SIZE = 40.0
ROOT3 = math.sqrt(3)
#: The two corners (0 = east, clockwise on screen) that bound each side of a flat-topped hex.
SIDE_CORNERS = {"se": (0, 1), "s": (1, 2), "sw": (2, 3), "nw": (3, 4), "n": (4, 5), "ne": (5, 0)}
#: Tiles nobody has explored look like old parchment; explored but unheld ones are paler;
#: a wizard's tower is a grey-violet no kingdom can take.
UNEXPLORED = "#e6d8b5"
EXPLORED = "#fbf7ec"
TOWER = "#b9b1cc"
#: Kingdom colours in founding order, from the shared palette made for telling categories
#: apart (colour-blind readers too); not black, under which a tile's name could not be read.
PALETTE = tuple(c for c in palette.CATEGORIES if c != palette.BLACK)
KINGDOM_OPACITY = 0.75
#: A small fir on its trunk, drawn along a forest side.
TREE = ((-4, 2), (0, -7), (4, 2), (0.8, 2), (0.8, 5), (-0.8, 5), (-0.8, 2))


def num(value: float) -> str:
    """One decimal and never `-0.0`: the picture's bytes depend only on the state."""
    return f"{round(value, 1) + 0.0:.1f}"


def centre(tile: str, size: float = SIZE) -> tuple[float, float]:
    q, r = coords(tile)
    return size * 1.5 * q, size * ROOT3 * (r + q / 2)


def corners(x: float, y: float, size: float = SIZE) -> list[tuple[float, float]]:
    return [(x + size * math.cos(math.pi / 3 * i), y + size * math.sin(math.pi / 3 * i)) for i in range(6)]


def points(pairs: list[tuple[float, float]]) -> str:
    return " ".join(f"{num(x)},{num(y)}" for x, y in pairs)


def kingdom_colours(state: State) -> dict[str, str]:
    """Each kingdom's colour, by founding order (a kingdom keeps its colour all campaign)."""
    ordered = sorted(state.kingdoms.values(), key=lambda k: k.founded)
    return {k.id: PALETTE[i % len(PALETTE)] for i, k in enumerate(ordered)}


text_on = palette.ink


@dataclass(frozen=True)
class HexTile:
    key: str
    points: str
    fill: str
    opacity: float
    kind: str  # kingdom, unexplored, explored, tower
    title: str
    marsh: bool
    mark: Label | None = None  # its holder's initials, left of its middle: read without colour


@dataclass(frozen=True)
class Label:
    x: str
    y: str
    text: str


@dataclass(frozen=True)
class Edge:
    feature: str  # water, mountain, forest
    x1: str
    y1: str
    x2: str
    y2: str
    marks: tuple[str, ...]  # polygon points of the triangles or trees along the edge


@dataclass(frozen=True)
class Place:
    """A settlement or a wizard's tower: its symbol is drawn at (x, y)."""

    kind: str  # village, city, fortress, capital, tower
    x: str
    y: str
    title: str


@dataclass(frozen=True)
class Marker:
    """An army: a standing banner when upright, a lying one on its side."""

    id: str
    number: int
    upright: bool
    x: str
    y: str
    width: str
    height: str
    text_x: str
    text_y: str
    fill: str
    ink: str
    font: str
    title: str


@dataclass(frozen=True)
class MapPicture:
    title: str
    x: str
    y: str
    width: str
    height: str
    tiles: list[HexTile]
    rivers: list[str]  # path data
    edges: list[Edge]
    names: list[Label]
    addresses: list[Label]
    places: list[Place]
    armies: list[Marker]
    legend: list[tuple[str, str, str, str]]  # (kingdom name, race, colour, its mark)
    legend_x: str
    legend_y: str
    legend_width: str
    legend_height: str
    towers: bool  # whether the map has a wizard's tower: the legend shows one only then


def tile_order(tile: str) -> tuple[int, int]:
    q, r = coords(tile)
    return q, r


def settlement_shown(state: State, tile: str) -> str | None:
    """A capital is drawn as a capital only while its own kingdom holds it; otherwise a city."""
    kind = state.settlement.get(tile)
    if kind != "capital":
        return kind
    owner = next((k.id for k in state.kingdoms.values() if k.capital == tile), None)
    return "capital" if owner is not None and state.control.get(tile) == owner else "city"


def map_picture(state: State, title: str) -> MapPicture:
    hexmap = state.map
    palette = kingdom_colours(state)
    keys = sorted(hexmap.tiles, key=tile_order)
    marks = palette_marks(state)
    tiles = [_hex(state, hexmap.tiles[k], palette, marks) for k in keys]
    names: list[Label] = []
    addresses: list[Label] = []
    for k in keys:
        x, y = centre(k)
        tile = hexmap.tiles[k]
        if tile.name:
            lines = _wrap(tile.name)
            top = y - SIZE * (0.6 if len(lines) == 1 else 0.74)
            names.extend(Label(num(x), num(top + 11 * i + 3.5), line) for i, line in enumerate(lines))
        addresses.append(Label(num(x), num(y + SIZE * 0.7), k))
    places = [p for k in keys if (p := _place(state, k)) is not None]
    armies = [m for k in keys for m in _markers(state, k, palette)]
    xs = [x for k in keys for x, _ in corners(*centre(k))] or [0.0]
    ys = [y for k in keys for _, y in corners(*centre(k))] or [0.0]
    margin = 16.0
    x0, y0 = min(xs) - margin, min(ys) - margin - 24  # room for the title
    width = max(max(xs) + margin - x0, 680.0)  # the legend needs this much
    founded = sorted(state.kingdoms.values(), key=lambda k: k.founded)
    legend = [(k.name, k.race, palette[k.id], marks[k.id]) for k in founded]
    legend_y = max(ys) + margin
    legend_height = 130 + 20 * ((len(legend) + 1) // 2)
    height = legend_y + legend_height + margin - y0
    return MapPicture(
        title=title,
        x=num(x0),
        y=num(y0),
        width=num(width),
        height=num(height),
        tiles=tiles,
        rivers=_rivers(state, keys),
        edges=_edges(state, keys),
        names=names,
        addresses=addresses,
        places=places,
        armies=armies,
        legend=legend,
        legend_x=num(x0 + margin),
        legend_y=num(legend_y),
        legend_width=num(width - 2 * margin),
        legend_height=num(legend_height),
        towers=bool(state.towers),
    )


def _wrap(name: str) -> list[str]:
    """A long name on two lines, split at the space nearest its middle, so it fits the hex."""
    if len(name) <= 11 or " " not in name:
        return [name]
    spaces = [i for i, c in enumerate(name) if c == " "]
    cut = min(spaces, key=lambda i: abs(i - len(name) / 2))
    return [name[:cut], name[cut + 1 :]]


def palette_marks(state: State) -> dict[str, str]:
    """Each kingdom's mark: the shortest start of its name no other kingdom's shares."""
    return palette.initials({k.id: k.name for k in state.kingdoms.values()})


def _hex(state: State, tile: Tile, colours: dict[str, str], marks: dict[str, str]) -> HexTile:
    holder = state.control.get(tile.key)
    label = tile.label
    if holder is not None and holder in colours:
        fill, opacity, kind = colours[holder], KINGDOM_OPACITY, "kingdom"
        label += f" — held by {state.kingdoms[holder].name}"
    elif tile.key in state.towers:
        fill, opacity, kind = TOWER, 1.0, "tower"
        label += " — a wizard's tower"
    elif tile.key in state.explored:
        fill, opacity, kind = EXPLORED, 1.0, "explored"
        label += " — explored, held by nobody"
    else:
        fill, opacity, kind = UNEXPLORED, 1.0, "unexplored"
        label += " — unexplored"
    if tile.marsh:
        label += ", marsh"
    if tile.river:
        label += ", river"
    x, y = centre(tile.key)
    mark = Label(num(x - SIZE * 0.68), num(y + 4), marks[holder]) if kind == "kingdom" and holder else None
    return HexTile(tile.key, points(corners(x, y)), fill, opacity, kind, label, tile.marsh, mark)


def _side_middle(tile: str, side: str) -> tuple[float, float]:
    pts = corners(*centre(tile))
    a, b = SIDE_CORNERS[side]
    return (pts[a][0] + pts[b][0]) / 2, (pts[a][1] + pts[b][1]) / 2


def _rivers(state: State, keys: list[str]) -> list[str]:
    """A river runs through the middle of each river tile to the sides it shares with its
    neighbouring river tiles; an end of the river runs to the tile's water side, if any."""
    hexmap = state.map
    paths = []
    for k in keys:
        tile = hexmap.tiles[k]
        if not tile.river:
            continue
        q, r = coords(k)
        joined = [s for s, (dq, dr) in SIDES.items() if (n := hexmap.tiles.get(key(q + dq, r + dr))) and n.river]
        if len(joined) < 2:
            coast = [s for s, (dq, dr) in SIDES.items() if "water" in hexmap.edge(k, key(q + dq, r + dr))]
            joined += coast[: 2 - len(joined)]
        x, y = centre(k)
        ends = [_side_middle(k, s) for s in joined]
        if len(ends) == 2:
            (ax, ay), (bx, by) = ends
            paths.append(f"M{num(ax)},{num(ay)} Q{num(x)},{num(y)} {num(bx)},{num(by)}")
        elif ends:
            paths.extend(f"M{num(x)},{num(y)} L{num(ex)},{num(ey)}" for ex, ey in ends)
        else:  # a river with nowhere to go: a short stretch across the tile
            paths.append(f"M{num(x - SIZE * 0.5)},{num(y)} Q{num(x)},{num(y - 8)} {num(x + SIZE * 0.5)},{num(y)}")
    return paths


def _edges(state: State, keys: list[str]) -> list[Edge]:
    """Each edge once, with the features either tile draws on it (section 1)."""
    hexmap = state.map
    found: dict[tuple[str, str], set[str]] = {}
    where: dict[tuple[str, str], tuple[str, str]] = {}
    for k in keys:
        q, r = coords(k)
        for side, feature in hexmap.tiles[k].sides:
            dq, dr = SIDES[side]
            other = key(q + dq, r + dr)
            pair = (k, other) if tile_order(k) <= tile_order(other) else (other, k)
            found.setdefault(pair, set()).add(feature)
            where.setdefault(pair, (k, side))  # either tile's side is the same segment
    edges = []
    for pair in sorted(found, key=lambda p: (tile_order(p[0]), tile_order(p[1]))):
        tile, side = where[pair]
        pts = corners(*centre(tile))
        a, b = SIDE_CORNERS[side]
        (x1, y1), (x2, y2) = pts[a], pts[b]
        for feature in sorted(found[pair], key=("water", "mountain", "forest").index):
            edges.append(Edge(feature, num(x1), num(y1), num(x2), num(y2), _marks(feature, x1, y1, x2, y2)))
    return edges


def _marks(feature: str, x1: float, y1: float, x2: float, y2: float) -> tuple[str, ...]:
    """Three small peaks for a mountain side, three small trees for a forest side."""
    if feature == "water":
        return ()
    marks = []
    for t in (0.22, 0.5, 0.78):
        x, y = x1 + (x2 - x1) * t, y1 + (y2 - y1) * t
        if feature == "mountain":
            marks.append(points([(x - 5.5, y + 3), (x, y - 6), (x + 5.5, y + 3)]))
        else:
            marks.append(points([(x + dx, y + dy) for dx, dy in TREE]))
    return tuple(marks)


def _place(state: State, tile: str) -> Place | None:
    x, y = centre(tile)
    label = state.map.label(tile)
    if tile in state.towers:
        return Place("tower", num(x), num(y - 2), f"{label}: a wizard's tower")
    kind = settlement_shown(state, tile)
    if kind is None:
        return None
    holder = state.control.get(tile)
    whose = f", held by {state.kingdoms[holder].name}" if holder in state.kingdoms else ""
    words = {"capital": "a capital", "city": "a city", "fortress": "a fortress", "village": "a village"}
    return Place(kind, num(x), num(y - 6), f"{label}: {words.get(kind, kind)}{whose}")


def _markers(state: State, tile: str, palette: dict[str, str]) -> list[Marker]:
    """The armies on a tile in rows below its settlement, each showing its number."""
    armies = state.armies_in(tile)
    x, y = centre(tile)
    scale = 1.0 if len(armies) <= 4 else 0.72  # a crowded tile: smaller banners, rows of five
    step = 17.0 * scale
    rows = [armies[i : i + 5] for i in range(0, len(armies), 5)]
    marks = []
    for row_index, row in enumerate(rows):
        for i, army in enumerate(row):
            marks.append(
                _marker(
                    state,
                    army,
                    palette,
                    x + step * (i - (len(row) - 1) / 2),
                    y + SIZE * 0.33 + 12.0 * row_index,
                    scale,
                )
            )
    return marks


def _marker(state: State, army: Army, palette: dict[str, str], ax: float, ay: float, scale: float) -> Marker:
    """One banner centred at (ax, ay): taller than wide when upright, wider when on its side."""
    w, h = (11.0 * scale, 16.0 * scale) if army.upright else (16.0 * scale, 11.0 * scale)
    fill = palette.get(army.player, "#777777")
    state_words = "upright" if army.upright else "on its side"
    owner = state.kingdoms[army.player].name if army.player in state.kingdoms else army.player
    return Marker(
        id=army.id,
        number=army.number,
        upright=army.upright,
        x=num(ax - w / 2),
        y=num(ay - h / 2),
        width=num(w),
        height=num(h),
        text_x=num(ax),
        text_y=num(ay + 3.2 * scale),
        fill=fill,
        ink=text_on(fill),
        font=num(9.5),  # never smaller: a crowded tile's banners shrink, their numbers do not
        title=f"{army.id} of {owner}: {army.points} points, {state_words}",
    )
