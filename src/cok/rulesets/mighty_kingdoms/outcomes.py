"""What each event did, as plain values: the words and the summaries are made from these."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Founded:
    player: str
    capital: str
    tiles: tuple[str, ...]
    army: str
    army_tile: str


@dataclass(frozen=True)
class Begun:
    order: tuple[str, ...]


@dataclass(frozen=True)
class Ordered:
    army: str
    order: str
    to: str | None


@dataclass(frozen=True)
class Resolved:
    army: str
    order: str
    origin: str
    tile: str  # where the army stands now
    explored: str | None = None  # the settlement found (or "empty", "tower")
    took: bool = False  # the mover's kingdom controls the tile now
    razed: str | None = None  # the settlement burnt
    failed: bool = False  # a raze that failed, or a move into a tower
    capital_of: str | None = None  # a razed capital's kingdom


@dataclass(frozen=True)
class Hit:
    die_army: str
    target: str
    die: int
    defence: int
    hit: bool
    destroyed: bool


@dataclass(frozen=True)
class Fought:
    tile: str
    attacker: str
    defender: str
    winner: str | None  # None: a draw
    why: str
    hits: tuple[Hit, ...] = ()
    reduced: tuple[tuple[str, int], ...] = ()  # (kingdom, points of reduction it caused)
    destroyed: tuple[str, ...] = ()  # armies removed by the dice or for want of a retreat
    retreats: tuple[tuple[str, str], ...] = ()  # (army, tile)
    stayed: tuple[str, ...] = ()
    advance: tuple[str, str] | None = None
    holder: str | None = None  # who holds the tile now
    strength: tuple[tuple[str, str, int], ...] = ()  # (army, unit, change)
    slaughtered: str | None = None


@dataclass(frozen=True)
class Reformed:
    month: int
    year: int
    slowed: tuple[str, ...]
    taken: tuple[tuple[str, str], ...]  # (tile, kingdom) that gained control
    units_lost: tuple[tuple[str, str], ...]  # (army, unit)
    armies_lost: tuple[str, ...]
    order: tuple[str, ...]
    winter: bool


@dataclass(frozen=True)
class WinterBegun:
    year: int
    recalled: tuple[tuple[str, str], ...]  # (kingdom, tile)
    lost: tuple[str, ...]  # armies with nowhere to go
    gathered: tuple[tuple[str, int, int], ...]  # (kingdom, gold, food)


@dataclass(frozen=True)
class Tithed:
    giver: str
    receiver: str
    gold: int
    food: int


@dataclass(frozen=True)
class Built:
    player: str
    tile: str
    settlement: str
    was: str | None
    gold: int
    food: int


@dataclass(frozen=True)
class Recruited:
    player: str
    army: str
    tile: str
    disbanded: str | None
    allied: bool


@dataclass(frozen=True)
class Fed:
    player: str
    fed: int
    unfed: tuple[str, ...]
    lost_gold: int
    lost_food: int


@dataclass(frozen=True)
class Deployed:
    army: str
    tile: str


@dataclass(frozen=True)
class Sprung:
    year: int
    lost: tuple[str, ...]
    order: tuple[str, ...]


@dataclass(frozen=True)
class Quested:
    player: str
    hero: str
    army: str | None
    tower: str
    total: int
    result: str  # lost | hurt | nothing | artefact
    artefact: str | None = None
    points: str | None = None
    unit_lost: bool = False
    army_lost: bool = False


@dataclass(frozen=True)
class Handed:
    artefact: str
    name: str | None
    giver: str
    receiver: str
