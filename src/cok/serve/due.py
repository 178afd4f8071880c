"""The due bar (issue 48): on every page, what the ledger waits for and by when — the visitor's
own first ("You: orders for bo-4 and bo-5, due Thu 3 Dec 20:00 — in 2 days"), then whom else it
waits for, absent players marked — said in the campaign's time zone; with the forms that move
a deadline (a player's "ask for more time" while `extensions:` allows, an organiser's extend
and bring back). Template: templates/due.html, included once by the bar."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from cok.core import deadlines
from cok.core.deadlines import Due

if TYPE_CHECKING:
    from cok.core.campaign import Campaign

#: The waits the bar names besides the visitor's own (the rest: "and N more").
SHOWN = 4


@dataclass(frozen=True)
class Line:
    """One wait as the bar says it."""

    key: str
    step: str
    what: str
    who: str | None  # a player's id; None: the organisers
    name: str  # who, in words
    when: str  # "Thu 3 Dec 20:00 — in 2 days" ("" without a deadline)
    mine: bool
    absent: bool
    late: bool  # its deadline has passed (its default is recorded at the next tick)


@dataclass(frozen=True)
class Bar:
    """What the due bar shows one visitor."""

    mine: Sequence[Line]
    others: Sequence[Line]
    more: int  # waits not named
    absent: Sequence[tuple[str, str]]  # (id, name) of the players marked absent
    asks_left: int  # times the visitor may still ask for more time (0: the form is not shown)
    players: Sequence[tuple[str, str]]  # (id, name): whom an organiser may extend a deadline for
    back: str | None = None  # the visitor's own id when they are marked absent ("I'm back")

    def __bool__(self) -> bool:
        return bool(self.mine or self.others or self.absent)


def bar(
    campaign: Campaign,
    found: Sequence[Due],
    people: Mapping[str, str],
    player: str | None,
    now: dt.datetime,
    *,
    organiser: bool = False,
    allowed: int = 0,
) -> Bar:
    """The bar for `player` (None: a reader, or an organiser who plays no one) at `now`;
    `organiser`: the organisers' own waits are the visitor's; `allowed`: the times each
    player may ask for more time (`extensions:`)."""
    tz = deadlines.zone_of(campaign.state)
    lines = [_line(d, people, player, organiser, now, tz) for d in found]
    mine = [x for x in lines if x.mine]
    others = [x for x in lines if not x.mine]
    clock = deadlines.kept(campaign.state)
    absent = sorted(clock.absent) if clock is not None else []
    asked = clock.asked.get(player, 0) if clock is not None and player is not None else 0
    waited = sorted({d.wait.who for d in found if d.wait.who is not None})
    return Bar(
        mine,
        others[:SHOWN],
        max(len(others) - SHOWN, 0),
        [(p, people.get(p, p)) for p in absent],
        max(allowed - asked, 0) if any(x.who is not None for x in mine) else 0,
        [(p, people.get(p, p)) for p in waited],
        player if player is not None and player in absent else None,
    )


def _line(
    due: Due, people: Mapping[str, str], player: str | None, organiser: bool, now: dt.datetime, tz: dt.tzinfo
) -> Line:
    who = due.wait.who
    name = people.get(who, who) if who is not None else "the organisers"
    when = deadlines.when(due.due, now, tz) if due.due is not None else ""
    late = due.due is not None and due.due <= now
    mine = (who is not None and who == player) or (who is None and organiser)
    return Line(due.wait.key, due.wait.step, due.wait.what, who, name, when, mine, due.absent, late)


def next_due(first: Due | None, people: Mapping[str, str], campaign: Campaign, now: dt.datetime) -> str:
    """The campaign's next due time (`first_due`) as the club's page says it ("" when none)."""
    if first is None or first.due is None:
        return ""
    who = first.wait.who
    name = people.get(who, who) if who is not None else "the organisers"
    return f"{first.wait.what} from {name}: {deadlines.when(first.due, now, deadlines.zone_of(campaign.state))}"
