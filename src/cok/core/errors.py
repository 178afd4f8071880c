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

    def __post_init__(self) -> None:
        """A message quoting a huge value (a 1 MB line of the log) is cut to a readable length."""
        from cok.core.text import readable

        object.__setattr__(self, "message", readable(self.message))

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


def after_the_first(misread: list[Problem], refused: list[Problem]) -> list[Problem]:
    """For a game whose every event depends on the ones before it (whose turn it is), every
    event the rules refused after the log's first problem may follow from it; an event
    misread (a typo in its own fields) is a problem of its own wherever it is."""
    import dataclasses

    lines = [p.line for p in [*misread, *refused] if p.line is not None]
    if not lines:
        return [*misread, *refused]
    first = min(lines)
    return [*misread, *(dataclasses.replace(p, cause=first) if (p.line or 0) > first else p for p in refused)]


def told(problems: list[Problem]) -> list[str]:
    """The problems as `cok check` says them, a line each: every cause (and every problem
    that stands alone), and after a cause how many later events may only be refused because
    of it — not each of them (`--json` lists them all, with `follows_from`)."""
    from cok.core.text import counted

    causes = {p.line: p.cause for p in problems if p.line is not None}
    roots = {p.line for p in problems if p.cause is None}

    def root(line: int) -> int | None:  # a cause that itself follows from another: the first
        seen = set()
        while line not in roots and causes.get(line) is not None and line not in seen:
            seen.add(line)
            line = causes[line]  # type: ignore[assignment]
        return line if line in roots else None

    following: dict[int, int] = {}
    for problem in problems:
        first = root(problem.cause) if problem.cause is not None else None
        if first is not None:
            following[first] = following.get(first, 0) + 1
    lines: list[str] = []
    said: set[int | None] = set()
    for problem in problems:
        if problem.cause is not None and root(problem.cause) is not None:
            continue
        lines.append(str(problem))
        if problem.cause is None and problem.line in following and problem.line not in said:
            said.add(problem.line)
            n = counted(following[problem.line], "later event depends", "later events depend")
            where = Problem(problem.file, problem.line, f"{n} on it: fix it first (`cok check --json` lists them)")
            lines.append(str(where))  # `file:line: …` as every line `cok check` says
    return lines


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

    `hint`: what the one recording it may do instead (an organiser's ruling), said when
    recording, not by `cok check`. `logged`: what to do about such an event already in the
    log (recorded before the rule was applied so), `{ref}` standing for the event's id: the
    replay adds it to the message, a new event's refusal does not."""

    hint: str | None = None
    logged: str | None = None

    def with_hint(self) -> str:
        """The message, and the hint when there is one."""
        return f"{self}; {self.hint}" if self.hint else str(self)


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


class ConfirmNeeded(RuleError):
    """The event is allowed but unusual enough to be a mistake (a points limit that goes
    down): recorded once confirmed (`field`: true among the answers). The CLI warns, and
    at a terminal asks."""

    def __init__(self, message: str, field: str) -> None:
        super().__init__(message)
        self.field = field
