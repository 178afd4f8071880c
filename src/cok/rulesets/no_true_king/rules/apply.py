"""The No True King rules: decide what an event does on an overlay of its changes, then commit
the overlay, so the state changes only when the rules accept the event and deciding never
touches it (a dry run, a preview and a refused event leave it as it was).

The rules are dispatched as every game's are (`DECIDE`: the event's type to the rule that
decides it, as in Clash of Kings and Mighty Kingdoms); what differs is the overlay: each rule
changes an `Overlay` of the state, and committing is that overlay's one `commit`, so no table
of commits is needed."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cok.core.errors import RuleError
from cok.core.events import EventBase
from cok.rulesets.no_true_king.events import Begin, Card, Conspiracy, Exchange, Pass, Place, Resolve, Unseal
from cok.rulesets.no_true_king.map import Board
from cok.rulesets.no_true_king.rules import agents, cards, loyalty, setup, turns
from cok.rulesets.no_true_king.rules.outcomes import Outcome, Passed, RoundEnded
from cok.rulesets.no_true_king.rules.overlay import Overlay
from cok.rulesets.no_true_king.rules.ranking import initial_ranks, rank_houses
from cok.rulesets.no_true_king.rules.spelling import spelled
from cok.rulesets.no_true_king.rules.state import Realm, State


def initial_state(board: Board, loyalty_mode: str) -> State:
    """The starting units on the board; no flags, agents or cards drawn (§4.1)."""
    state = State(board=board, loyalty=loyalty_mode)
    for house, places in board.start.items():
        for area, units in places.items():
            state.troops[area] = (house, units.count("footman"), units.count("knight"), units.count("ship"))
    state.ranks = initial_ranks(board)
    return state


def apply(state: State, event: EventBase) -> Outcome:
    """Decide, then commit: the state changes only when the rules accept the event."""
    outcome = decide(state, event)
    commit(outcome, state)
    return outcome


def decide(state: State, event: EventBase) -> Outcome:
    """What the event would do, its changes drafted; RuleError (or ChoiceNeeded) when the
    rules refuse it. Changes nothing."""
    event = spelled(state, event)  # names made the board's and the game's own in one place, then the rule
    overlay = Overlay(state)
    result, then = _decide(overlay, event)
    return Outcome(result, then, overlay)


def commit(outcome: Outcome, state: State) -> None:
    """Apply a decided outcome to the state it was decided on."""
    if outcome.changes is not None:
        outcome.changes.commit(state)


def _decide(game: Realm, event: EventBase) -> tuple[Any, RoundEnded | None]:
    rule = DECIDE.get(type(event))
    if rule is None:
        raise RuleError(f"no rule for {event.type}")  # pragma: no cover
    return rule(game, event)


def _conspiracy(game: Realm, event: Conspiracy) -> tuple[Any, RoundEnded | None]:
    return setup.join(game, event), None


def _begin(game: Realm, event: Begin) -> tuple[Any, RoundEnded | None]:
    return setup.begin(game, event), None


def _place(game: Realm, event: Place) -> tuple[Any, RoundEnded | None]:
    placed = agents.place(game, event)
    return placed, _after_placing(game)


def _after_placing(game: Realm) -> RoundEnded | None:
    """The next placement, or the resolutions; a round in which no agent was placed (every
    placement passed at its deadline) has nothing to resolve: its rankings at once."""
    turns.after_placement(game)
    if game.phase == "resolution" and game.active is None:
        return _rankings(game)
    return None


def _card(game: Realm, event: Card) -> tuple[Any, RoundEnded | None]:
    return cards.play(game, event), None


def _resolve(game: Realm, event: Resolve) -> tuple[Any, RoundEnded | None]:
    resolved = agents.resolve(game, event)
    if turns.after_resolution(game):
        return resolved, None
    return resolved, _rankings(game)


def _exchange(game: Realm, event: Exchange) -> tuple[Any, RoundEnded | None]:
    return loyalty.exchange(game, event), _next_exchange(game)


def _passing(game: Realm, event: Pass) -> tuple[Any, RoundEnded | None]:
    if game.phase == "placement":  # a placement missed at its deadline (issue 48)
        return agents.pass_placement(game, event), _after_placing(game)
    return _pass(game, event), _next_exchange(game)


def _unseal(game: Realm, event: Unseal) -> tuple[Any, RoundEnded | None]:
    if game.loyalty != "sealed":
        raise RuleError(
            f"this game's loyalty is open: there is nothing to unseal; the ledger waits for {turns.waits_text(game)}"
        )
    unsealed = loyalty.unseal(game, event)
    over = all(p.unsealed for p in game.players.values())
    if over:
        game.phase = "over"
    return unsealed, RoundEnded(game.round, None, None, True) if over else None


def _pass(game: Realm, event: Pass) -> Passed:
    turns.refuse_out_of_turn(game, "exchange", event.player)
    return Passed(event.player)


def _rankings(game: Realm) -> RoundEnded:
    """Every agent resolved: the round's rankings (§4.2.3), then the exchanges."""
    game.ranks = rank_houses(game)
    game.ranked = [*game.ranked, dict(game.ranks)]
    game.phase = "exchanges"
    game.active = game.first
    return RoundEnded(game.round, dict(game.ranks), None, False)


def _next_exchange(game: Realm) -> RoundEnded | None:
    """Clockwise through the exchanges; after the first player's right-hand neighbour, the
    next round begins with the next first player, or the game ends."""
    assert game.active is not None and game.first is not None
    game.active = game.next_seat(game.active)
    if game.active != game.first:
        return None
    if game.round < game.rounds:
        game.round += 1
        game.first = game.next_seat(game.first)
        turns.start_placement(game)
        return RoundEnded(game.round - 1, None, game.first, False)
    game.active = None
    over = game.loyalty == "open"
    game.phase = "over" if over else "unseal"
    return RoundEnded(game.round, None, None, over)


DECIDE: dict[type[EventBase], Callable[[Realm, Any], tuple[Any, RoundEnded | None]]] = {
    Conspiracy: _conspiracy,
    Begin: _begin,
    Place: _place,
    Card: _card,
    Resolve: _resolve,
    Exchange: _exchange,
    Pass: _passing,
    Unseal: _unseal,
}
