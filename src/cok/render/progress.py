"""Progress shown with Rich on standard error, for the core's long tasks (`core.progress`):
at a terminal only, never when the output is piped or is a JSON document."""

from __future__ import annotations

import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

from cok.core.progress import Advance, show_with


def wanted(argv: Sequence[str]) -> bool:
    """Progress is for someone watching a terminal: both outputs are one, and no --json."""
    streams = (sys.stdout, sys.stderr)
    return "--json" not in argv and all(s is not None and s.isatty() for s in streams)


def install(argv: Sequence[str]) -> None:
    """Show the core's long tasks from now on, when someone is watching."""
    show_with(rich_task if wanted(argv) else None)


@contextmanager
def rich_task(what: str, total: int | None) -> Iterator[Advance]:
    """A transient progress bar (a spinner when the total is unknown) on standard error."""
    from rich.console import Console
    from rich.progress import BarColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

    progress = Progress(
        SpinnerColumn(),
        TextColumn("{task.description}"),
        BarColumn(),
        TextColumn("{task.percentage:>3.0f}%" if total else ""),
        TimeElapsedColumn(),
        console=Console(stderr=True),
        transient=True,
    )
    with progress:
        task_id = progress.add_task(what, total=total)
        yield lambda done: progress.update(task_id, completed=done)
