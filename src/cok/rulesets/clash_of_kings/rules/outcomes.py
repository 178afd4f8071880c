"""What an event did, decided by the rules before anything changes.

An outcome is a plain value: the state commits it, the CLI tells it in words,
the JSON output lists it. Deciding and committing are separate so that a refused
event leaves the state untouched and `--dry-run` can show a change it never makes.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Joined:
    player: str
    name: str
    faction: str
    week: int
    locations: tuple[str, ...]
    how: str  # "named castle" | "home castle" | "three territories"


@dataclass(frozen=True)
class WeekStarted:
    week: int
    limit: int
    limit_given: bool


@dataclass(frozen=True)
class Occupation:
    """What the winner did with the battle's location."""

    occupied: bool
    previous: str | None = None  # whose crest was removed (or kept, on a last territory)
    abandoned: str | None = None
    abandon_reason: str | None = None  # "castle cap" | "supply lines"
    unchanged: str | None = None  # why nothing changed: one of UNCHANGED


#: Why a battle changed nothing on the map.
UNCHANGED = ("draw", "brotherhood", "already-held", "last-territory", "declined")


@dataclass(frozen=True)
class Fought:
    week: int
    players: tuple[str, str]
    location: str
    attacker: str | None
    defender: str | None
    decided_by: str
    winner: str | None
    loser: str | None
    won_by: str  # "result" | "victory points" | "points remaining" | "attacker" | "draw"
    occupation: Occupation
    cp: dict[str, int] = field(default_factory=dict)  # territory CP gained (+) and lost (-)
    brotherhood: tuple[str, ...] = ()
    override: str | None = None
    vp: dict[str, int] | None = None
    remaining: dict[str, int] | None = None
    mode: str | None = None
    points: int | None = None


@dataclass(frozen=True)
class Painted:
    player: str
    week: int
    fully_painted: int
    banners: int
    commission: int
    commissioned: str | None
    units: int
    models: int

    @property
    def cp(self) -> int:
        return self.fully_painted + self.banners + self.commission


@dataclass(frozen=True)
class Adjusted:
    player: str
    cp: int
    reason: str
    week: int = 1


Outcome = Joined | WeekStarted | Fought | Painted | Adjusted
