"""The board of No True King: areas with their printed icons, borders, the houses, their
starting units, piece limits and house cards (contract §1). Plain frozen values, so the
replay cache can keep them."""

from __future__ import annotations

from dataclasses import dataclass, field

UNITS = ("footman", "knight", "ship")
SPACES = ("maester", "marshal", "lord")
FORT_BONUS = {"castle": 4, "town": 2}


@dataclass(frozen=True)
class Area:
    name: str
    kind: str  # land | sea
    crowns: int = 0
    barrels: int = 0
    fort: str | None = None  # castle (+4) | town (+2)
    at: tuple[float, float] | None = None

    @property
    def sea(self) -> bool:
        return self.kind == "sea"


@dataclass(frozen=True)
class Card:
    name: str
    house: str
    strength: int
    swords: int = 0
    towers: int = 0


@dataclass(frozen=True)
class Board:
    name: str
    areas: dict[str, Area]
    borders: frozenset[tuple[str, str]]  # each pair both ways
    houses: tuple[str, ...]
    ranking: tuple[tuple[str, ...], ...]
    start: dict[str, dict[str, tuple[str, ...]]]  # house -> area -> units
    pieces: dict[str, int]
    cards: dict[str, Card]  # by name
    _near: dict[str, tuple[str, ...]] = field(default_factory=dict, init=False, repr=False, compare=False)

    def neighbours(self, area: str) -> tuple[str, ...]:
        """The areas bordering `area`, in the board's order."""
        if not self._near:
            near: dict[str, list[str]] = {name: [] for name in self.areas}
            for a, b in sorted(self.borders):
                near[a].append(b)
            self._near.update({k: tuple(v) for k, v in near.items()})
        return self._near.get(area, ())

    def borders_on(self, a: str, b: str) -> bool:
        return (a, b) in self.borders

    def house_cards(self, house: str) -> list[Card]:
        return [c for c in self.cards.values() if c.house == house]

    def deck_size(self, house: str) -> int:
        return len(self.house_cards(house))
