"""Everything the site shows, prepared as plain values for the templates (no HTML here)."""

from __future__ import annotations

import datetime as dt
import re
from collections import deque
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from cok.core.campaign import Campaign
from cok.core.history import Told
from cok.render import palette
from cok.render.paging import NewestPages, Page, plan
from cok.render.palette import initials, ink
from cok.render.site import site_history
from cok.rulesets.clash_of_kings.rules.scoring import standings
from cok.rulesets.clash_of_kings.rules.state import State

#: The latest battles on the home page.
LATEST = 10

#: The colour each faction asks for first, from the shared palette (made for telling
#: categories apart, colour-blind readers too); a player whose faction's colour an earlier
#: player took has the first free one.
FACTION_COLOURS = {
    "stark": palette.SKY,
    "lannister": palette.VERMILLION,
    "baratheon": palette.YELLOW,
    "greyjoy": palette.BLUE,
    "martell": palette.ORANGE,
    "targaryen": palette.PURPLE,
    "brotherhood": palette.GREEN,
    "free-folk": palette.GREEN,
    "bolton": palette.PURPLE,
}


@dataclass
class PlayerPage:
    id: str
    name: str
    faction: str
    colour: str
    rank: int
    cp: int
    territory_cp: int
    bonus_cp: int
    holdings: list[tuple[str, str, int, str]]  # name, kind, CP, the castle bonus ("" if none)
    battles: int
    wins: int
    losses: int
    supply_lines: bool
    battle_weeks: dict[int, int] = field(default_factory=dict)  # week -> their battles in it
    last_battles: dict[int, int] = field(default_factory=dict)  # week -> the place of their last battle in it
    weekly: Mapping[int, int] = field(default_factory=dict)  # CP at each finished week's end (the state's, read only)
    now: tuple[int, int] | None = None  # this week and the CP so far

    @property
    def cp_by_week(self) -> list[tuple[int, int]]:
        """CP at the end of each week, this one so far: made only for the page that shows
        it (a long campaign's 1,700 weeks for each of twelve players, on every version)."""
        found = dict(self.weekly)
        if self.now is not None:
            found[self.now[0]] = self.now[1]
        return sorted(found.items())


@dataclass
class SiteData:
    name: str
    week: int
    points_limit: int
    built: str
    state: State
    players: list[PlayerPage]
    colours: dict[str, str]
    latest: list[Entry]  # the latest battles, newest first
    week_entries: dict[int, int]  # week -> entries of the log in it
    last_entries: dict[int, int]  # week -> the place in the log of its last entry
    void_reasons: dict[str, str]  # a voided event's reference -> the void's reason
    #: The newest page of the log and of each player's battles, by file, filled with the
    #: history's entries (`Told`, made `Entry` as shown).
    newest: dict[str, Page] = field(default_factory=dict)
    #: Every page of the log and of each player's battles, by the newest's file, as the
    #: fold cut them (`Newest.pages`): unfilled, the older ones shared.
    plans: dict[str, list[Page]] = field(default_factory=dict)

    def entry(self, told: Told) -> Entry:
        return Entry(told, self.void_reasons.get(told.ref or "", "") if told.voided else "")


#: Entries on one page of the site's log (and of a player's battles): a 100,000-event
#: campaign's log in pages of whole weeks, each well under a megabyte, instead of one page
#: a browser cannot hold.
LOG_PAGE_ENTRIES = 2000
#: Entries on one page of the log and of a player's battles as `cok serve` shows them: a
#: phone opens the newest page after every recording (live refresh), and one of 2,000
#: entries cost 14 ms to make at 100,000 events against a handful on a small campaign.
SERVED_PAGE_ENTRIES = 100
#: At most this many weeks drawn on a player's CP chart as `cok serve` shows it (every
#: week from the first, evenly, and the last): 1,700 weeks were most of a player's page.
SERVED_CHART_WEEKS = 60


def page_label(page: Page, since: bool = False) -> str:
    """`week 9`, `weeks 7–8`: the weeks a page of the log holds. `since`: only where it
    starts (`from week 7`), for links to the newest page, so that one new week leaves
    every older page as it is."""
    if not page.groups:
        return "no weeks yet"
    oldest, newest = page.groups[0], page.groups[-1]
    if since:
        return f"from week {oldest}"
    return f"week {newest}" if newest == oldest else f"weeks {oldest}–{newest}"


def log_pages(week_entries: dict[int, int], per_page: int = LOG_PAGE_ENTRIES, base: str = "log.html") -> list[Page]:
    """The log's pages (newest first), whole weeks, at most `per_page` entries each (a week
    longer than that is a page of its own), counted from the oldest week."""
    return plan(sorted(week_entries.items()), base, per_page)


