"""The Clash of Kings ruleset: decide what an event does, then commit it to the state."""

from __future__ import annotations

from collections.abc import Sequence
from functools import singledispatch

from cok.core.errors import RuleError
from cok.core.events import EventBase as AnyEvent
from cok.core.names import unknown
from cok.rulesets.clash_of_kings.events import Adjust, Battle, Join, Painting, Week
from cok.rulesets.clash_of_kings.map import Geography
from cok.rulesets.clash_of_kings.rules.battle import decide_battle
from cok.rulesets.clash_of_kings.rules.outcomes import Adjusted, Fought, Joined, Outcome, Painted, WeekStarted
from cok.rulesets.clash_of_kings.rules.painting import decide_painting
from cok.rulesets.clash_of_kings.rules.start import decide_join
from cok.rulesets.clash_of_kings.rules.state import BattleRecord, Player, Settings, State
from cok.rulesets.clash_of_kings.rules.weeks import decide_week


def initial_state(geo: Geography, settings: Settings) -> State:
    return State(geo=geo, settings=settings)


def battle_key(players: Sequence[str], location: str, week: int, winner: str | None) -> tuple[str, str, str, int, str]:
    """What makes two battles the same one: both players, the location, the week, the winner."""
    first, second = sorted(players)
    return (first, second, location, week, winner or "")


#: How many weeks back, counting this one, a battle recorded twice is noticed: the usual
#: mistake is this week's battle entered again, and keeping every battle ever fought in the
#: state would make a long campaign's every command load them all.
REPEAT_WEEKS = 2


def repeats(state: State, event: AnyEvent) -> str | None:
    """The battle recorded before that this one repeats (same players, location, week and
    winner), in words; None when it is new or refused (the rules then say why), or of a week
    older than REPEAT_WEEKS. Changes nothing."""
    if not isinstance(event, Battle):
        return None
    try:
        outcome = decide_battle(state, event)
    except RuleError:
        return None
    if battle_key(outcome.players, outcome.location, outcome.week, outcome.winner) not in state.battles:
        return None
    names = " and ".join(state.players[p].name for p in outcome.players)
    result = f"{state.players[outcome.winner].name} won" if outcome.winner else "a draw"
    return f"{names} already have this battle recorded: {outcome.location}, week {outcome.week}, {result}"


def decide(state: State, event: AnyEvent) -> Outcome:
    """What the event would do; RuleError if the rules refuse it. Changes nothing."""
    if isinstance(event, Join):
        return decide_join(state, event)
    if isinstance(event, Week):
        return decide_week(state, event)
    if isinstance(event, Battle):
        return decide_battle(state, event)
    if isinstance(event, Painting):
        return decide_painting(state, event)
    if isinstance(event, Adjust):
        if event.player not in state.players:
            raise RuleError(unknown(event.player, state.players, "player"))
        return Adjusted(event.player, event.cp, event.reason, state.week)
    raise RuleError(f"unknown event {event!r}")  # pragma: no cover


def apply(state: State, event: AnyEvent) -> Outcome:
    """Decide, then commit: the state changes only when the rules accept the event."""
    outcome = decide(state, event)
    commit(outcome, state)
    return outcome


@singledispatch
def commit(outcome: Outcome, state: State) -> None:  # pragma: no cover
    raise TypeError(f"no commit for {type(outcome).__name__}")


def _occupy(state: State, player: str, location: str) -> None:
    _vacate(state, location)
    state.holder[location] = player
    state.holdings.setdefault(player, set()).add(location)
    state.held_cp[player] = state.held_cp.get(player, 0) + state.geo.value(location)


def _vacate(state: State, location: str) -> None:
    previous = state.holder.pop(location, None)
    if previous is not None:
        state.holdings[previous].discard(location)
        state.held_cp[previous] -= state.geo.value(location)


@commit.register
def _(outcome: Joined, state: State) -> None:
    state.players[outcome.player] = Player(outcome.player, outcome.name, outcome.faction)
    state.holdings[outcome.player] = set()
    state.bonus[outcome.player] = 0
    state.records[outcome.player] = BattleRecord()
    for location in outcome.locations:
        _occupy(state, outcome.player, location)


@commit.register
def _(outcome: WeekStarted, state: State) -> None:
    weekly = state.own("cp_by_week")
    for pid in state.players:  # the site's CP-over-weeks chart
        weekly.setdefault(pid, {})[state.week] = state.total_cp(pid)
    state.week = outcome.week
    state.limits.append(outcome.limit)
    state.battles = {key for key in state.battles if key[3] >= outcome.week - REPEAT_WEEKS + 1}


@commit.register
def _(outcome: Fought, state: State) -> None:
    if outcome.week > state.week - REPEAT_WEEKS:
        state.battles.add(battle_key(outcome.players, outcome.location, outcome.week, outcome.winner))
    for player in outcome.players:
        state.records[player].battles += 1
        state.own("fought").add((player, outcome.week))
    if outcome.winner is not None and outcome.loser is not None:
        state.records[outcome.winner].wins += 1
        state.records[outcome.loser].losses += 1
    occupation = outcome.occupation
    if occupation.occupied and outcome.winner is not None:
        if occupation.abandoned is not None:
            _vacate(state, occupation.abandoned)
        _occupy(state, outcome.winner, outcome.location)


@commit.register
def _(outcome: Painted, state: State) -> None:
    key = (outcome.player, outcome.week)
    if outcome.fully_painted:
        state.own("fully_painted").add(key)
    if outcome.units or outcome.models:
        units, models = state.banners.get(key, (0, 0))
        state.own("banners")[key] = (units + outcome.units, models + outcome.models)
    if outcome.commissioned is not None:
        state.own("commission_weeks").add(key)
        state.own("commissioned").add((outcome.player, outcome.commissioned))
    state.bonus[outcome.player] += outcome.cp


@commit.register
def _(outcome: Adjusted, state: State) -> None:
    state.bonus[outcome.player] += outcome.cp
