"""Showing views: with Rich at a terminal, as plain aligned text when piped.

Plain output keeps scripts and files free of colour codes and box drawing, and a piped
command never imports Rich. NO_COLOR (https://no-color.org) at a terminal is `--color never`:
Rich's layout without a single escape code; `--color always|never` overrides both (`always`
styles even piped output). Piped lines of text are wrapped at $COLUMNS when it is set. Long output at
a terminal goes through a pager, as git does it: $COK_PAGER, else $PAGER, else `less -FRX`.
"""

from __future__ import annotations

import errno
import os
import sys
from collections.abc import Iterable
from typing import Any, TextIO

from cok.core.text import for_terminal
from cok.render.views import Grid, Line, View

#: `--color`: auto (at a terminal, unless NO_COLOR), always, never.
COLORS = ("auto", "always", "never")
_color = "auto"


def set_color(mode: str) -> None:
    global _color
    _color = mode


def at_terminal() -> bool:
    return sys.stdout is not None and sys.stdout.isatty()


def styled() -> bool:
    """Rich's tables and colours: at a terminal, or anywhere with --color always."""
    return _color == "always" or at_terminal()


def _plain_terminal() -> bool:
    """No escape codes at all: `--color never`, or NO_COLOR set (not empty) without `--color always`."""
    return _color == "never" or (_color == "auto" and bool(os.environ.get("NO_COLOR")))


def _columns() -> int | None:
    """The width piped text is wrapped at: $COLUMNS when set to a number, else none."""
    given = os.environ.get("COLUMNS", "")
    return int(given) if given.isdigit() and int(given) >= 20 else None


def pager() -> str | None:
    """The pager command for long output at a terminal: $COK_PAGER, else $PAGER, else
    `less -FRX` (which quits at once when the text fits the screen); None for none."""
    for name in ("COK_PAGER", "PAGER"):
        if name in os.environ:
            chosen = os.environ[name].strip()
            return None if chosen in ("", "cat") else chosen
    return "less -FRX"


def write(text: str) -> None:
    """Write to standard output (see `_stdout`)."""
    _stdout().write(text)


def write_lines(lines: Iterable[str], per_write: int = 2048) -> int:
    """Write plain lines (made safe for a terminal) as they come, a block at a time; how
    many were written. For output too long to hold whole (the log of a long campaign)."""
    out = _stdout()
    block: list[str] = []
    count = 0
    for line in lines:
        block.append(for_terminal(line) + "\n")
        count += 1
        if len(block) >= per_write:
            out.write("".join(block))
            block.clear()
    out.write("".join(block))
    return count


def _stdout() -> TextIO:
    """Standard output; OSError when it is closed (Python then has none)."""
    if sys.stdout is None:
        raise OSError(errno.EBADF, "standard output is closed")
    return sys.stdout


def show(*views: View | str, page: bool = False) -> None:
    """Print each view: a Grid as a table, a Line (or a str) as a line of text. With
    `page`, long output at a terminal goes through the pager (never when piped)."""
    items = [Line.of(v) if isinstance(v, str) else v for v in views]
    if not styled():
        _stdout().write("".join(_plain(item) for item in items))
        return
    command = pager() if page and at_terminal() else None
    if command is None:
        _rich(items, _console())
        return
    import io

    buffer = io.StringIO()
    _rich(items, _console(buffer, force_terminal=True))
    _page(command, buffer.getvalue())


def _page(command: str, text: str) -> None:
    """Hand the text to the pager (through the shell, as git does); printed as it is when
    the pager cannot be started. A reader who quits early is no error."""
    import subprocess  # only at a terminal, for long output: piped output never pages

    env = dict(os.environ)
    env.setdefault("LESS", "FRX")
    try:
        with subprocess.Popen(command, shell=True, stdin=subprocess.PIPE, env=env) as proc:
            assert proc.stdin is not None
            try:
                proc.stdin.write(text.encode("utf-8", "replace"))
                proc.stdin.close()
            except BrokenPipeError:
                pass
    except OSError:
        _stdout().write(text)


def _console(file: TextIO | None = None, *, force_terminal: bool | None = None) -> Any:
    import shutil

    from rich.console import Console

    width = shutil.get_terminal_size().columns if file is not None else None  # for a pager: the terminal's
    return Console(
        file=file,
        markup=False,
        highlight=False,
        emoji=False,
        soft_wrap=False,
        force_terminal=True if _color == "always" or at_terminal() else force_terminal,
        no_color=False if _color == "always" else None,
        color_system=None if _plain_terminal() else "auto",  # never: no escape codes at all, not even bold
        width=width,
    )


def _plain(view: View) -> str:
    if isinstance(view, Line):
        return _wrapped(for_terminal(view.text)) + "\n"
    return "\n".join(plain_grid(view)) + "\n"


def _wrapped(text: str) -> str:
    """A line of piped text wrapped at $COLUMNS when set (a table's rows never are: one row a
    line, for grep); words are never broken, and each line's indent is kept."""
    width = _columns()
    if width is None or len(text) <= width:
        return text
    import textwrap

    out = []
    for line in text.split("\n"):
        indent = line[: len(line) - len(line.lstrip())]
        out += textwrap.wrap(line, width, subsequent_indent=indent, break_long_words=False, break_on_hyphens=False) or [
            line
        ]
    return "\n".join(out)


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

    out = [_wrapped(for_terminal(grid.title)), ""] if grid.title else []
    out += [line(headers), line("-" * w for w in widths), *(line(r) for r in rows)]
    if grid.caption:
        out += ["", _wrapped(for_terminal(grid.caption))]
    return out


def _rich(items: list[View], console: Any) -> None:
    from rich import box
    from rich.table import Table
    from rich.text import Text

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
            collapse_padding=True,  # one space between columns, not two: 80 columns hold more
            pad_edge=False,
        )
        for name, justify in item.columns:  # "fixed": left, and never wrapped (an id)
            fixed = justify == "fixed"
            table.add_column(name, justify="left" if fixed else justify, no_wrap=fixed, overflow="fold")
        for row in item.rows:
            table.add_row(*(Text(for_terminal(cell.text, one_line=True), style=cell.style or "") for cell in row))
        console.print(table)
