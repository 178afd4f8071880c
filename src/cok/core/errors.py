"""Errors a user can act on: each names the file and line it comes from."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Problem:
    """One thing wrong with the user's files, located as precisely as we can."""

    file: str
    line: int | None
    message: str
    #: The line of an earlier refused event this problem probably follows from (the replay
    #: skipped that event, so what came after it may be refused only because of it).
    cause: int | None = None

    def __str__(self) -> str:
        """`file:line: message` on one line, as `cok check` promises."""
        from cok.core.text import for_terminal

        where = f"{self.file}:{self.line}" if self.line is not None else self.file
        after = f" [may follow from line {self.cause}]" if self.cause is not None else ""
        return for_terminal(f"{where}: {' '.join(self.message.split())}{after}", one_line=True)


def root_first(problems: list[Problem]) -> list[Problem]:
    """Problems in the log's order, each refused event's consequences right after it: the
    root of a chain of errors is read first, and what follows from it is read as such."""

    def key(problem: Problem) -> tuple[bool, int, int]:
        own = problem.line or 0
        return (problem.line is None, problem.cause if problem.cause is not None else own, own)

    return sorted(problems, key=key)


class Refused(Exception):
    """The data or the rules refused the command: exit code 1, nothing written."""

    def __init__(self, problems: list[Problem] | Problem | str) -> None:
        if isinstance(problems, str):
            problems = [Problem("cok", None, problems)]
        elif isinstance(problems, Problem):
            problems = [problems]
        self.problems = problems
        super().__init__("\n".join(str(p) for p in problems))


class RuleError(Exception):
    """A rule refused an event. Rules raise it with a plain message; the replay
    attaches the event's file and line.

    `logged`: what to do about such an event already in the log (recorded before the rule
    was applied so), `{ref}` standing for the event's id: the replay adds it to the message,
    a new event's refusal does not."""

    logged: str | None = None


def display_path(path: Path) -> str:
    """The path as a user would type it: relative to the current folder when inside it."""
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


class NumbersNeeded(RuleError):
    """The rules need a number for each of `keys` that the event did not give (the points
    remaining of both players of a tied game). The CLI asks for them at a terminal, and
    otherwise reports the message with the option to give them."""

    def __init__(self, message: str, field: str, keys: list[str], logged: str | None = None) -> None:
        super().__init__(message)
        self.field = field
        self.keys = keys
        self.logged = logged


class ChoiceNeeded(RuleError):
    """The rules need a decision the event did not make (which castle to abandon, who won
    the roll-off…).

    `field` names the event field that would carry it; `options` are the valid values;
    `decline` says whether `decline_field: false` (e.g. `occupy: false`) is also a valid
    answer. The CLI asks at a terminal, and otherwise reports the message with the options.
    """

    def __init__(
        self, message: str, field: str, options: list[str], decline: bool = False, decline_field: str = "occupy"
    ) -> None:
        super().__init__(message)
        self.field = field
        self.options = options
        self.decline = decline
        self.decline_field = decline_field


class Repeated(RuleError):
    """The event repeats one already recorded (the same battle twice): likely recorded twice
    by mistake. The CLI asks at a terminal, and otherwise refuses it without `--again`."""
