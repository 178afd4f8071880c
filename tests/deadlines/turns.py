"""A toy game whose ledger waits for each player (the core's deadlines alone, with no real
game): every round, each player who joined scores once; the round ends when all have. Its
one step, `score`, defaults to a score of nought (`zero`) or to nothing (`none`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from cok.core.deadlines import NONE, Clock, Step, Wait
from cok.core.errors import RuleError
from cok.core.events import EventBase

from ..core.toy import Board, Joined, Score, Scored, Toy, ToySettings

SCORE = Step("score", "score", ("zero", NONE), "a score of nought changes no total")


@dataclass
class TurnsState:
    board: Board
    bonus: int = 0
    totals: dict[str, int] = field(default_factory=dict)
    round: int = 1
    scored: set[str] = field(default_factory=set)
    clock: Clock = field(default_factory=Clock)


class Turns(Toy):
    id = "turns"
    title = "Turns"
    cached_types: Sequence[type] = (TurnsState, Board, Clock)
    deadline_steps: Sequence[Step] = (SCORE,)

    def initial_state(self, map: Board, settings: ToySettings) -> TurnsState:  # type: ignore[override]
        return TurnsState(map, settings.bonus)

    def decide(self, state: Any, event: EventBase) -> object:
        if isinstance(event, Score) and event.player in state.scored:
            raise RuleError(f"{event.player} has scored in round {state.round} already")
        return super().decide(state, event)

    def commit(self, outcome: object, state: Any) -> None:
        super().commit(outcome, state)
        if isinstance(outcome, Scored):
            state.scored.add(outcome.player)
            if state.scored >= set(state.totals):
                state.round += 1
                state.scored = set()

    def waits(self, state: Any) -> Sequence[Wait]:
        return [
            Wait("score", p, f"{p}'s score in round {state.round}", f"score:r{state.round}:{p}")
            for p in sorted(state.totals)
            if p not in state.scored
        ]

    def defaults(self, state: Any, wait: Wait, choice: str) -> Sequence[tuple[str, dict[str, Any]]]:
        if choice == NONE or wait.who is None:
            return ()
        return (("score", {"player": wait.who, "points": 0}),)

    def tell(self, state: Any, outcome: Any) -> str:
        if isinstance(outcome, Joined):
            return f"{outcome.player} joins"
        return f"{outcome.player} scores {outcome.points}"


RULESET = Turns()
