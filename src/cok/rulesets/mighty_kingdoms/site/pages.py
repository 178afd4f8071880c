"""What the site's pages show, prepared as plain values for the templates (no HTML here):
where the year stands, the kingdoms as `ranked` orders them, a page per kingdom, and the
log grouped by the month it was recorded in."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from cok.core.history import Told
from cok.rulesets.mighty_kingdoms.reports import ranked
from cok.rulesets.mighty_kingdoms.rules import phase as phases
from cok.rulesets.mighty_kingdoms.rules.state import Army, Gathered, State
from cok.rulesets.mighty_kingdoms.rules.summer import waiting_words
from cok.rulesets.mighty_kingdoms.site.svg import kingdom_colours

if TYPE_CHECKING:
    from cok.core.campaign import Campaign

#: Summer months in a year (contract section 3): the sixth reform leads into winter.
MONTHS = 6


@dataclass(frozen=True)
class ArmyRow:
    id: str
    tile: str
    points: int
    state: str
    order: str


@dataclass(frozen=True)
class ArtefactRow:
    id: str
    name: str
    points: str
    gained_by: str
    year: int


@dataclass
class KingdomPage:
    id: str
    name: str
    race: str
    colour: str
    rank: int
    capital: str | None  # its own capital's label, while it holds it
    tiles: int
    settlements: int
    villages: int
    cities: int
    fortresses: int
    gold: int
    food: int
    armies: list[ArmyRow]
    gathered: list[Gathered]
    artefacts: list[ArtefactRow]
    history: list[Told] = field(default_factory=list)


@dataclass(frozen=True)
class Period:
    """A stretch of the log between two boundaries: setup, a summer month, a winter."""

    heading: str
    entries: list[Told]


@dataclass
class SiteData:
    name: str
    state: State
    year: int | None
    season: str | None
    month: int | None
    phase: str
    order: list[str]  # kingdom names, in player order
    waiting: str
    kingdoms: list[KingdomPage]  # ranked
    log: list[Period]
    battles: int


def site_data(campaign: Campaign) -> SiteData:
    state: State = campaign.state
    history = campaign.history()
    colours = kingdom_colours(state)
    pages = []
    for rank, row in ranked(state):
        player = row["id"]
        kingdom = state.kingdoms[player]
        pages.append(
            KingdomPage(
                id=player,
                name=kingdom.name,
                race=kingdom.race,
                colour=colours[player],
                rank=rank,
                capital=state.map.label(kingdom.capital) if kingdom.capital and state.has_capital(player) else None,
                tiles=row["tiles"],
                settlements=row["settlements"],
                villages=state.count(player, "village"),
                cities=state.count(player, "city"),
                fortresses=state.count(player, "fortress"),
                gold=kingdom.gold,
                food=kingdom.food,
                armies=[_army_row(state, a) for a in state.armies_of(player)],
                gathered=sorted(state.gathered.get(player, []), key=lambda g: g.year),
                artefacts=[
                    ArtefactRow(a.id, a.name or a.id, a.points, _name(state, a.gained_by), a.year)
                    for a in sorted(state.artefacts.values(), key=lambda a: _number(a.id))
                    if a.holder == player
                ],
                history=[t for t in history if player in t.players],
            )
        )
    return SiteData(
        name=campaign.name,
        state=state,
        year=state.year or None,
        season=phases.season(state),
        month=state.month or None,
        phase=phases.phase(state),
        order=[_name(state, p) for p in state.order],
        waiting=waiting_words(state),
        kingdoms=pages,
        log=periods(history),
        battles=state.battles,
    )


def when(state: State) -> str:
    """`Year 1, month 3 of summer`, `The winter of year 2` or `Setup` (the map's title too)."""
    if not state.year:
        return "Setup"
    if state.winter:
        return f"The winter of year {state.year}"
    return f"Year {state.year}, month {state.month} of summer"


def periods(history: list[Told]) -> list[Period]:
    """The log cut where the year moves on: `begin` and `spring` open a month 1, a `reform`
    closes its month (after the sixth comes winter), `winter` opens the winter if nothing
    did. A voided event moves nothing."""
    found: list[Period] = []
    year, month, winter = 0, 0, False
    current: list[Told] = []

    def heading() -> str:
        if year == 0:
            return "Setup"
        return f"The winter of year {year}" if winter else f"Year {year}, month {month}"

    def close() -> None:
        nonlocal current
        if current:
            found.append(Period(heading(), current))
        current = []

    for told in history:
        live = not told.voided
        if live and told.type in ("begin", "spring"):
            close()
            year, month, winter = year + 1, 1, False
        elif live and told.type == "winter" and not winter and year:
            close()
            winter = True
        current.append(told)
        if live and told.type == "reform" and year and not winter:
            close()
            if month >= MONTHS:
                winter = True
            else:
                month += 1
    close()
    return found


def _army_row(state: State, army: Army) -> ArmyRow:
    words = "upright" if army.upright else "on its side"
    if not army.deployed:
        words += ", not deployed"
    if army.defending:
        words += ", defending"
    order = army.order or "—"
    if army.order == "move" and army.to:
        order = f"move → {state.map.label(army.to)}"
    if army.order and army.resolved:
        order += " (resolved)"
    return ArmyRow(army.id, state.map.label(army.tile), army.points, words, order)


def _name(state: State, player: str) -> str:
    found = state.kingdoms.get(player)
    return found.name if found else player


def _number(artefact: str) -> tuple[int, str]:
    tail = artefact.rsplit("-", 1)[-1]
    return (int(tail), artefact) if tail.isdigit() else (0, artefact)
