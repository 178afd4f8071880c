"""Progress of work that can take more than a second (reading and replaying a long log,
building the site), told to whoever shows it. The core only reports; the command line
shows it (Rich's progress, at a terminal only); by default nobody listens and it costs
nothing."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager

#: Moves a task to `done` units of its total.
Advance = Callable[[int], None]
#: Starts showing a task (what, total units or None when unknown); yields its Advance.
Shower = Callable[[str, "int | None"], AbstractContextManager[Advance]]

#: Below this many units a task is not worth showing (a small campaign replays in a blink).
WORTH_SHOWING = 5_000

_shower: Shower | None = None


def show_with(shower: Shower | None) -> None:
    """Who shows progress from now on (None: nobody)."""
    global _shower
    _shower = shower


def _nothing(done: int) -> None:
    """Nobody is watching."""


@contextmanager
def task(what: str, total: int | None, *, size: int | None = None) -> Iterator[Advance]:
    """A long piece of work: call the Advance it yields with the units done so far. `size`:
    how big the work is when its total is not known (the events a site is built from)."""
    big = total if total is not None else size
    if _shower is None or big is None or big < WORTH_SHOWING:
        yield _nothing
        return
    with _shower(what, total) as advance:
        yield advance
