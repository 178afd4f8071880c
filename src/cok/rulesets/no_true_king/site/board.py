"""The board as a picture: each land area in its controlling house's colour (and initial), the
seas as seas, troops, flags, crowns, barrels and forts, and a legend — placed in SVG coordinates as
plain values (the `board.svg` template draws them, escaping every name). Numbers are
rounded, so the same state always gives the same bytes."""

from __future__ import annotations

import threading
import zlib
from dataclasses import dataclass

from cok.render import palette
from cok.rulesets.no_true_king.rules.state import State

#: Each house's colour, from the shared palette made for telling categories apart (colour-blind
#: readers too); a house of another board takes one of the palette by its name.
COLOURS = {
    "baratheon": palette.YELLOW,
    "stark": palette.SKY,
    "lannister": palette.VERMILLION,
    "greyjoy": palette.BLACK,
    "tyrell": palette.GREEN,
}
LAND, SEA, SEA_EDGE, LAND_EDGE = "#f4efe1", "#a9cbe0", "#2b5f86", "#4a3b22"
#: The board file places areas on a 700 x 1350 sheet; spread out to this scale, and apart
#: where they still touch, so that no two areas hide each other.
SCALE_X, SCALE_Y = 1.45, 1.1
BOX_W, BOX_H = 128, 70  # a land area's box; a sea's ellipse fits in the same room
GAP = 12
MARGIN = 80
TOP = 56  # the title's room
ICON = 15  # the room of one icon on an area's strip
LEGEND_HEIGHT = 108


def colour(house: str | None) -> str:
    if house is None:
        return LAND
    found = COLOURS.get(house)
    return found or palette.CATEGORIES[zlib.crc32(house.encode()) % len(palette.CATEGORIES)]


ink = palette.ink


def n(value: float) -> str:
    """A coordinate, rounded so that the output is the same on every machine."""
    return f"{value:.1f}".rstrip("0").rstrip(".")


Placed = tuple[dict[str, tuple[float, float]], int, int]
#: The boards laid out in this process, by their areas' positions (a server draws the board
#: again after every recording: the layout, a few ms, depends on the board file alone).
_LAID_OUT: dict[tuple[tuple[str, tuple[float, float] | None], ...], Placed] = {}
_LAID_OUT_KEPT = 8
_LAID_OUT_LOCK = threading.Lock()  # a club's server draws several campaigns' boards at once


def layout(state: State) -> Placed:
    """Each area's centre on the drawing, and the drawing's width and height: the board
    file's positions scaled, then pushed apart (a fixed number of passes, in name order)
    where two areas would overlap. Worked out once per board in a process."""
    key = tuple(sorted((name, area.at) for name, area in state.board.areas.items()))
    with _LAID_OUT_LOCK:
        found = _LAID_OUT.get(key)
        if found is None:
            if len(_LAID_OUT) >= _LAID_OUT_KEPT:
                _LAID_OUT.pop(next(iter(_LAID_OUT)))
            found = _LAID_OUT[key] = _laid_out(key)
    placed, width, height = found
    return dict(placed), width, height


def _laid_out(positions: tuple[tuple[str, tuple[float, float] | None], ...]) -> Placed:
    names = [name for name, _ in positions]
    pos = {}
    for name, at in positions:
        at = at or (0.0, 0.0)
        pos[name] = [at[0] * SCALE_X, at[1] * SCALE_Y]
    need_x, need_y = BOX_W + GAP, BOX_H + GAP
    for _ in range(60):
        moved = False
        for i, a in enumerate(names):
            for b in names[i + 1 :]:
                pa, pb = pos[a], pos[b]
                dx, dy = pb[0] - pa[0], pb[1] - pa[1]
                over_x, over_y = need_x - abs(dx), need_y - abs(dy)
                if over_x <= 0 or over_y <= 0:
                    continue
                moved = True
                # push apart along the cheaper axis, half each
                if over_x * BOX_H < over_y * BOX_W:
                    step = (over_x / 2 + 0.5) * (1 if dx >= 0 else -1)
                    pa[0] -= step
                    pb[0] += step
                else:
                    step = (over_y / 2 + 0.5) * (1 if dy >= 0 else -1)
                    pa[1] -= step
                    pb[1] += step
        if not moved:
            break
    min_x = min(p[0] for p in pos.values()) - BOX_W / 2 - MARGIN / 2
    min_y = min(p[1] for p in pos.values()) - BOX_H / 2 - TOP
    placed = {name: (round(p[0] - min_x, 1), round(p[1] - min_y, 1)) for name, p in pos.items()}
    width = max(p[0] for p in placed.values()) + BOX_W / 2 + MARGIN / 2
    height = max(p[1] for p in placed.values()) + BOX_H / 2 + 20
    return placed, round(width), round(height)


def lines_of(name: str) -> list[str]:
    """An area's name on one line, or two if it is long."""
    if len(name) <= 15 or " " not in name:
        return [name]
    words = name.split(" ")
    best = min(range(1, len(words)), key=lambda i: abs(len(" ".join(words[:i])) - len(" ".join(words[i:]))))
    return [" ".join(words[:best]), " ".join(words[best:])]


