"""How far a log was read, and the digest that identifies a file's content. Light: the
warm path of every command compares these without importing the log reader."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass


def digest(data: bytes | memoryview) -> str:
    """What identifies a file's content: the campaign's files are compared by it, never by
    their size or modification time alone."""
    return hashlib.sha256(data).hexdigest()


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
