"""The events of a Clash of Kings log: one frozen pydantic model per event type (the core
adds `void`).

Names of players are ids as written; locations, factions and game modes are made the map's
and the campaign's own spelling by `rules/spelling.py` before the rules see an event (so a
hand-written `vultures roost` still finds Vulture's Roost).
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, model_validator

from cok.core.events import EventBase, PlayerId, Text
from cok.rulesets.skeleton import by_type


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


EVENT_TYPES = by_type(Join, Week, Battle, Painting, Adjust)


def involved(event: EventBase) -> frozenset[str]:
    """The players an event is about (for `cok log --player` and the players' pages)."""
    if isinstance(event, Battle):
        return frozenset(event.players)
    if isinstance(event, Painting):
        return frozenset({event.player} | ({event.commissioned} if event.commissioned else set()))
    if isinstance(event, (Join, Adjust)):
        return frozenset({event.player})
    return frozenset()
