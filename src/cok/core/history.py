"""The history in words: what a void did, and one event of the log as `cok log` and the
site show it. Plain values, so that the cache can keep them and no replay is needed to
tell the history."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Voided:
    """What a void did: the target is left out of the replay."""

    target: str
    reason: str


@dataclass(frozen=True)
class Diced:
    """What a dice event did (a commitment, a reveal, a seed lost): nothing to the game's
    state; its sentence is the core's (docs/dice.md)."""

    text: str


@dataclass(frozen=True)
class Word:
    """What a confirmation, a dispute or a settling did (docs/confirm.md): nothing to the
    game's state, only how its result is shown; its sentence is the core's."""

    text: str


@dataclass(frozen=True, slots=True)
class Told:
    """One event of the log as `cok log` and the site show it (plain data, so it can be
    kept in the cache: a replay is not needed to tell the history)."""

    line: int
    id: str | None
    ref: str | None  # how `cok void` names it: the id, or `=digest` for an event without one
    type: str
    text: str
    voided: bool
    players: tuple[str, ...]
    event: dict[str, Any]
