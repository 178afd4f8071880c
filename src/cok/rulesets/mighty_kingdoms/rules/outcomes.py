"""What each event did, as plain values: the words and the summaries are made from these."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

#: A field the commit needs that the words and `--json` leave out: the event already says it
#: (a kingdom's name, an army's list), so a recording's document stays as it was.
UNSHOWN: dict[str, Any] = {"shown": False}


@dataclass(frozen=True)
class Founded:
    """A kingdom founded: its capital, the tiles it took and its first army."""

    player: str
    capital: str
    tiles: tuple[str, ...]
    army: str
    army_tile: str
    name: str = field(default="", metadata=UNSHOWN)
    race: str = field(default="", metadata=UNSHOWN)
    settlements: tuple[tuple[str, str], ...] = field(default=(), metadata=UNSHOWN)  # (tile, kind)
    list: str | None = field(default=None, metadata=UNSHOWN)
    units: tuple[tuple[str, int], ...] | None = field(default=None, metadata=UNSHOWN)


@dataclass(frozen=True)
class Begun:
    """Setup closed: the player order of the first year."""

    order: tuple[str, ...]


@dataclass(frozen=True)
class Ordered:
    """An army's order for the month (and a move's target)."""

    army: str
    order: str
    to: str | None
    event_id: str | None = field(default=None, metadata=UNSHOWN)  # the order event's, for `cok void`


@dataclass(frozen=True)
class Resolved:
    """An order resolved: where the army stands now, and what it found, took or burnt."""

    army: str
    order: str
    origin: str
    tile: str  # where the army stands now
    explored: str | None = None  # the settlement found (or "empty", "tower")
    took: bool = False  # the mover's kingdom controls the tile now
    razed: str | None = None  # the settlement burnt
    failed: bool = False  # a raze that failed, or a move into a tower
    capital_of: str | None = None  # a razed capital's kingdom
    taken_from: str | None = None  # the kingdom that held the tile the mover took
    dice: tuple[int, ...] = ()  # the exploration's 2D6, then the reroll after a double (#35: always shown)


@dataclass(frozen=True)
class Hit:
    """One die of a simple battle: its target, the Defence it had to reach, and the damage."""

    die_army: str
    target: str
    die: int
    defence: int
    hit: bool
    destroyed: bool


@dataclass(frozen=True)
class Fought:
    """A battle: the winner and why, the dice, the armies lost, and who retreated where."""

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
    """The month closed: armies laid on their side, tiles taken, losses, the new player order."""

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
    """Recall and gather: where each kingdom's armies went, the armies lost, what it gathered."""

    year: int
    recalled: tuple[tuple[str, str], ...]  # (kingdom, tile)
    lost: tuple[str, ...]  # armies with nowhere to go
    gathered: tuple[tuple[str, int, int], ...]  # (kingdom, gold, food)


@dataclass(frozen=True)
class Tithed:
    """Gold and food handed from one kingdom to another."""

    giver: str
    receiver: str
    gold: int
    food: int


@dataclass(frozen=True)
class Built:
    """A settlement built or upgraded, what it replaced and what it cost."""

    player: str
    tile: str
    settlement: str
    was: str | None
    gold: int
    food: int


@dataclass(frozen=True)
class Recruited:
    """A new army at a fortress (and the army disbanded for it)."""

    player: str
    army: str
    tile: str
    disbanded: str | None
    allied: bool
    list: str | None = field(default=None, metadata=UNSHOWN)
    units: tuple[tuple[str, int], ...] | None = field(default=None, metadata=UNSHOWN)


@dataclass(frozen=True)
class Fed:
    """A kingdom's armies fed, those left unfed, and the gold and food lost with the feed."""

    player: str
    fed: int
    unfed: tuple[str, ...]
    lost_gold: int
    lost_food: int
    deploy_order: tuple[str, ...] = ()  # the last kingdom fed: deploying begins in this order


@dataclass(frozen=True)
class Deployed:
    """An army placed for the new year."""

    army: str
    tile: str


@dataclass(frozen=True)
class Sprung:
    """Winter closed: the armies lost for want of room and the new player order."""

    year: int
    lost: tuple[str, ...]
    order: tuple[str, ...]


@dataclass(frozen=True)
class Quested:
    """A hero's quest at a wizard's tower: the roll, what came back and what was lost."""

    player: str
    hero: str
    army: str | None
    tower: str
    total: int
    result: str  # lost | hurt | nothing | artefact
    artefact: str | None = None
    points: str | None = None  # the artefact's points band
    unit_lost: bool = False
    army_lost: bool = False
    roll: int = 0  # the d6
    hero_points: int = 0  # the hero's cost on its list
    bonus: int = 0  # +1 for every full 100 of them
    name: str | None = field(default=None, metadata=UNSHOWN)  # the artefact's name, if given


@dataclass(frozen=True)
class Handed:
    """An artefact changing hands (or lost to the pool)."""

    artefact: str
    name: str | None
    giver: str
    receiver: str
    cause: tuple[str, str] | None = None  # ("battle" | "capital", tile): why it passes
    override: str | None = None  # the organiser's reason


Outcome = (
    Founded
    | Begun
    | Ordered
    | Resolved
    | Fought
    | Reformed
    | WinterBegun
    | Tithed
    | Built
    | Recruited
    | Fed
    | Deployed
    | Sprung
    | Quested
    | Handed
)
