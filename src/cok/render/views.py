"""What the commands show, as plain values: tables of cells and lines of styled text.

`render.output` shows them with Rich at a terminal and as plain aligned text otherwise,
so the views know nothing of Rich (and a piped command never imports it).
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Cell:
    text: str
    style: str | None = None


@dataclass
class Grid:
    """A table: a title, columns (name, justification: left, right, or fixed — left and
    never wrapped, for ids), rows of cells, maybe a caption."""

    title: str | None
    columns: list[tuple[str, str]]
    rows: list[list[Cell]] = field(default_factory=list)
    caption: str | None = None

    def add(self, *cells: str | Cell) -> None:
        self.rows.append([c if isinstance(c, Cell) else Cell(c) for c in cells])


@dataclass(frozen=True)
class Line:
    """A line of text, in pieces that may each have a style."""

    pieces: tuple[Cell, ...]

    @classmethod
    def of(cls, text: str, style: str | None = None) -> Line:
        return cls((Cell(text, style),))

    @property
    def text(self) -> str:
        return "".join(piece.text for piece in self.pieces)


View = Grid | Line
