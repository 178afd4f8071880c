"""The fold: state = every event of the log applied in order, voided ones left out.

Ruleset-agnostic: a ruleset gives the initial state and `apply(state, event)`;
voiding is a property of the log, handled here for every ruleset.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from cok.errors import Problem, RuleError
from cok.eventlog import Recorded
from cok.events import Event, Void

S = TypeVar("S")


@dataclass(frozen=True)
class Voided:
    """What a void did: the target is left out of the replay."""

    target: str
    reason: str


@dataclass
class Replay(Generic[S]):
    state: S
    history: list[tuple[Recorded, object]] = field(default_factory=list)
    voided: dict[str, Recorded] = field(default_factory=dict)  # id -> the void event
    problems: list[Problem] = field(default_factory=list)


def voided_ids(records: Sequence[Recorded], shown: str) -> tuple[dict[str, Recorded], list[Problem]]:
    """Which events are voided, and by which void; problems with ids and voids."""
    seen: dict[str, Recorded] = {}
    voided: dict[str, Recorded] = {}
    problems: list[Problem] = []
    for record in records:
        event = record.event
        if isinstance(event, Void):
            target = seen.get(event.target)
            if target is None:
                problems.append(Problem(shown, record.line, f"void: no earlier event has the id {event.target!r}"))
            elif isinstance(target.event, Void):
                problems.append(
                    Problem(shown, record.line, f"void: {event.target!r} is a void, which cannot be voided")
                )
            elif event.target in voided:
                line = voided[event.target].line
                problems.append(
                    Problem(shown, record.line, f"void: {event.target!r} is already voided (on line {line})")
                )
            else:
                voided[event.target] = record
        if event.id is not None:
            if event.id in seen:
                line = seen[event.id].line
                problems.append(
                    Problem(shown, record.line, f"the id {event.id!r} is already used by the event on line {line}")
                )
            else:
                seen[event.id] = record
    return voided, problems


def replay(
    records: Sequence[Recorded],
    state: S,
    apply: Callable[[S, Event], object],
    shown: str,
    history: bool = True,
) -> Replay[S]:
    """Apply every event in order. A refused event is reported and skipped, so that every
    problem in the log is found in one pass (as `cok check` promises). Without `history`,
    the outcomes are not kept (only `cok log` needs them)."""
    voided, problems = voided_ids(records, shown)
    result: Replay[S] = Replay(state, voided=voided, problems=problems)
    for record in records:
        event = record.event
        if event.id is not None and event.id in voided:
            continue
        if isinstance(event, Void):
            if event.target in voided and voided[event.target] is record:
                result.history.append((record, Voided(event.target, event.reason)))
            continue
        try:
            outcome = apply(state, event)
        except RuleError as exc:
            result.problems.append(Problem(shown, record.line, f"{_label(event)}: {exc}"))
            continue
        if history:
            result.history.append((record, outcome))
    result.problems.sort(key=lambda p: (p.line is None, p.line or 0))
    return result


def _label(event: Event) -> str:
    """How an error names the event: `battle at Starfall`, `join tim`, `week`."""
    location = getattr(event, "location", None)
    if location is not None:
        return f"{event.type} at {location}"
    player = getattr(event, "player", None)
    return f"{event.type} {player}" if player is not None else event.type