def weeks_of(history: Iterable[Told]) -> Iterator[tuple[int, Told]]:
    """Each event with its week: the week its sentence begins with, else (a void) the week
    of the one before it in the log."""
    week = 1
    for told in history:
        week = week_of(told.text) or week
        yield week, told


def week_of(text: str) -> int | None:
    """The week a sentence of the log begins with (`week 3 — …`, `week 4 begins …`)."""
    match = _WEEK.match(text)
    return int(match[1]) if match else None


_WEEK = re.compile(r"week (\d+)\b")


def colours(state: State) -> dict[str, str]:
    """Each player's colour: their faction's, unless an earlier player took it."""
    wanted = {pid: FACTION_COLOURS[p.faction] for pid, p in state.players.items() if p.faction in FACTION_COLOURS}
    return palette.assign(state.players, wanted)


class SiteHistory(NewestPages):
    """What the pages show of the history, folded one entry at a time (`cok.render.site.
    Fold`): how many entries each week has and the place of its last, each player's battles
    by week, the latest battles, why events were voided, and the newest page of the log and
    of each player's battles, filled."""

    def __init__(self) -> None:
        super().__init__("players", LOG_PAGE_ENTRIES, SERVED_PAGE_ENTRIES)
        self.at = -1
        self.week = 1
        self.week_entries: dict[int, int] = {}
        self.last_entries: dict[int, int] = {}
        self.battle_weeks: dict[str, dict[int, int]] = {}
        self.last_battles: dict[str, dict[int, int]] = {}
        self.reasons: dict[str, str] = {}
        self.latest: deque[Told] = deque(maxlen=LATEST)

    def add(self, t: Told) -> None:
        self.at += 1
        at, week = self.at, week_of(t.text) or self.week
        self.week = week
        self.week_entries[week] = self.week_entries.get(week, 0) + 1
        self.last_entries[week] = at
        self.logged(week, t)
        if t.type == "void" and t.text:
            self.reasons[str(t.event.get("target"))] = str(t.event.get("reason", ""))
        elif t.type == "battle":
            self.latest.append(t)
            for pid in t.players:
                counts = self.battle_weeks.setdefault(pid, {})
                counts[week] = counts.get(week, 0) + 1
                self.last_battles.setdefault(pid, {})[week] = at
                self.logged_about(pid, week, t)


def site_data(campaign: Campaign, per_page: int = LOG_PAGE_ENTRIES) -> SiteData:
    """The pages' data: the state, every player's CP at the end of each week, and what the
    history holds (`SiteHistory`, folded from the entries this process folded before: a
    server after a recording folds the new entries only), its newest pages cut at
    `per_page`. The entries of older pages are read again page by page."""
    state: State = campaign.state
    history = site_history(campaign, SiteHistory)
    # copies: the fold goes on with the next version of the campaign
    week_entries, last_entries = dict(history.week_entries), dict(history.last_entries)
    battle_weeks = {pid: dict(weeks) for pid, weeks in history.battle_weeks.items()}
    last_battles = {pid: dict(weeks) for pid, weeks in history.last_battles.items()}
    reasons, latest = dict(history.reasons), list(history.latest)
    hues = colours(state)
    pages = []
    for s in standings(state):
        pid = s.player.id
        pages.append(
            PlayerPage(
                id=pid,
                name=s.player.name,
                faction=s.player.faction,
                colour=hues[pid],
                rank=s.rank,
                cp=s.cp,
                territory_cp=s.territory_cp,
                bonus_cp=s.bonus_cp,
                holdings=sorted(
                    (
                        (loc, state.geo.kind(loc), state.geo.value(loc), dict(s.castle_bonuses).get(loc, ""))
                        for loc in s.territories
                    ),
                    key=lambda h: (-h[2], h[0]),
                ),
                battles=s.battles,
                wins=s.wins,
                losses=s.losses,
                supply_lines=s.supply_lines,
                battle_weeks=battle_weeks.get(pid, {}),
                last_battles=last_battles.get(pid, {}),
                weekly=state.cp_by_week.get(pid, {}),
                now=(state.week, state.total_cp(pid)),
            )
        )
    built = dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC")
    site = SiteData(
        campaign.name, state.week, state.limit, built, state, pages, hues, [], week_entries, last_entries, reasons
    )
    log, battles = history.newest(per_page)
    site.newest = {log.base: log.page()} | {n.base: n.page() for n in battles.values()}
    site.plans = {log.base: log.pages()} | {n.base: n.pages() for n in battles.values()}
    site.latest = [site.entry(t) for t in reversed(latest)]
    return site


