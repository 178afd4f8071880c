"""The No True King rules: decide what an event does on a copy of the state, and commit the
copy only when the rules accept it, so a refused event never half-applies."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from cok.core.errors import RuleError
from cok.core.events import EventBase
from cok.rulesets.no_true_king.events import Begin, Conspiracy, Exchange, Pass, Place, Resolve, Unseal
from cok.rulesets.no_true_king.map import Board
from cok.rulesets.no_true_king.rules import agents, loyalty, setup, turns
from cok.rulesets.no_true_king.rules.places import find_player
from cok.rulesets.no_true_king.rules.ranking import initial_ranks, rank_houses
from cok.rulesets.no_true_king.rules.state import State


@dataclass(frozen=True)
class RoundEnded:
    """What followed the event: a round's rankings, the next round, or the end."""

    round: int
    ranks: dict[str, int] | None  # the rankings worked out after the last agent resolved
    next_first: str | None  # the next round's first player
    over: bool


@dataclass(frozen=True)
class Outcome:
    """An event's result and what it led to."""

    result: Any
    then: RoundEnded | None = None


def initial_state(board: Board, loyalty_mode: str) -> State:
    """The starting units on the board; no flags, agents or cards drawn (§4.1)."""
    state = State(board=board, loyalty=loyalty_mode)
    for house, places in board.start.items():
        for area, units in places.items():
            state.troops[area] = (house, units.count("footman"), units.count("knight"), units.count("ship"))
    state.ranks = initial_ranks(board)
    return state


def apply(state: State, event: EventBase) -> Outcome:
    """Decide on a copy, then commit: the state changes only when the rules accept the event."""
    work = state.copy()
    outcome = decide(work, event)
    state.__dict__.update(work.__dict__)
    return outcome


def decide(state: State, event: EventBase) -> Outcome:
    if isinstance(event, Conspiracy):
        return Outcome(setup.join(state, event))
    if isinstance(event, Begin):
        return Outcome(setup.begin(state, event))
    player = getattr(event, "player", None)
    if player is not None:
        find_player(state, player)
    if isinstance(event, Place):
        result: Any = agents.place(state, event)
        turns.after_placement(state)
        return Outcome(result)
    if isinstance(event, Resolve):
        result = agents.resolve(state, event)
        if turns.after_resolution(state):
            return Outcome(result)
        return Outcome(result, _rankings(state))
    if isinstance(event, (Exchange, Pass)):
        result = loyalty.exchange(state, event) if isinstance(event, Exchange) else _pass(state, event)
        return Outcome(result, _next_exchange(state))
    if isinstance(event, Unseal):
        if state.loyalty != "sealed":
            raise RuleError(
                f"this game's loyalty is open: there is nothing to unseal; "
                f"the ledger waits for {turns.waits_text(state)}"
            )
        result = loyalty.unseal(state, event)
        over = all(p.unsealed for p in state.players.values())
        if over:
            state.phase = "over"
        return Outcome(result, RoundEnded(state.round, None, None, True) if over else None)
    raise RuleError(f"no rule for {event.type}")  # pragma: no cover


def _pass(state: State, event: Pass) -> loyalty.Passed:
    turns.refuse_out_of_turn(state, "exchange", event.player)
    return loyalty.Passed(event.player)


def _rankings(state: State) -> RoundEnded:
    """Every agent resolved: the round's rankings (§4.2.3), then the exchanges."""
    state.ranks = rank_houses(state)
    state.ranked.append(dict(state.ranks))
    state.phase = "exchanges"
    state.active = state.first
    return RoundEnded(state.round, dict(state.ranks), None, False)


def _next_exchange(state: State) -> RoundEnded | None:
    """Clockwise through the exchanges; after the first player's right-hand neighbour, the
    next round begins with the next first player, or the game ends."""
    assert state.active is not None and state.first is not None
    state.active = state.next_seat(state.active)
    if state.active != state.first:
        return None
    if state.round < state.rounds:
        state.round += 1
        state.first = state.next_seat(state.first)
        turns.start_placement(state)
        return RoundEnded(state.round - 1, None, state.first, False)
    state.active = None
    over = state.loyalty == "open"
    state.phase = "over" if over else "unseal"
    return RoundEnded(state.round, None, None, over)
