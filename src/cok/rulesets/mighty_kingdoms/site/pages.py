"""What the site's pages show, prepared as plain values for the templates (no HTML here):
where the year stands, the kingdoms as `ranked` orders them, the latest battles, a page per
kingdom, and the log grouped by the month it was recorded in."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from itertools import islice
from typing import TYPE_CHECKING, TypeVar

from cok.core.history import Told
from cok.render.paging import NewestPages, Page, plan
from cok.render.site import site_history
from cok.rulesets.mighty_kingdoms import queries
from cok.rulesets.mighty_kingdoms.rules.state import Army, Gathered, State
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
    periods: Mapping[int, int] = field(default_factory=dict)  # period -> its events about this kingdom
    last: Mapping[int, int] = field(default_factory=dict)  # period -> the place of its last one in the log
    older_winters: int = 0  # winters gathered that a served page leaves out (`SERVED_WINTERS`)


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
    period_entries: Mapping[int, int] = field(default_factory=dict)  # period -> events in it
    headings: Mapping[int, str] = field(default_factory=dict)  # period -> `Year 1, month 3`
    last: Mapping[int, int] = field(default_factory=dict)  # period -> the place of its last event in the log
    latest: list[Told] = field(default_factory=list)  # the latest battles, newest first
    #: The newest page of the log and of each kingdom's history, by file, filled.
    newest: dict[str, Page] = field(default_factory=dict)
    #: Every page of the log and of each kingdom's history, by the newest's file, as the
    #: fold cut them (`Newest.pages`): unfilled, the older ones shared.
    plans: dict[str, list[Page]] = field(default_factory=dict)

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
#: Events on one page of the log and of a kingdom's history as `cok serve` shows them: a
#: phone opens the newest page after every recording (live refresh), so it is kept to what
#: a small campaign's holds (issue #37).
SERVED_PAGE_ENTRIES = 100
#: Winters gathered that a kingdom's page shows as `cok serve` makes it: its newest, as a
#: small campaign holds (hundreds at 100,000 events); the page says how many older ones
#: `cok site`'s page lists (issue #37).
SERVED_WINTERS = 10


def log_pages(
    period_entries: Mapping[int, int], base: str = "log.html", per_page: int = LOG_PAGE_ENTRIES
) -> list[Page]:
    """Pages of whole periods (newest page first), counted from the first period."""
    return plan(sorted(period_entries.items()), base, per_page)


class SiteHistory(NewestPages):
    """What the pages show of the history, folded one event at a time (`cok.render.site.
    Fold`): the periods, how many events each has (in all and about each kingdom) and the
    place of its last, the latest battles, and the newest page of the log and of each
    kingdom's history, filled."""

    def __init__(self) -> None:
        super().__init__("kingdoms", LOG_PAGE_ENTRIES, SERVED_PAGE_ENTRIES)
        self.at = -1
        self.periods = Periods()
        self.period_entries: dict[int, int] = {}
        self.headings: dict[int, str] = {}
        self.last: dict[int, int] = {}
        self.about: dict[str, dict[int, int]] = {}
        self.last_about: dict[str, dict[int, int]] = {}
        self.latest: deque[Told] = deque(maxlen=LATEST)

    def add(self, told: Told) -> None:
        self.at += 1
        at = self.at
        period, heading = self.periods.add(told)
        if told.type == "battle":
            self.latest.append(told)
        self.period_entries[period] = self.period_entries.get(period, 0) + 1
        self.headings[period] = heading
        self.last[period] = at
        self.logged(period, told)
        for player in told.players:
            counts = self.about.setdefault(player, {})
            counts[period] = counts.get(period, 0) + 1
            self.last_about.setdefault(player, {})[period] = at
            self.logged_about(player, period, told)


