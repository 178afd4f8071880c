"""Small games for the rule tests: a state on the shipped board, events applied by the rules
as the fold applies them, and ways to set up a position quickly."""

from __future__ import annotations

from typing import Any

import pytest

from cok.core.errors import RuleError
from cok.rulesets.no_true_king.rules.apply import apply, initial_state
from cok.rulesets.no_true_king.rules.loyalty import seal_of
from cok.rulesets.no_true_king.rules.outcomes import Outcome
from cok.rulesets.no_true_king.rules.state import State
from tests.no_true_king.game import board, event_of

HOUSES = ["baratheon", "stark", "lannister", "greyjoy", "tyrell"]
CARDS = {
    "ana": ["baratheon", "stark", "lannister", "greyjoy", "tyrell"],
    "bo": ["stark", "baratheon", "tyrell", "greyjoy", "lannister"],
    "cy": ["tyrell", "greyjoy", "lannister", "stark", "baratheon"],
    "di": ["greyjoy", "tyrell", "stark", "lannister", "baratheon"],
}
SECRET = "a-secret-of-sixteen-or-more"
SYMBOLS = {"ana": "crown", "bo": "torch", "cy": "helm", "di": "gauntlet"}


def fresh(loyalty: str = "sealed") -> State:
    return initial_state(board(), loyalty)


def rec(state: State, **data: Any) -> Outcome:
    return apply(state, event_of(data))


def refused(state: State, match: str, **data: Any) -> str:
    with pytest.raises(RuleError, match=match) as info:
        rec(state, **data)
    return str(info.value)


def joined(players: tuple[str, ...] = ("ana", "bo", "cy"), loyalty: str = "sealed") -> State:
    state = fresh(loyalty)
    for p in players:
        if loyalty == "sealed":
            rec(state, type="conspiracy", player=p, symbol=SYMBOLS[p], seal=seal_of(p, CARDS[p], SECRET))
        else:
            rec(state, type="conspiracy", player=p, symbol=SYMBOLS[p], loyalty=CARDS[p])
    return state


def begun(players: tuple[str, ...] = ("ana", "bo", "cy"), first: str = "ana", loyalty: str = "sealed") -> State:
    state = joined(players, loyalty)
    rec(state, type="begin", seats=list(players), first=first)
    return state


def placed(
    spaces: list[tuple[str, str]], players: tuple[str, ...] = ("ana", "bo", "cy"), first: str = "ana", **kw: Any
) -> State:
    """A game in its resolution phase: the agents placed in turn on `spaces` (in order)."""
    state = begun(players, first, **kw)
    for house, space in spaces:
        assert state.active is not None
        rec(state, type="place", player=state.active, house=house, space=space)
    return state


def resolving(state: State, player: str, house: str, space: str) -> None:
    """Put the game in resolution with just this agent to resolve (a position for a rule test)."""
    state.phase = "resolution"
    state.agents = {(house, space): player}
    state.active = player


def put(state: State, area: str, house: str, f: int = 0, k: int = 0, s: int = 0) -> None:
    state.flags.pop(area, None)
    if f or k or s:
        state.troops[area] = (house, f, k, s)
    else:
        state.troops.pop(area, None)


def give(state: State, player: str, house: str, n: int = 1) -> None:
    state.held[(player, house)] = state.held.get((player, house), 0) + n
    state.drawn[house] = state.drawn.get(house, 0) + n


def move(player: str, house: str, space: str, origin: str, to: str, units: list[str], **combat: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "type": "resolve",
        "player": player,
        "house": house,
        "space": space,
        "actions": [{"move": {"from": origin, "to": to, "units": units}}],
    }
    if combat:
        data["combat"] = combat
    return data


def fight(state: State, house: str, origin: str, to: str, units: list[str], player: str = "ana", **combat: Any) -> Any:
    """A maester of `house` resolved by `player` moving into `to`: the combat's outcome."""
    resolving(state, player, house, "maester")
    combat.setdefault("cards", {})
    outcome = rec(state, **move(player, house, "maester", origin, to, units, **combat))
    return outcome.result.done[0][1]