@dataclass(frozen=True)
class Entry:
    """One event of the history as the pages show it."""

    told: Told
    void_reason: str = ""  # why it was voided (the void's reason), when it was

    @property
    def text(self) -> str:
        return self.told.text

    @property
    def voided(self) -> bool:
        return self.told.voided

    @property
    def players(self) -> tuple[str, ...]:
        return self.told.players

    @property
    def battle(self) -> bool:
        return self.told.type == "battle"


# --- pictures -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Spot:
    name: str
    kind: str
    x: float
    y: float
    fill: str
    occupant: str | None
    value: int
    label_x: float = 0.0  # where its name is written (the text's anchor point, its baseline)
    label_y: float = 0.0
    anchor: str = "start"  # SVG text-anchor: start, middle or end
    mark: str = ""  # the holder's initials, written on a held castle or fort
    ink: str = "#1d1d1d"  # the colour the mark is written in, to read on the fill


#: A name's size on the map, and how wide a character is at most, on average, in Georgia
#: (a little more than its real 0.5 em: boxes estimated this way overlap only if real ones might).
LABEL_SIZE = 13
CHAR_WIDTH = 0.6 * LABEL_SIZE
MARKER = 10  # half the side of the box a location's marker covers

Box = tuple[float, float, float, float]  # left, top, right, bottom


def label_box(x: float, y: float, anchor: str, text: str, size: float = LABEL_SIZE) -> Box:
    """The box a label written at (x, y) with this anchor covers (y is its baseline)."""
    width = len(text) * size * 0.6
    left = x - (width if anchor == "end" else width / 2 if anchor == "middle" else 0)
    return (left, y - size * 0.8, left + width, y + size * 0.25)


def _overlap(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _crosses(box: Box, segment: tuple[float, float, float, float]) -> bool:
    """Whether a route's line passes through the box (sampled: routes are short)."""
    x1, y1, x2, y2 = segment
    steps = 24
    for i in range(steps + 1):
        t = i / steps
        x, y = x1 + (x2 - x1) * t, y1 + (y2 - y1) * t
        if box[0] <= x <= box[2] and box[1] <= y <= box[3]:
            return True
    return False


def place_labels(spots: list[Spot], routes: list[tuple[float, float, float, float]]) -> list[Spot]:
    """Each location's name where it overlaps no other name and no marker, crossing as few
    routes as it can: the first free place of eight around its marker (right, left, above,
    below, then the corners), greedily, the most crowded locations first."""
    import dataclasses

    key = (tuple((s.name, s.kind, s.x, s.y) for s in spots), tuple(routes))
    known = _PLACED.get(key)  # the places depend on the map alone: made once per map, not per page
    if known is not None:
        return [
            dataclasses.replace(s, label_x=x, label_y=y, anchor=a) for s, (x, y, a) in zip(spots, known, strict=True)
        ]
    markers = {s.name: (s.x - MARKER, s.y - MARKER, s.x + MARKER, s.y + MARKER) for s in spots}
    offsets = [
        (13, 4.5, "start"),
        (-13, 4.5, "end"),
        (0, -14, "middle"),
        (0, 24, "middle"),
        (10, -10, "start"),
        (-10, -10, "end"),
        (10, 19, "start"),
        (-10, 19, "end"),
    ]

    def crowd(spot: Spot) -> int:
        return sum(1 for o in spots if abs(o.x - spot.x) < 120 and abs(o.y - spot.y) < 40)

    placed: dict[str, Spot] = {}
    taken: list[Box] = []
    for spot in sorted(spots, key=lambda s: (-crowd(s), s.name)):
        if spot.kind == "region":  # a region's name is written inside its ellipse
            box = label_box(spot.x, spot.y + 4, "middle", spot.name)
            placed[spot.name] = dataclasses.replace(spot, label_x=spot.x, label_y=spot.y + 4, anchor="middle")
            taken.append(box)
            continue
        best: tuple[float, float, float, str, Box] | None = None
        for rank, (dx, dy, anchor) in enumerate(offsets):
            x, y = spot.x + dx, spot.y + dy
            box = label_box(x, y, anchor, spot.name)
            cost = 1000 * sum(_overlap(box, t) for t in taken)
            cost += 1000 * sum(_overlap(box, m) for n, m in markers.items() if n != spot.name)
            cost += 5 * sum(_crosses(box, r) for r in routes) + rank
            if best is None or cost < best[0]:
                best = (cost, x, y, anchor, box)
        assert best is not None
        _, x, y, anchor, box = best
        taken.append(box)
        placed[spot.name] = dataclasses.replace(spot, label_x=x, label_y=y, anchor=anchor)
    done = [placed[s.name] for s in spots]
    if len(_PLACED) > 8:
        _PLACED.clear()
    _PLACED[key] = [(s.label_x, s.label_y, s.anchor) for s in done]
    return done


#: Label places already worked out, by the map's spots and routes (a server draws the same map
#: after every recording; only its colours change).
_PLACED: dict[Any, list[tuple[float, float, str]]] = {}


@dataclass(frozen=True)
class MapPicture:
    x: float
    y: float
    width: float
    height: float
    spots: list[Spot]
    land: list[tuple[float, float, float, float]]
    sea: list[tuple[float, float, float, float]]
    legend: list[tuple[str, str, str, str]]  # (player name, colour, their mark, its ink)
    title: str
    #: What a phone's frame opens on (left, top, width, height from the picture's corner):
    #: the held locations, or the whole map while nothing is held.
    focus: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0)


