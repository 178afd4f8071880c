"""The Clash of Kings ruleset: decide what an event does, then commit it to the state.

Every game that needs no overlay of its state dispatches the same way (Mighty Kingdoms'
`rules/apply.py` too): a table from the event's type to the rule that decides it (`DECIDE`),
and one from the outcome's type to the function that commits it (`COMMIT`). Two tables read
in one place say every event the game knows and where its rule is; an `isinstance` chain
and `singledispatch` registrations scattered down a file said the same less plainly.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from cok.core.errors import RuleError
from cok.core.events import EventBase as AnyEvent
from cok.core.names import unknown
from cok.rulesets.clash_of_kings.events import Adjust, Battle, Join, Painting, Week
from cok.rulesets.clash_of_kings.map import Geography
from cok.rulesets.clash_of_kings.rules.battle import decide_battle
from cok.rulesets.clash_of_kings.rules.outcomes import Adjusted, Fought, Joined, Outcome, Painted, WeekStarted
from cok.rulesets.clash_of_kings.rules.painting import decide_painting
from cok.rulesets.clash_of_kings.rules.spelling import spelled
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


def repeats(state: State, outcome: Outcome) -> str | None:
    """The battle recorded before that this decided one repeats (same players, location,
    week and winner), in words; None when it is new, or of a week older than REPEAT_WEEKS.
    Judged from the decision the ledger already has, so a recording decides each battle once."""
    if not isinstance(outcome, Fought):
        return None
    if battle_key(outcome.players, outcome.location, outcome.week, outcome.winner) not in state.battles:
        return None
    names = " and ".join(state.players[p].name for p in outcome.players)
    result = f"{state.players[outcome.winner].name} won" if outcome.winner else "a draw"
    return f"{names} already have this battle recorded: {outcome.location}, week {outcome.week}, {result}"


def decide(state: State, event: AnyEvent) -> Outcome:
    """What the event would do; RuleError if the rules refuse it. Changes nothing."""
    rule = DECIDE.get(type(event))
    if rule is None:
        raise RuleError(f"no Clash of Kings rule for a {event.type} event")  # pragma: no cover
    return rule(state, spelled(state, event))  # names made exact in one place, then the rule


def decide_adjust(state: State, event: Adjust) -> Adjusted:
    """An organiser's correction of a player's CP, with its reason."""
    if event.player not in state.players:
        raise RuleError(unknown(event.player, state.players, "player"))
    return Adjusted(event.player, event.cp, event.reason, state.week)


def apply(state: State, event: AnyEvent) -> Outcome:
    """Decide, then commit: the state changes only when the rules accept the event."""
    outcome = decide(state, event)
    commit(outcome, state)
    return outcome


def commit(outcome: Outcome, state: State) -> None:
    """Apply an outcome `decide` gave for this very state."""
    COMMIT[type(outcome)](outcome, state)


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


def commit_joined(outcome: Joined, state: State) -> None:
    state.players[outcome.player] = Player(outcome.player, outcome.name, outcome.faction)
    state.holdings[outcome.player] = set()
    state.bonus[outcome.player] = 0
    state.records[outcome.player] = BattleRecord()
    for location in outcome.locations:
        _occupy(state, outcome.player, location)


def commit_week(outcome: WeekStarted, state: State) -> None:
    weekly = state.own("cp_by_week")
    for pid in state.players:  # the site's CP-over-weeks chart
        weekly.setdefault(pid, {})[state.week] = state.total_cp(pid)
    state.week = outcome.week
    state.limits.append(outcome.limit)
    state.battles = {key for key in state.battles if key[3] >= outcome.week - REPEAT_WEEKS + 1}


def commit_fought(outcome: Fought, state: State) -> None:
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


def commit_painted(outcome: Painted, state: State) -> None:
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


def commit_adjusted(outcome: Adjusted, state: State) -> None:
    state.bonus[outcome.player] += outcome.cp


DECIDE: dict[type[AnyEvent], Callable[[State, Any], Outcome]] = {
    Join: decide_join,
    Week: decide_week,
    Battle: decide_battle,
    Painting: decide_painting,
    Adjust: decide_adjust,
}

COMMIT: dict[type, Callable[[Any, State], None]] = {
    Joined: commit_joined,
    WeekStarted: commit_week,
    Fought: commit_fought,
    Painted: commit_painted,
    Adjusted: commit_adjusted,
}
