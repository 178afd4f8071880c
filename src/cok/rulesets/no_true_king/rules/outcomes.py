"""What an event did, decided by the rules before anything changes (contract §4).

An outcome is a plain value: `commit` applies its `changes` to the state, the log tells its
`result` in words, the summary and `--json` list it. Deciding and committing are separate,
so a refused event, a dry run and a preview leave the state as it was.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from cok.rulesets.no_true_king.rules.overlay import Overlay

#: Footmen, knights, ships.
Counts = tuple[int, int, int]


@dataclass(frozen=True)
class Joined:
    player: str
    name: str
    symbol: str
    sealed: bool


@dataclass(frozen=True)
class Begun:
    seats: tuple[str, ...]
    first: str


@dataclass(frozen=True)
class CardPlayed:
    player: str
    card: str | None
    house: str  # the moving house
    area: str  # where it fights
    next: str | None  # who plays next; None: the active player may resolve


@dataclass(frozen=True)
class Placed:
    player: str
    house: str
    space: str


@dataclass(frozen=True)
class Mustered:
    house: str
    footmen: tuple[str, ...]  # an area per footman added
    ships: tuple[tuple[str, str], ...]  # (through, sea) per ship
    promoted: tuple[str, ...]
    points: int


@dataclass(frozen=True)
class Moved:
    house: str
    origin: str
    to: str
    units: Counts
    flag: bool  # a flag was left behind


@dataclass(frozen=True)
class Drew:
    player: str
    house: str


@dataclass(frozen=True)
class Sides:
    """What both sides of a combat bring, before anything is decided: what `cok ntk combat`
    shows (§4.4 Power)."""

    area: str
    attacker: str
    defender: str
    sea: bool
    attacking: Counts
    defending: Counts
    fort: int  # the defender's fort bonus after Brienne and Catelyn
    power: dict[str, int]
    cards: tuple[tuple[str, str], ...]  # (player, card) in play order


@dataclass(frozen=True)
class Fought:
    """A combat as decided: what the log tells."""

    sides: Sides
    winner: str
    loser: str
    retreat: str | None
    kills: dict[str, Counts]
    after: tuple[Any, ...] = field(default_factory=tuple)  # outcomes of the granted action
    removed: tuple[str, str, str] | None = None  # (house, space, player)
    discard: tuple[str, str, str] | None = None  # (by, player, house)
    none_left: bool = False  # the casualties took every figure that could have retreated


@dataclass(frozen=True)
class Resolved:
    player: str
    house: str
    space: str
    done: tuple[Any, ...]  # Mustered, Moved, Drew, or (Moved, Fought) per action
    up: str | None  # the space the agent moved up to; None: it returned


@dataclass(frozen=True)
class Exchanged:
    player: str
    swap: tuple[str, str]
    reveal: tuple[str, str] | None  # (position, house)


@dataclass(frozen=True)
class Passed:
    player: str
    placement: bool = False  # a placement passed at a deadline (a default): no agent placed


@dataclass(frozen=True)
class Unsealed:
    player: str
    card: tuple[str, ...]


@dataclass(frozen=True)
class RoundEnded:
    """What followed the event: a round's rankings, the next round, or the end."""

    round: int
    ranks: dict[str, int] | None  # the rankings worked out after the last agent resolved
    next_first: str | None  # the next round's first player
    over: bool


@dataclass(frozen=True)
class Outcome:
    """An event's result, what it led to, and what it changes in the state (`commit`)."""

    result: Any
    then: RoundEnded | None = None
    changes: Overlay | None = field(default=None, compare=False, repr=False)
