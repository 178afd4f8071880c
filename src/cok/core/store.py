"""What a campaign keeps in the replay cache, as rows: its ids and its history in words,
written as `core.cache` stores them, and no cyclic garbage collection while a whole log is
handled (`bulk`). The campaign (`core.campaign`) decides what to keep and whether what the
cache holds still fits its files."""

from __future__ import annotations

import gc
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from cok.core.history import Told


@contextmanager
def bulk() -> Iterator[None]:
    """No cyclic garbage collection while a whole log is read, replayed and cached: that
    makes hundreds of thousands of objects that all stay alive, and the collector would
    scan them again and again (a quarter of a cold replay of 100,000 events). After, what
    was made goes straight to the oldest generation: else the first collection would still
    scan all of it once, young (10 ms for a cached state of 100,000 events)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()  # and at once back: frozen objects are never collected, old ones are
        gc.unfreeze()
        if enabled:
            gc.enable()


def told_of(row: list[Any]) -> Told:
    """A history row of the cache as the history keeps it; TypeError or ValueError when it
    is not one (then the cache is not trusted)."""
    from cok.core.history import Told

    line, event_id, ref, kind, text, voided, players, event = row
    if not (
        type(line) is int
        and type(kind) is str
        and type(text) is str
        and type(voided) is bool
        and type(players) is list
        and type(event) is dict
    ):
        raise TypeError("not a history row")
    return Told(line, event_id, ref, kind, text, voided, tuple(players), event)


def id_rows(ids: Mapping[str, int]) -> list[Any]:
    return [[i, line] for i, line in ids.items()]


def history_rows(history: list[Told]) -> list[Any]:
    return [history_row(t) for t in history]


def history_row(t: Told) -> list[Any]:
    return [t.line, t.id, t.ref, t.type, t.text, t.voided, list(t.players), t.event]
