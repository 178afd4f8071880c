"""Issue 34, "Pages and recordings see one state": an event is built under the lock, on the
state the rules decide on; a page is made from one whole state while recordings go on."""

from __future__ import annotations

from pathlib import Path

from cok.core.campaign import open_campaign
from cok.service import Draft, record

from .conftest import log_of


def test_a_draft_is_built_on_the_state_the_rules_decide_on_not_one_read_before_the_lock(two: Path) -> None:
    warm = open_campaign(two)  # a server's campaign, read before a terminal records
    record(two, [Draft("join", {"player": "sara", "name": "Sara", "faction": "stark"})], by="ann")
    done = record(two, [Draft("adjust", {"player": "Sara", "cp": 1, "reason": "late"})], by="ann", campaign=warm)
    assert done.written and done.events[0].player == "sara"  # type: ignore[attr-defined]
    assert log_of(two).count("player: sara") == 2
