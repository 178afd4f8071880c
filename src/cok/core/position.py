"""How far a log was read, and the digest that identifies a file's content. Light: the
warm path of every command compares these without importing the log reader."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from hashlib import _Hash


def digest(data: bytes | memoryview) -> str:
    """What identifies a file's content: the campaign's files are compared by it, never by
    their size or modification time alone."""
    return running(data).hexdigest()


def running(data: bytes | memoryview) -> _Hash:
    """The digest of these bytes as an object that can go on: what is appended to a file
    is then hashed alone, never the whole file again."""
    return hashlib.sha256(data)


@dataclass(frozen=True)
class Position:
    """How far the log was read: its content's digest, size and lines, and how its list is
    written (the column of its items; the span of a bare `[]`)."""

    digest: str
    size: int
    lines: int
    item_column: int = 0
    empty_flow: tuple[int, int] | None = None

    @classmethod
    def of(cls, raw: bytes, item_column: int = 0, empty_flow: tuple[int, int] | None = None) -> Position:
        return cls(digest(raw), len(raw), raw.count(b"\n"), item_column, empty_flow)

    def after(self, appended: bytes, hashed: _Hash) -> Position:
        """The position once `appended` is written at the end of the bytes read, `hashed`
        being their running digest (left as it is): what `of` would say of the whole file,
        from the new bytes alone. Only for a block list: an empty `[]` is rewritten, not
        appended to."""
        if self.empty_flow is not None:
            raise ValueError("a log written as `[]` is rewritten when appended to")
        grown = hashed.copy()
        grown.update(appended)
        size, lines = self.size + len(appended), self.lines + appended.count(b"\n")
        return Position(grown.hexdigest(), size, lines, self.item_column)
