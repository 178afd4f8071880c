"""Keeping a campaign in the replay cache: its state, and the rows of its ids and of its
history in words, written as `core.cache` stores them (the cache only stores and loads;
`core.campaign` decides whether what it holds still fits the campaign's files)."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from cok.core import cache

if TYPE_CHECKING:
    from cok.core.campaign import Campaign
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


def save_campaign(
    campaign: Campaign,
    *,
    new_ids: dict[str, int] | None = None,
    new_history: list[Told] | None = None,
    grown: bool = False,
    state: bool = True,
) -> None:
    """Keep the campaign in the cache (never one with problems). When the log only `grown`,
    only the new rows are appended — if the entry is still the write this campaign was read
    from (another command may have written since: then this one writes nothing). Without
    `state` (a long-lived process, after each recording), only the rows are: the entry, a
    pass over the whole state, is written later (`Campaign.save_state`). Meanwhile the entry
    says where the rows it knows end, and another command reading it replays the events
    after its position, as for any log that grew."""
    if campaign.problems:
        return
    from cok.core.plain import Blobs, encode

    folder = campaign.folder
    with cache.writing(folder) as held:
        if not held:
            return
        extents: dict[str, Any] = {}
        if grown:  # only if the entry is still the one this campaign was read from
            if campaign._version is None or cache.entry_version(folder) != campaign._version:
                return
            for kind, rows in (("ids", id_rows(new_ids or {})), ("history", history_rows(new_history or []))):
                old = campaign._extents.get(kind)
                if old is None:
                    return
                extents[kind] = cache.write_rows(cache.rows_file(folder, kind), rows, (old[0], old[1]))
        else:
            if campaign._ids is None or (campaign._history is None and campaign._history_rows is None):
                return
            extents["ids"] = cache.write_rows(cache.rows_file(folder, "ids"), id_rows(campaign._ids))
            if campaign._history_rows is not None:
                extents["history"] = campaign._history_rows.keep()
                campaign._history_rows = None
            else:
                assert campaign._history is not None
                extents["history"] = cache.write_rows(
                    cache.rows_file(folder, "history"), history_rows(campaign._history)
                )
        if any(extent is None for extent in extents.values()):
            return
        campaign._extents = {kind: list(extent) for kind, extent in extents.items()}
        campaign._behind = not state
        if not state:
            return
        position = campaign.position
        blobs = Blobs()
        try:
            with bulk():
                state = encode(campaign.state, campaign._kept, blobs)
        except TypeError:
            return
        texts = cache.save_entry(
            folder,
            {
                "ruleset": campaign.ruleset.id,
                "name": campaign.name,
                "settings": campaign.digests[0],
                "map_file": str(campaign.map_file),
                "map": campaign.digests[1],
                "log": {
                    "digest": position.digest,
                    "size": position.size,
                    "lines": position.lines,
                    "item_column": position.item_column,
                    "empty_flow": position.empty_flow,
                },
                "state": state,
                **campaign._extents,
            },
            blobs,
        )
        campaign._version = cache.entry_version(folder)
        campaign._kept = blobs.kept_after(texts)  # a state kept warm is written again only where it changed


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


def id_rows(ids: dict[str, int]) -> list[Any]:
    return [[i, line] for i, line in ids.items()]


def history_rows(history: list[Told]) -> list[Any]:
    return [history_row(t) for t in history]


def history_row(t: Told) -> list[Any]:
    return [t.line, t.id, t.ref, t.type, t.text, t.voided, list(t.players), t.event]
