"""Showing views: with Rich at a terminal, as plain aligned text when piped.

Plain output keeps scripts and files free of colour codes and box drawing, and a piped
command never imports Rich. NO_COLOR at a terminal keeps Rich's layout without colour.
"""

from __future__ import annotations

import errno
import sys
from collections.abc import Iterable
from typing import Any, TextIO

from cok.core.text import for_terminal
from cok.render.views import Grid, Line, View


def at_terminal() -> bool:
    return sys.stdout is not None and sys.stdout.isatty()


def write(text: str) -> None:
    """Write to standard output (see `_stdout`)."""
    _stdout().write(text)


def _stdout() -> TextIO:
    """Standard output; OSError when it is closed (Python then has none)."""
    if sys.stdout is None:
        raise OSError(errno.EBADF, "standard output is closed")
    return sys.stdout


def show(*views: View | str) -> None:
    """Print each view: a Grid as a table, a Line (or a str) as a line of text."""
    items = [Line.of(v) if isinstance(v, str) else v for v in views]
    if at_terminal():
        _rich(items)
    else:
        _stdout().write("".join(_plain(item) for item in items))


def _plain(view: View) -> str:
    if isinstance(view, Line):
        return for_terminal(view.text) + "\n"
    return "\n".join(plain_grid(view)) + "\n"


def plain_grid(grid: Grid) -> list[str]:
    """The table as aligned text: two spaces between columns, numbers to the right."""
    headers = [name for name, _ in grid.columns]
    rows = [[for_terminal(cell.text, one_line=True) for cell in row] for row in grid.rows]
    widths = [max([len(h), *(len(r[i]) for r in rows)]) for i, h in enumerate(headers)]

    def line(cells: Iterable[str]) -> str:
        parts = [
            cell.rjust(width) if justify == "right" else cell.ljust(width)
            for cell, width, (_, justify) in zip(cells, widths, grid.columns, strict=True)
        ]
        return "  ".join(parts).rstrip()

    out = [for_terminal(grid.title), ""] if grid.title else []
    out += [line(headers), line("-" * w for w in widths), *(line(r) for r in rows)]
    if grid.caption:
        out += ["", for_terminal(grid.caption)]
    return out


def _rich(items: list[View]) -> None:
    from rich import box
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    console = Console(markup=False, highlight=False, emoji=False, soft_wrap=True)
    for item in items:
        if isinstance(item, Line):
            text = Text()
            for piece in item.pieces:
                text.append(for_terminal(piece.text), style=piece.style or "")
            console.print(text)
            continue
        table: Any = Table(
            title=for_terminal(item.title) if item.title else None,
            box=box.SIMPLE_HEAD,
            title_justify="left",
            title_style="bold",
            caption=for_terminal(item.caption) if item.caption else None,
            caption_justify="left",
        )
        for name, justify in item.columns:
            table.add_column(name, justify=justify)
        for row in item.rows:
            table.add_row(*(Text(for_terminal(cell.text, one_line=True), style=cell.style or "") for cell in row))
        console.print(table)