def troops_text(force: tuple[str, int, int, int] | None) -> str:
    if not force:
        return ""
    return " ".join(f"{count}{k}" for count, k in zip(force[1:], ("F", "K", "S"), strict=True) if count)


@dataclass(frozen=True)
class Icon:
    kind: str  # crown, barrel, tower
    x: float
    y: float


@dataclass(frozen=True)
class Pill:
    """The troops standing in an area, written on a pill ringed in their house's colour."""

    x: str
    y: str
    width: str
    text_x: str
    text_y: str
    text: str
    ring: str


@dataclass(frozen=True)
class Area:
    name: str
    tip: str
    sea: bool
    x: str
    y: str
    fill: str
    edge: str  # a sea's ring (its house's colour where ships are); a land area's border
    stroke: str  # its width
    text: str  # the colour its name is written in
    lines: list[tuple[str, str]]  # (y, line) of its name
    strip: tuple[str, str, str] | None  # (x, y, width) of the paper under its icons
    icons: list[Icon]
    pill: Pill | None
    flag: tuple[float, float, str] | None  # (x, y, colour)
    mark: str = ""  # the controlling house's initial, in a land area's corner: read without colour


@dataclass(frozen=True)
class BoardPicture:
    title: str
    width: int
    height: int  # the whole picture's, legend included
    borders: list[tuple[str, str, str, str, bool]]  # x1, y1, x2, y2, and whether by sea
    areas: list[Area]
    legend_y: float
    houses: list[tuple[str, str, int | None, str, str]]  # house, colour, rank, its mark, the mark's ink


def board_picture(state: State, title: str) -> BoardPicture:
    board = state.board
    at, width, height = layout(state)
    borders = []
    for a, b in sorted(board.borders):
        if a < b:
            (x1, y1), (x2, y2) = at[a], at[b]
            borders.append((n(x1), n(y1), n(x2), n(y2), board.areas[a].sea or board.areas[b].sea))
    marks = palette.initials({h: h for h in board.houses})
    return BoardPicture(
        title=title,
        width=width,
        height=height + 10 + LEGEND_HEIGHT + 10,
        borders=borders,
        areas=[_area(state, name, at[name], marks) for name in sorted(board.areas)],
        legend_y=height + 10,
        houses=[(h, colour(h), state.ranks.get(h), marks[h], ink(colour(h))) for h in board.houses],
    )


def icons(x: float, y: float, crowns: int, barrels: int, fort: str | None) -> list[Icon]:
    kinds = ["crown"] * crowns + ["barrel"] * barrels + ["tower"] * {"castle": 2, "town": 1}.get(fort or "", 0)
    left = x - ICON * (len(kinds) - 1) / 2
    return [Icon(kind, left + i * ICON, y) for i, kind in enumerate(kinds)]


def _area(state: State, name: str, xy: tuple[float, float], marks: dict[str, str]) -> Area:
    area = state.board.areas[name]
    x, y = xy
    house = state.controller(name)
    force = state.troops.get(name)
    flag = state.flags.get(name)
    if area.sea:
        fill, edge, stroke, text = SEA, colour(house) if house else SEA_EDGE, "4" if house else "1.5", "#12324a"
    else:
        fill, edge, text = colour(house), LAND_EDGE, ink(colour(house))
        stroke = {"castle": "3.5", "town": "2.5"}.get(area.fort or "", "1.2")
    who = f"{house}" if house else ("open sea" if area.sea else "nobody")
    tip = [f"{name}: {who}"]
    if force:
        tip.append(f"{force[1]} footmen, {force[2]} knights, {force[3]} ships")
    if flag:
        tip.append(f"{flag}'s flag")
    lines = lines_of(name)
    one = len(lines) == 1
    top = (y - (8 if one else 14)) if area.sea else (y - BOX_H / 2 + (15 if one else 14))
    icon_y = y + (0 if one else 5)
    strip = None
    drawn: list[Icon] = []
    if not area.sea:
        drawn = icons(x, icon_y, area.crowns, area.barrels, area.fort)
        if drawn:  # the icons sit on a paper strip, to read on any house's colour
            half = ICON * len(drawn) / 2 + 3
            strip = (n(x - half), n(icon_y - 9), n(2 * half))
    pieces = troops_text(force)
    pill = None
    flagged = None
    if pieces or flag:
        base = y + BOX_H / 2 - 9
        wide = len(pieces) * 8.2 + 14 if pieces else 0
        left = x - (wide + (14 if flag else 0)) / 2
        if pieces and force:
            pill = Pill(n(left), n(base - 9), n(wide), n(left + wide / 2), n(base + 3.5), pieces, colour(force[0]))
        if flag:
            flagged = (left + wide + 4, base, colour(flag))
    return Area(
        name=name,
        tip="; ".join(tip),
        sea=area.sea,
        x=n(x),
        y=n(y),
        fill=fill,
        edge=edge,
        stroke=stroke,
        text=text,
        lines=[(n(top + i * 12), line) for i, line in enumerate(lines)],
        strip=strip,
        icons=drawn,
        pill=pill,
        flag=flagged,
        mark="" if area.sea or house is None else marks.get(house, ""),
    )
