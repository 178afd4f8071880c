"""The shape of each Clash of Kings read (`core.shapes`): `cok standings`, `where`, `locations`,
`modes` and `week --json`, and the pages' `players` and `factions`, as `GET /api/<name>`
publishes them. The documents are made in `documents.py` and `queries.py`; these say what
they hold (docs/clash-of-kings.md, "`--json` shapes")."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field, RootModel

from cok.core.shapes import Document, Waited

Kind = Literal["castle", "fort", "village", "region"]


class StandingRow(Document):
    """A player in the standings, in rank order (ties by id)."""

    id: str
    name: str
    faction: str
    rank: int = Field(description="1 for the leader; tied players share a rank.")
    cp: int = Field(description="Campaign points: territory_cp + bonus_cp.")
    territory_cp: int = Field(description="The value of the locations the player holds.")
    bonus_cp: int = Field(description="Painting, banners, commissions and the organisers' adjustments.")
    territories: list[str] = Field(description="The locations the player holds, sorted by name.")
    castles: int = Field(description="How many of `territories` are castles.")
    forts: int = Field(description="How many are forts.")
    villages: int = Field(description="How many are villages.")
    battles: int = Field(description="Battles fought (a voided one is not counted).")
    wins: int
    losses: int
    supply_lines: bool = Field(description="Whether the player is under supply lines now.")


class StandingsDocument(Document):
    """`cok standings --json`."""

    campaign: str
    week: int
    points_limit: int
    players: list[StandingRow]


class Location(Document):
    """A location as `where` lists it."""

    name: str
    kind: Kind
    value: int = Field(description="Its campaign points to whoever holds it (a region: 0).")
    occupant: str | None = Field(description="The player holding it (null: nobody).")


class Place(Location):
    """A location as `cok locations` lists it: also whose home it is, and its bonus."""

    home: list[str] = Field(description="The factions whose home castle it is.")
    bonus: str | None = Field(description="What holding it gives besides its value (null: nothing).")


class Due(Document):
    """What the ledger waits for, with its due time (docs/deadlines.md)."""

    due: list[Waited] = Field(description="Soonest first; `due` null where no deadline is set.")
    absent: list[str] = Field(description="The players marked absent for missing deadlines in a row.")


class WhereOption(Document):
    """Who chooses the battle's location, and the legal locations (one roll-off's outcome)."""

    players: list[str] = Field(min_length=2, max_length=2)
    attacker: str | None
    defender: str | None
    decided_by: Literal["fewer-territories", "given", "brotherhood", "roll-needed"]
    step: str | None = Field(description='The step of "Where the battle may be fought" that gave the locations.')
    locations: list[Location] | None = Field(description="Sorted by name; null until the roll-off is made.")


class WhereDocument(WhereOption, Due):
    """`cok where P1 P2 --json`: with `roll-needed`, `options` holds one outcome per attacker."""

    options: list[WhereOption] | None = Field(None, description="Only with `roll-needed`: each possible attacker's.")


class LocationsDocument(Document):
    """`cok locations --json`: the map's locations (`free`: held by nobody; `player`: theirs)."""

    locations: list[Place]


class Mode(Document):
    """A battle game mode, in full (`cok modes MODE --json`)."""

    id: str
    name: str
    summary: str
    deployment: str
    setup: list[str]
    rules: list[str]
    scoring: list[str]


class Modes(Document):
    """`cok modes --json`: the modes the campaign allows, and its house modes by name."""

    modes: list[Mode]
    house_modes: list[str] = Field(description="Modes campaign.yaml allows that cok does not describe.")


class ModesDocument(RootModel[Modes | Mode]):
    """Every allowed mode (no `mode` given), or the one mode asked for."""


class WeekDocument(Due):
    """`cok week --json`: the week, its points limit, each week's limit so far, and what is due."""

    campaign: str
    week: int
    points_limit: int
    limits: list[int] = Field(description="Each week's points limit, week 1 first.")


class Player(Document):
    id: str
    name: str
    faction: str


class PlayersDocument(Document):
    """The players in the order they joined: the choices of the pages' forms."""

    players: list[Player]


class FactionsDocument(Document):
    """The factions a new player may join as."""

    factions: list[str]


SHAPES: dict[str, type[BaseModel]] = {
    "standings": StandingsDocument,
    "where": WhereDocument,
    "locations": LocationsDocument,
    "modes": ModesDocument,
    "week": WeekDocument,
    "players": PlayersDocument,
    "factions": FactionsDocument,
}
