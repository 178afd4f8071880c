"""What the site's pages show, prepared as plain values for the templates (no HTML here):
where the year stands, the kingdoms as `ranked` orders them, the latest battles, a page per
kingdom, and the log grouped by the month it was recorded in."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from cok.core.history import Told
from cok.render.paging import Page, plan
from cok.rulesets.mighty_kingdoms.rules import phase as phases
from cok.rulesets.mighty_kingdoms.rules.ranking import ranked
from cok.rulesets.mighty_kingdoms.rules.state import Army, Gathered, State
from cok.rulesets.mighty_kingdoms.rules.summer import waiting_words
from cok.rulesets.mighty_kingdoms.site.svg import kingdom_colours

if TYPE_CHECKING:
    from cok.core.campaign import Campaign

#: Summer months in a year (contract section 3): the sixth reform leads into winter.
MONTHS = 6
#: The latest battles on the home page.
LATEST = 10


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
    periods: dict[int, int] = field(default_factory=dict)  # period -> its events about this kingdom
    last: dict[int, int] = field(default_factory=dict)  # period -> the place of its last one in the log


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
    battles: int
    period_entries: dict[int, int] = field(default_factory=dict)  # period -> events in it
    headings: dict[int, str] = field(default_factory=dict)  # period -> `Year 1, month 3`
    last: dict[int, int] = field(default_factory=dict)  # period -> the place of its last event in the log
    latest: list[Told] = field(default_factory=list)  # the latest battles, newest first

    def label(self, page: Page, since: bool = False) -> str:
        """The months a page of the log holds: `Year 2, month 3 – The winter of year 2`.
        `since`: only where it starts (`from Year 2, month 3`), for links to the newest page,
        so that one new month leaves every older page as it is."""
        if not page.groups:
            return "nothing yet"
        first, last = self.headings[page.groups[0]], self.headings[page.groups[-1]]
        if since:
            return f"from {first}"
        return first if first == last else f"{first} – {last}"


#: Events on one page of the site's log (and of a kingdom's history): a 100,000-event
#: campaign's log in pages of whole months, each well under a megabyte.
LOG_PAGE_ENTRIES = 2000


def log_pages(period_entries: dict[int, int], base: str = "log.html", per_page: int = LOG_PAGE_ENTRIES) -> list[Page]:
    """Pages of whole periods (newest page first), counted from the first period."""
    return plan(sorted(period_entries.items()), base, per_page)


def site_data(campaign: Campaign) -> SiteData:
    """The pages' data: the state, and what the history holds (read once, a chunk at a
    time: the periods and how many events each has, in all and about each kingdom). The
    events themselves are read again page by page."""
    state: State = campaign.state
    colours = kingdom_colours(state)
    period_entries: dict[int, int] = {}
    headings: dict[int, str] = {}
    last: dict[int, int] = {}
    about: dict[str, dict[int, int]] = {}
    last_about: dict[str, dict[int, int]] = {}
    latest: deque[Told] = deque(maxlen=LATEST)
    for at, (period, heading, told) in enumerate(periods_of(campaign.told())):
        if told.type == "battle":
            latest.append(told)
        period_entries[period] = period_entries.get(period, 0) + 1
        headings[period] = heading
        last[period] = at
        for player in told.players:
            counts = about.setdefault(player, {})
            counts[period] = counts.get(period, 0) + 1
            last_about.setdefault(player, {})[period] = at
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
                periods=about.get(player, {}),
                last=last_about.get(player, {}),
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
        battles=state.battles,
        period_entries=period_entries,
        headings=headings,
        last=last,
        latest=list(reversed(latest)),
    )


def when(state: State) -> str:
    """`Year 1, month 3 of summer`, `The winter of year 2` or `Setup` (the map's title too)."""
    if not state.year:
        return "Setup"
    if state.winter:
        return f"The winter of year {state.year}"
    return f"Year {state.year}, month {state.month} of summer"


def periods_of(history: Iterable[Told]) -> Iterator[tuple[int, str, Told]]:
    """Each event with its period (numbered from 0) and the period's heading. The log is
    cut where the year moves on: `begin` and `spring` open a month 1, a `reform` closes its
    month (after the sixth comes winter), `winter` opens the winter if nothing did. A
    voided event moves nothing."""
    year, month, winter = 0, 0, False
    period, filled = 0, False

    def heading() -> str:
        if year == 0:
            return "Setup"
        return f"The winter of year {year}" if winter else f"Year {year}, month {month}"

    def close() -> None:
        nonlocal period, filled
        if filled:
            period, filled = period + 1, False

    for told in history:
        live = not told.voided
        if live and told.type in ("begin", "spring"):
            close()
            year, month, winter = year + 1, 1, False
        elif live and told.type == "winter" and not winter and year:
            close()
            winter = True
        yield period, heading(), told
        filled = True
        if live and told.type == "reform" and year and not winter:
            close()
            if month >= MONTHS:
                winter = True
            else:
                month += 1


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
