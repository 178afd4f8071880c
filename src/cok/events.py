"""The events of a Clash of Kings log: one frozen pydantic model per event type.

Names of players are ids as written; location names are resolved against the map
by the rules (so a hand-written `vultures roost` still finds Vulture's Roost).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, model_validator

PlayerId = Annotated[str, StringConstraints(pattern=r"^[a-z0-9_-]+$", min_length=1, max_length=64)]
Text = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1)]


class EventBase(BaseModel):
    """Fields every event may carry; the ledger writes them on append."""

    model_config = ConfigDict(extra="forbid", frozen=True, coerce_numbers_to_str=True)

    id: Text | None = Field(default=None, description="Unique id (random, so merges stay unique).")
    at: dt.datetime | None = Field(default=None, description="When it was recorded (ISO-8601).")
    by: str | None = Field(default=None, description="Who recorded it.")
    note: str | None = Field(default=None, description="Free text.")


class Join(EventBase):
    """A player joins, with a starting castle or (when every castle is taken) three territories."""

    type: Literal["join"] = "join"
    player: PlayerId
    name: Text | None = None
    faction: Text
    castle: Text | None = None
    territories: list[Text] | None = None

    @model_validator(mode="after")
    def _castle_or_territories(self) -> Join:
        if self.castle is not None and self.territories is not None:
            raise ValueError("give either `castle` or `territories`, not both")
        return self


class Week(EventBase):
    """The organiser starts the next week."""

    type: Literal["week"] = "week"
    limit: Annotated[int, Field(ge=1)] | None = None


class Battle(EventBase):
    """A battle between two players, and what it did to the map."""

    type: Literal["battle"] = "battle"
    players: Annotated[list[PlayerId], Field(min_length=2, max_length=2)]
    location: Text
    week: Annotated[int, Field(ge=1)] | None = None
    attacker: PlayerId | None = None
    winner: PlayerId | None = None
    vp: dict[PlayerId, Annotated[int, Field(ge=0)]] | None = None
    remaining: dict[PlayerId, Annotated[int, Field(ge=0)]] | None = None
    mode: Text | None = None
    points: Annotated[int, Field(ge=1)] | None = None
    brotherhood: list[PlayerId] = Field(default_factory=list)
    abandon: Text | None = None
    occupy: bool = True
    override: Text | None = None


class Painting(EventBase):
    """A player's painting progress for a week (the weekly painting bonus)."""

    type: Literal["painting"] = "painting"
    player: PlayerId
    week: Annotated[int, Field(ge=1)] | None = None
    fully_painted: bool = False
    units: Annotated[int, Field(ge=0)] = 0
    models: Annotated[int, Field(ge=0)] = 0
    commissioned: PlayerId | None = None


class Adjust(EventBase):
    """An organiser's correction to a player's bonus CP."""

    type: Literal["adjust"] = "adjust"
    player: PlayerId
    cp: int
    reason: Text


class Void(EventBase):
    """Cancels an earlier event as if it had never been recorded."""

    type: Literal["void"] = "void"
    target: Text
    reason: Text


Event = Join | Week | Battle | Painting | Adjust | Void

EVENT_TYPES: dict[str, type[EventBase]] = {
    "join": Join,
    "week": Week,
    "battle": Battle,
    "painting": Painting,
    "adjust": Adjust,
    "void": Void,
}


def involved(event: EventBase) -> frozenset[str]:
    """The players an event is about (for `cok log --player` and the players' pages)."""
    if isinstance(event, Battle):
        return frozenset(event.players)
    if isinstance(event, Painting):
        return frozenset({event.player} | ({event.commissioned} if event.commissioned else set()))
    if isinstance(event, (Join, Adjust)):
        return frozenset({event.player})
    return frozenset()


#: Upgrades of older event shapes, applied in order as each event is read. Every shape
#: we ever shipped stays readable: when an event's shape changes, add a small function
#: here that turns the old shape into the new one — the file itself is never rewritten.
#: (None yet: every shape shipped so far is the current one.)
UPCASTS: list[Callable[[dict[str, Any]], dict[str, Any]]] = []


def upcast(data: dict[str, Any]) -> dict[str, Any]:
    """The event's fields in today's shape."""
    for step in UPCASTS:
        data = step(data)
    return data