def map_picture(state: State, palette: dict[str, str], title: str) -> MapPicture:
    """Every location at its `at` position, filled with its occupant's colour."""
    geo = state.geo
    placed = {n: loc.at for n, loc in geo.locations.items() if loc.at is not None}
    marks = initials({pid: p.name for pid, p in state.players.items()})
    spots = []
    for name, at in placed.items():
        occupant = state.holder.get(name)
        fill = palette.get(occupant or "", "#ffffff")
        spots.append(
            Spot(
                name,
                geo.kind(name),
                at[0],
                at[1],
                fill,
                state.players[occupant].name if occupant else None,
                geo.value(name),
                mark=marks.get(occupant or "", ""),
                ink=ink(fill),
            )
        )
    land: list[tuple[float, float, float, float]] = []
    sea: list[tuple[float, float, float, float]] = []
    for route in geo.routes:
        if route.a in placed and route.b in placed:
            (x1, y1), (x2, y2) = placed[route.a], placed[route.b]
            (land if route.kind == "land" else sea).append((x1, y1, x2, y2))
    spots = place_labels(spots, land + sea)
    boxes = [label_box(s.label_x, s.label_y, s.anchor, s.name) for s in spots]
    xs = [at[0] for at in placed.values()] + [b[0] for b in boxes] + [b[2] for b in boxes] or [0.0]
    ys = [at[1] for at in placed.values()] + [b[1] for b in boxes] + [b[3] for b in boxes] or [0.0]
    margin = 30
    x0, y0 = min(xs) - margin, min(ys) - margin
    width = max(xs) - x0 + margin + 240  # room for the legend
    height = max(ys) - y0 + margin
    legend = [(state.players[pid].name, colour, marks[pid], ink(colour)) for pid, colour in palette.items()]
    held = [at for name, at in placed.items() if name in state.holder]
    focus = (0.0, 0.0, width, height)
    if held:
        left, top = min(x for x, _ in held) - x0 - 60, min(y for _, y in held) - y0 - 40
        right, bottom = max(x for x, _ in held) - x0 + 60, max(y for _, y in held) - y0 + 40
        focus = (max(left, 0.0), max(top, 0.0), right - max(left, 0.0), bottom - max(top, 0.0))
    return MapPicture(x0, y0, width, height, spots, land, sea, legend, title, focus)


@dataclass(frozen=True)
class Chart:
    width: int
    height: int
    points: list[tuple[float, float, int, int]]  # x, y, week, cp
    x_ticks: list[tuple[float, int]]
    y_ticks: list[tuple[float, int]]

    @property
    def path(self) -> str:
        return " ".join(f"{x:.1f},{y:.1f}" for x, y, _, _ in self.points)


def cp_chart(series: list[tuple[int, int]], width: int = 640, height: int = 240, most: int | None = None) -> Chart:
    """A line of CP at the end of each week; with `most`, at most about that many weeks
    drawn: every few from the first, evenly, and always the last."""
    left, right, top, bottom = 48, 16, 16, 32
    if most is not None and len(series) > most:
        step = -(-len(series) // most)
        series = series[::step] + ([series[-1]] if (len(series) - 1) % step else [])
    if not series:
        return Chart(width, height, [], [], [])
    weeks = [w for w, _ in series]
    highest = max(10, max(cp for _, cp in series))
    low_cp = min(0, min(cp for _, cp in series))
    step = max(1, round((highest - low_cp) / 5))
    low_cp -= low_cp % step
    top_cp = -(-highest // step) * step  # the first tick at or above the highest CP
    span_w = max(1, weeks[-1] - weeks[0])

    def x_of(week: int) -> float:
        return left + (week - weeks[0]) / span_w * (width - left - right)

    def y_of(cp: int) -> float:
        return top + (top_cp - cp) / (top_cp - low_cp) * (height - top - bottom)

    return Chart(
        width,
        height,
        [(x_of(w), y_of(cp), w, cp) for w, cp in series],
        [(x_of(w), w) for w in weeks[:: max(1, len(weeks) // 12)]],
        [(y_of(v), v) for v in range(low_cp, top_cp + 1, step)],
    )
