"""The campaign map: locations, routes, and who can reach what. Pure, no I/O."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Literal

from cok.core.names import NameIndex

Kind = Literal["castle", "fort", "village", "region"]

#: Campaign Points a location is worth, by kind (the source's "Earning Points").
VALUE: dict[str, int] = {"castle": 10, "fort": 3, "village": 1, "region": 0}

#: "You can only ever hold 3 Castles at a time."
CASTLE_CAP = 3


@dataclass(frozen=True)
class Location:
    name: str
    kind: Kind
    home: tuple[str, ...] = ()
    bonus: str | None = None
    at: tuple[float, float] | None = None
    line: int | None = None

    @property
    def value(self) -> int:
        return VALUE[self.kind]

    @property
    def is_region(self) -> bool:
        return self.kind == "region"


@dataclass(frozen=True)
class Route:
    a: str
    b: str
    kind: Literal["land", "sea"]


@dataclass
class Geography:
    """A validated map. Reach is precomputed once per map, not per question."""

    name: str
    locations: dict[str, Location]
    routes: list[Route]
    names: NameIndex = field(init=False, repr=False)
    neighbours: dict[str, frozenset[str]] = field(init=False, repr=False)
    _reach: dict[str, frozenset[str]] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self.names = NameIndex(self.locations, "location")
        adjacent: dict[str, set[str]] = {name: set() for name in self.locations}
        for route in self.routes:
            adjacent[route.a].add(route.b)
            adjacent[route.b].add(route.a)
        self.neighbours = {name: frozenset(n) for name, n in adjacent.items()}
        self._reach = {name: self._reach_from(name) for name in self.locations}

    def _reach_from(self, start: str) -> frozenset[str]:
        """Non-region locations at the end of a path from `start` whose in-between
        nodes are all regions ("move through Regions as though you occupy them")."""
        found: set[str] = set()
        seen = {start}
        frontier = [start]
        while frontier:
            node = frontier.pop()
            for nxt in self.neighbours[node]:
                if nxt in seen:
                    continue
                seen.add(nxt)
                if self.locations[nxt].is_region:
                    frontier.append(nxt)
                else:
                    found.add(nxt)
        return frozenset(found)

    def reach(self, names: Iterable[str]) -> set[str]:
        """reach(S): every non-region location adjacent to some location in S."""
        out: set[str] = set()
        for name in names:
            out |= self._reach[name]
        return out

    def adjacent(self, a: str, b: str) -> bool:
        return b in self._reach[a]

    def find(self, typed: str) -> str:
        """The map's own spelling of a typed location name (RuleError if unknown)."""
        return self.names.find(typed)

    def holdable(self) -> list[str]:
        """Every location that can be occupied: all but regions."""
        return [n for n, loc in self.locations.items() if not loc.is_region]

    def castles(self) -> list[str]:
        return [n for n, loc in self.locations.items() if loc.kind == "castle"]

    def value(self, name: str) -> int:
        return self.locations[name].value

    def kind(self, name: str) -> str:
        return self.locations[name].kind

    def connected(self, names: Iterable[str]) -> bool:
        """Whether the locations form one group through adjacency (reach)."""
        group = list(names)
        if not group:
            return True
        members = set(group)
        linked = {group[0]}
        frontier = [group[0]]
        while frontier:
            node = frontier.pop()
            for other in members - linked:
                if self.adjacent(node, other):
                    linked.add(other)
                    frontier.append(other)
        return linked == members
