"""The questions the rules ask before an event can be recorded, as data: the command line
turns one into a prompt or a `--flag` hint, the server into a 409 the phone answers."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from cok.core.errors import ChoiceNeeded, ConfirmNeeded, NumbersNeeded, Repeated, RuleError

Kind = Literal["choice", "numbers", "repeated", "confirm"]


@dataclass(frozen=True)
class Question:
    """A question the rules ask (ChoiceNeeded, NumbersNeeded, Repeated, ConfirmNeeded as
    data). The answer goes in `answers[field]`: one of `options` for a choice (or False in
    `decline_field`), {key: whole number} for numbers, True for repeated and confirm."""

    kind: Kind
    field: str  # the event field the answer goes to ("again" for repeated)
    words: str  # the rules' sentence, field names in backticks
    options: tuple[str, ...] = ()  # for "choice"
    keys: tuple[str, ...] = ()  # for "numbers": one whole number (0 or more) per key
    decline_field: str | None = None  # for a choice that may be declined (answer False there)


class Asked(Exception):
    """The rules need an answer before anything can be recorded: nothing was written."""

    def __init__(self, question: Question) -> None:
        super().__init__(question.words)
        self.question = question


def question(error: RuleError) -> Question | None:
    """The rules' question a refusal stands for, or None when it is a plain refusal."""
    words = str(error)
    if isinstance(error, Repeated):
        return Question("repeated", "again", words)
    if isinstance(error, ConfirmNeeded):
        return Question("confirm", error.field, words)
    if isinstance(error, NumbersNeeded):
        return Question("numbers", error.field, words, keys=tuple(error.keys))
    if isinstance(error, ChoiceNeeded):
        declined = error.decline_field if error.decline else None
        return Question("choice", error.field, words, options=tuple(error.options), decline_field=declined)
    return None
