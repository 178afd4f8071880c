"""What the No True King site's pages show, as plain values for the templates (no HTML
here): where the game stands, the house ranking, the agents, the conspiracies (their cards
and scores only once the game is over), the latest combats and the log, newest first."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from cok.core.history import Told
from cok.render.site import site_history
from cok.rulesets.no_true_king.documents import houses_doc
from cok.rulesets.no_true_king.rules.state import State
from cok.rulesets.no_true_king.rules.turns import waits_text
from cok.rulesets.no_true_king.site.board import colour

if TYPE_CHECKING:
    from cok.core.campaign import Campaign

#: The latest combats on the home page.
LATEST = 10
#: The newest events on the log's page as `cok serve` shows it (after every recording: a
#: game's whole log is one page, which a heavy campaign makes too long to make each time).
SERVED_LOG = 100
#: A loyalty card's places: ranks 1 to 4, then the left-over token (contract: the card).
PLACES = ("1st", "2nd", "3rd", "4th")


@dataclass(frozen=True)
class HouseRow:
    id: str
    colour: str
    rank: int
    crowns: int
    castles: int
    towns: int
    barrels: int


@dataclass(frozen=True)
class Conspirator:
    name: str
    symbol: str
    revealed: str  # the loyalty tokens shown, in words
    cards: str
    rank: int | None = None
    score: int | None = None
    card: str = ""  # the loyalty card, once the game is over
    ahead_by: str = ""
    absent: bool = False  # missed deadlines in a row: their turns pass as they open (issue 48)


@dataclass
class SiteData:
    name: str
    state: State
    badge: tuple[str, str]  # (label, value): where the game stands, in the header
    when: str
    facts: list[tuple[str, str]]
    waiting: str
    houses: list[HouseRow]
    agents: list[tuple[str, str, str, str]]  # house, its colour, space, player
    players: list[Conspirator]
    over: bool
    latest: list[Told] = field(default_factory=list)  # the latest combats, newest first
    newest: list[Told] = field(default_factory=list)  # the newest events, newest first (`SERVED_LOG`)
    events: int = 0  # in the log


def revealed_words(shown: list[str]) -> str:
    """`tyrell in 2nd place, baratheon in 3rd place, stark left over`: each face-up loyalty
    token with its place on the card."""
    words = [
        f"{house} in {PLACES[i]} place" if i < len(PLACES) else f"{house} left over"
        for i, house in enumerate(shown)
        if house
    ]
    return ", ".join(words) or "none revealed"


def is_combat(told: Told) -> bool:
    """A resolve whose move (or a card's move) was fought over."""
    if told.type != "resolve":
        return False
    actions = told.event.get("actions") or []
    return bool(told.event.get("combat")) or any(isinstance(a, dict) and a.get("combat") for a in actions)


class SiteHistory:
    """What the pages show of the history, folded one event at a time (`cok.render.
    site.Fold`): the latest combats, and the newest events with their count (the log's
    page as `cok serve` shows it)."""

    broken = False  # nothing it holds needs a pass over the whole history again

    def __init__(self) -> None:
        self.latest: deque[Told] = deque(maxlen=LATEST)
        self.newest: deque[Told] = deque(maxlen=SERVED_LOG)
        self.count = 0

    def add(self, told: Told) -> None:
        self.count += 1
        self.newest.append(told)
        if is_combat(told):
            self.latest.append(told)


def site_data(campaign: Campaign) -> SiteData:
    """The pages' data: the state, and the latest combats (`SiteHistory`, folded from the
    events this process folded before)."""
    state: State = campaign.state
    if state.phase == "setup":
        badge = ("setup", "—")
        when = f"Setup: {len(state.players)} conspiracies joined."
        facts = [("Phase", "setup"), ("Conspiracies", str(len(state.players)))]
    else:
        badge = ("game over" if state.phase == "over" else state.phase, f"R{state.round}/{state.rounds}")
        when = f"Round {state.round} of {state.rounds}"
        facts = [
            ("Round", f"{state.round} of {state.rounds}"),
            ("First player", state.first or "—"),
            ("Phase", state.phase),
            ("Seats", ", ".join(state.seats) or "—"),
        ]
    over = state.phase == "over"
    players = []
    for st in campaign.ruleset.standings(campaign).document["players"]:  # as `cok standings` ranks them
        who = state.players[st["id"]]
        players.append(
            Conspirator(
                name=who.name,
                symbol=who.symbol,
                revealed=revealed_words(who.shown),
                cards=", ".join(f"{h} {count}" for h, count in st["cards"].items()) or "none",
                rank=st["rank"] if over else None,
                score=st["score"] if over else None,
                card=", ".join(who.card or []) if over else "",
                ahead_by=(st.get("decided_by") or "") if over else "",
                absent=bool(st.get("absent")),
            )
        )
    history = site_history(campaign, SiteHistory)
    latest, newest, events = list(history.latest), list(history.newest), history.count
    return SiteData(
        name=campaign.name,
        state=state,
        badge=badge,
        when=when,
        facts=facts,
        waiting=waits_text(state),
        houses=[
            HouseRow(r["id"], colour(r["id"]), r["rank"], r["crowns"], r["castles"], r["towns"], r["barrels"])
            for r in houses_doc(state)
        ],
        agents=[(house, colour(house), space, player) for (house, space), player in sorted(state.agents.items())],
        players=players,
        over=over,
        latest=list(reversed(latest)),
        newest=list(reversed(newest)),
        events=events,
    )
