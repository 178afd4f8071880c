"""The hex map of a Mighty Kingdoms campaign: tiles in axial coordinates, their sides, and
where an army may move (contract section 1)."""

from __future__ import annotations

from dataclasses import dataclass, field

from cok.core.errors import RuleError
from cok.core.names import did_you_mean, normalize

#: Each side of a flat-topped hex and the step to the neighbour across it.
SIDES: dict[str, tuple[int, int]] = {
    "n": (0, -1),
    "ne": (1, -1),
    "se": (1, 0),
    "s": (0, 1),
    "sw": (-1, 1),
    "nw": (-1, 0),
}
OPPOSITE = {"n": "s", "ne": "sw", "se": "nw", "s": "n", "sw": "ne", "nw": "se"}
FEATURES = ("water", "mountain", "forest")
SLOWING = frozenset({"mountain", "forest"})


def key(q: int, r: int) -> str:
    """A tile's address as the ledger writes it: `3,-2`."""
    return f"{q},{r}"


def coords(tile: str) -> tuple[int, int]:
    q, _, r = tile.partition(",")
    return int(q), int(r)


def distance(a: str, b: str) -> int:
    (aq, ar), (bq, br) = coords(a), coords(b)
    dq, dr = aq - bq, ar - br
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


@dataclass(frozen=True)
class Tile:
    """One hex of the map as the map file draws it."""

    key: str
    name: str | None = None
    start: bool = False
    river: bool = False
    marsh: bool = False
    sides: tuple[tuple[str, str], ...] = ()  # (side, feature) as drawn on this tile
    line: int | None = None

    @property
    def label(self) -> str:
        """How messages name the tile: `Highmoor (3,-2)` or `3,-2`."""
        return f"{self.name} ({self.key})" if self.name else self.key


@dataclass(frozen=True)
class HexMap:
    """The campaign's map: its tiles by `q,r`, and what the rules ask of them."""

    name: str
    tiles: dict[str, Tile]
    _by_name: dict[str, str] = field(init=False, repr=False, compare=False)
    # What the rules ask of the map again and again (each move, retreat and reform), worked
    # out once per map when first asked: the tiles never change.
    _neighbours: dict[str, tuple[str, ...]] = field(init=False, repr=False, compare=False)
    _edges: dict[tuple[str, str], frozenset[str]] = field(init=False, repr=False, compare=False)
    _entries: dict[tuple[str, str], bool] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        by_name = {normalize(t.name): k for k, t in self.tiles.items() if t.name}
        object.__setattr__(self, "_by_name", by_name)
        object.__setattr__(self, "_neighbours", {})
        object.__setattr__(self, "_edges", {})
        object.__setattr__(self, "_entries", {})

    def find(self, typed: str) -> str:
        """A tile's key from its name or its `q,r`, as typed; RuleError when unknown."""
        text = typed.strip()
        if text in self.tiles:
            return text
        q, sep, r = text.replace(" ", "").partition(",")
        if sep and _integer(q) and _integer(r):
            found = key(int(q), int(r))
            if found in self.tiles:
                return found
            raise RuleError(f"there is no tile at {found} on the map {self.name!r}")
        named = self._by_name.get(normalize(text))
        if named is not None:
            return named
        names = [t.name for t in self.tiles.values() if t.name]
        raise RuleError(f'unknown tile {typed!r}{did_you_mean(typed, names)} (name a tile, or write it as "q,r")')

    def label(self, tile: str) -> str:
        found = self.tiles.get(tile)
        return found.label if found else tile

    def neighbours(self, tile: str) -> list[str]:
        """The neighbours on the map, in side order n, ne, se, s, sw, nw."""
        found = self._neighbours.get(tile)
        if found is None:
            q, r = coords(tile)
            found = tuple(k for dq, dr in SIDES.values() if (k := key(q + dq, r + dr)) in self.tiles)
            self._neighbours[tile] = found
        return list(found)

    def edge(self, a: str, b: str) -> frozenset[str]:
        """The features of the edge a|b: drawn on either tile's side of it (section 1)."""
        found = self._edges.get((a, b))
        if found is None:
            found = self._edges[a, b] = self._edge(a, b)
        return found

    def _edge(self, a: str, b: str) -> frozenset[str]:
        (aq, ar), (bq, br) = coords(a), coords(b)
        step = (bq - aq, br - ar)
        side = next((s for s, d in SIDES.items() if d == step), None)
        if side is None:
            return frozenset()
        found = {f for s, f in self.tiles[a].sides if s == side} if a in self.tiles else set()
        if b in self.tiles:
            found |= {f for s, f in self.tiles[b].sides if s == OPPOSITE[side]}
        return frozenset(found)

    def may_enter(self, a: str, b: str) -> bool:
        """A move a → b: b on the map, a neighbour, not marsh, and not across water."""
        found = self._entries.get((a, b))
        if found is None:
            target = self.tiles.get(b)
            found = target is not None and distance(a, b) == 1 and not target.marsh and "water" not in self.edge(a, b)
            self._entries[a, b] = found
        return found

    def slows(self, a: str, b: str) -> bool:
        """Reform step 1: moving a → b crosses a mountain or forest edge, or enters a river."""
        return bool(self.edge(a, b) & SLOWING) or self.tiles[b].river

    def has_feature(self, tile: str, feature: str) -> bool:
        """Any of the tile's six edges carries the feature (section 5.7b)."""
        q, r = coords(tile)
        return any(feature in self.edge(tile, key(q + dq, r + dr)) for dq, dr in SIDES.values())


def _integer(text: str) -> bool:
    return text.lstrip("+-").isdigit()