def site_data(campaign: Campaign, per_page: int = LOG_PAGE_ENTRIES, winters: int | None = None) -> SiteData:
    """The pages' data: the state, and what the history holds (`SiteHistory`, folded from
    the events this process folded before: a server after a recording folds the new events
    only), its newest pages cut at `per_page`. The events of older pages are read again
    page by page. `winters`: each kingdom's newest so many winters gathered only (`cok
    serve`'s pages), else every one."""
    state: State = campaign.state
    colours = kingdom_colours(state)
    history = site_history(campaign, SiteHistory)
    # as they stand now: the fold goes on with the next version of the campaign
    period_entries, headings, last = Grown(history.period_entries), Grown(history.headings), Grown(history.last)
    about = {player: Grown(periods) for player, periods in history.about.items()}
    last_about = {player: Grown(periods) for player, periods in history.last_about.items()}
    latest = list(history.latest)
    log, kept = history.newest(per_page)
    newest = {log.base: log.page()} | {n.base: n.page() for n in kept.values()}
    plans = {log.base: log.pages()} | {n.base: n.pages() for n in kept.values()}
    pages = []
    status = queries.status(campaign)  # the season and phase as `cok mk status` says them
    for row in campaign.ruleset.standings(campaign).document["kingdoms"]:  # as `cok standings` ranks them
        player = row["id"]
        kingdom = state.kingdoms[player]
        pages.append(
            KingdomPage(
                id=player,
                name=kingdom.name,
                race=kingdom.race,
                colour=colours[player],
                rank=row["rank"],
                capital=state.map.label(kingdom.capital) if kingdom.capital and state.has_capital(player) else None,
                tiles=row["tiles"],
                settlements=row["settlements"],
                villages=state.count(player, "village"),
                cities=state.count(player, "city"),
                fortresses=state.count(player, "fortress"),
                gold=kingdom.gold,
                food=kingdom.food,
                armies=[_army_row(state, a) for a in state.armies_of(player)],
                gathered=_winters(state.gathered.get(player, []), winters),
                artefacts=[
                    ArtefactRow(a.id, a.name or a.id, a.points, _name(state, a.gained_by), a.year)
                    for a in sorted(state.artefacts.values(), key=lambda a: _number(a.id))
                    if a.holder == player
                ],
                periods=about.get(player, {}),
                last=last_about.get(player, {}),
                older_winters=max(0, len(state.gathered.get(player, [])) - winters) if winters is not None else 0,
            )
        )
    return SiteData(
        name=campaign.name,
        state=state,
        year=state.year or None,
        season=status["season"],
        month=state.month or None,
        phase=status["phase"],
        order=[_name(state, p) for p in state.order],
        waiting=queries.phase(campaign)["waiting"],
        kingdoms=pages,
        battles=state.battles,
        period_entries=period_entries,
        headings=headings,
        last=last,
        latest=list(reversed(latest)),
        newest=newest,
        plans=plans,
    )


V = TypeVar("V")


class Grown(Mapping[int, V]):
    """A dict of the fold's by period, as it stands when taken. The fold adds periods in
    order and changes only the newest one's value (the month being recorded), so this keeps
    that value and reads the older ones from the fold's dict: a served version of the site no
    longer copies thousands of months (a 100,000-event campaign's 4,590, for the log and each
    kingdom) after every recording (issue #37)."""

    def __init__(self, live: dict[int, V]) -> None:
        self._live = live
        self._len = len(live)
        self._newest: int | None = next(reversed(live)) if live else None
        self._value: V | None = live[self._newest] if self._newest is not None else None

    def __getitem__(self, period: int) -> V:
        newest = self._newest
        if newest is None or not isinstance(period, int) or period > newest:
            raise KeyError(period)
        if period == newest:
            return self._value  # type: ignore[return-value]
        return self._live[period]

    def __len__(self) -> int:
        return self._len

    def __iter__(self) -> Iterator[int]:
        return iter(list(islice(self._live, self._len)))  # the periods as taken, copied at once


class Periods:
    """The period (numbered from 0) and heading of each event, given in the log's order.
    The log is cut where the year moves on: `begin` and `spring` open a month 1, a `reform`
    closes its month (after the sixth comes winter), `winter` opens the winter if nothing
    did. A voided event moves nothing."""

    def __init__(self) -> None:
        self.year, self.month, self.winter = 0, 0, False
        self.period, self.filled = 0, False

    def heading(self) -> str:
        if self.year == 0:
            return "Setup"
        return f"The winter of year {self.year}" if self.winter else f"Year {self.year}, month {self.month}"

    def _close(self) -> None:
        if self.filled:
            self.period, self.filled = self.period + 1, False

    def add(self, told: Told) -> tuple[int, str]:
        live = not told.voided
        if live and told.type in ("begin", "spring"):
            self._close()
            self.year, self.month, self.winter = self.year + 1, 1, False
        elif live and told.type == "winter" and not self.winter and self.year:
            self._close()
            self.winter = True
        found = (self.period, self.heading())
        self.filled = True
        if live and told.type == "reform" and self.year and not self.winter:
            self._close()
            if self.month >= MONTHS:
                self.winter = True
            else:
                self.month += 1
        return found


def periods_of(history: Iterable[Told]) -> Iterator[tuple[int, str, Told]]:
    """Each event with its period and the period's heading (`Periods`)."""
    periods = Periods()
    for told in history:
        period, heading = periods.add(told)
        yield period, heading, told


def _winters(gathered: list[Gathered], newest: int | None) -> list[Gathered]:
    """A kingdom's winters gathered, oldest first; `newest`: only the last so many. The
    rules append a winter as it begins (`winter.commit_winter`), so the list is in the order of the
    years already and a served page takes its tail without sorting the whole of it."""
    if newest is None:
        return sorted(gathered, key=lambda g: g.year)
    return sorted(gathered[-newest:], key=lambda g: g.year) if newest > 0 else []


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
