"""Everything the site shows, prepared as plain values for the templates (no HTML here)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from cok.core.campaign import Campaign
from cok.core.history import Told
from cok.rulesets.clash_of_kings.rules.scoring import standings
from cok.rulesets.clash_of_kings.rules.state import State

#: A colour for each faction, and a palette for players who share one.
FACTION_COLOURS = {
    "stark": "#7d8fa3",
    "lannister": "#b3202a",
    "baratheon": "#e0b000",
    "greyjoy": "#2f5f5a",
    "martell": "#e8731a",
    "targaryen": "#8e1b5c",
    "nights-watch": "#303030",
    "free-folk": "#5fa8d3",
    "bolton": "#d9829a",
    "brotherhood": "#4f7f2f",
    "neutral": "#8a6d4b",
}
PALETTE = [
    "#6a4c93",
    "#1982c4",
    "#8ac926",
    "#ff595e",
    "#ffca3a",
    "#3a86a8",
    "#c06c84",
    "#6c5b7b",
    "#355c7d",
    "#99b898",
    "#f67280",
    "#2a9d8f",
]


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
    history: list[Entry] = field(default_factory=list)
    cp_by_week: list[tuple[int, int]] = field(default_factory=list)


@dataclass
class SiteData:
    name: str
    week: int
    points_limit: int
    built: str
    state: State
    players: list[PlayerPage]
    entries: list[Entry]  # newest first
    colours: dict[str, str]


def colours(state: State) -> dict[str, str]:
    """Each player's colour: their faction's, unless an earlier player took it."""
    taken: set[str] = set()
    spare = iter(PALETTE)
    out = {}
    for pid, player in state.players.items():
        colour = FACTION_COLOURS.get(player.faction)
        if colour is None or colour in taken:
            colour = next((c for c in spare if c not in taken), "#777777")
        taken.add(colour)
        out[pid] = colour
    return out


def site_data(campaign: Campaign) -> SiteData:
    """The pages' data: the state, the history in words (from the cache when it fits), and
    every player's CP at the end of each week."""
    state: State = campaign.state
    entries = [Entry(t) for t in campaign.history()]
    entries.reverse()
    palette = colours(state)
    pages = []
    for s in standings(state):
        pid = s.player.id
        weekly = {**state.cp_by_week.get(pid, {}), state.week: state.total_cp(pid)}
        pages.append(
            PlayerPage(
                id=pid,
                name=s.player.name,
                faction=s.player.faction,
                colour=palette[pid],
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
                history=[e for e in entries if e.battle and pid in e.players],
                cp_by_week=sorted(weekly.items()),
            )
        )
    built = dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC")
    return SiteData(campaign.name, state.week, state.limit, built, state, pages, entries, palette)


@dataclass(frozen=True)
class Entry:
    """One event of the history as the pages show it."""

    told: Told

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


@dataclass(frozen=True)
class MapPicture:
    x: float
    y: float
    width: float
    height: float
    spots: list[Spot]
    land: list[tuple[float, float, float, float]]
    sea: list[tuple[float, float, float, float]]
    legend: list[tuple[str, str]]  # (player name, colour)
    title: str


def map_picture(state: State, palette: dict[str, str], title: str) -> MapPicture:
    """Every location at its `at` position, filled with its occupant's colour."""
    geo = state.geo
    placed = {n: loc.at for n, loc in geo.locations.items() if loc.at is not None}
    spots = []
    for name, at in placed.items():
        occupant = state.holder.get(name)
        spots.append(
            Spot(
                name,
                geo.kind(name),
                at[0],
                at[1],
                palette.get(occupant or "", "#ffffff"),
                state.players[occupant].name if occupant else None,
                geo.value(name),
            )
        )
    land: list[tuple[float, float, float, float]] = []
    sea: list[tuple[float, float, float, float]] = []
    for route in geo.routes:
        if route.a in placed and route.b in placed:
            (x1, y1), (x2, y2) = placed[route.a], placed[route.b]
            (land if route.kind == "land" else sea).append((x1, y1, x2, y2))
    xs = [at[0] for at in placed.values()] or [0.0]
    ys = [at[1] for at in placed.values()] or [0.0]
    margin = 60
    x0, y0 = min(xs) - margin, min(ys) - margin
    width = max(xs) - x0 + margin + 180  # room for labels and the legend
    height = max(ys) - y0 + margin
    legend = [(state.players[pid].name, colour) for pid, colour in palette.items()]
    return MapPicture(x0, y0, width, height, spots, land, sea, legend, title)


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


def cp_chart(series: list[tuple[int, int]], width: int = 640, height: int = 240) -> Chart:
    """A line of CP at the end of each week."""
    left, right, top, bottom = 48, 16, 16, 32
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
