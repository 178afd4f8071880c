"""Every read sees every write (issue #45): `cok log --json` run just after a server's
recording was answered lists it, even while the server (its idle flush, written a second
after the recording) or another process holds the cache."""

from __future__ import annotations

import json

from filelock import FileLock

from cok.core import cache
from tests.conftest import Cok

from .conftest import Table


def test_cok_log_after_a_recording_through_the_api_lists_it_while_the_cache_is_being_written(table: Table) -> None:
    Cok(table.folder)("standings")  # the cache written: a terminal's command replays only the new events
    ids = []
    for reason in ("late", "later", "latest"):  # an organiser's adjustments, one after another
        adjust = {"type": "adjust", "player": "tim", "cp": 1, "reason": reason}
        answer = table.client.post("/api/events", json=adjust, headers=table.bearer(table.organiser))
        assert answer.status_code == 201, answer.text
        ids.append(answer.json()["id"])
        entry = cache.entry_file(table.folder)
        assert entry is not None
        with FileLock(entry.with_suffix(".lock"), timeout=0):  # the server writing its cache now
            listed = [e["id"] for e in json.loads(Cok(table.folder)("log", "--json").stdout)["events"]]
        assert all(i in listed for i in ids), (ids, listed[-3:])
