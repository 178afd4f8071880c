"""The core's ledger never leaves a campaign's state holding what was not written (issue
#24): a dry run decides on a copy, and a batch refused half-way, or an append that fails,
puts the campaign back as its files are. A long-lived process keeps its campaign."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from cok.core import ledger
from cok.core.campaign import Campaign, open_campaign
from cok.core.errors import RuleError
from cok.core.plain import encode

from .conftest import event


def opened(folder: Path) -> Campaign:
    (folder / "events.yaml").write_text(
        "- type: join\n  player: tim\n  faction: martell\n  id: j1\n"
        "- type: join\n  player: matt\n  faction: lannister\n  id: j2\n"
    )
    return open_campaign(folder)


def adjust(player: str, cp: int) -> Any:
    return event({"type": "adjust", "player": player, "cp": cp, "reason": "ruling"})


def test_a_dry_run_leaves_the_campaigns_state_as_it_was(campaign: Path) -> None:
    found = opened(campaign)
    before = encode(found.state)
    done = ledger.record_all(found, [adjust("tim", 5)], dry_run=True)[0]
    assert done.state.bonus["tim"] == 5  # the copy it decided on
    assert encode(found.state) == before
    assert found.state is not done.state


def test_a_dry_run_of_a_batch_with_a_void_leaves_the_state_as_it_was(campaign: Path) -> None:
    found = opened(campaign)
    ledger.record_all(found, [adjust("tim", 5)])
    before = encode(found.state)
    void = event({"type": "void", "target": "j2", "reason": "left"})
    ledger.record_all(found, [void], dry_run=True)
    assert encode(found.state) == before


def test_a_batch_refused_half_way_leaves_the_state_as_it_was_and_writes_nothing(campaign: Path) -> None:
    found = opened(campaign)
    before, log = encode(found.state), (campaign / "events.yaml").read_text()
    refused = event({"type": "adjust", "player": "sara", "cp": 1, "reason": "who?"})
    with pytest.raises(RuleError, match="sara"):
        ledger.record_all(found, [adjust("tim", 5), adjust("matt", 2), refused])
    assert encode(found.state) == before
    assert (campaign / "events.yaml").read_text() == log


def test_a_failed_append_leaves_the_state_as_the_log_is(campaign: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    found = opened(campaign)
    before = encode(found.state)

    def full(*args: Any, **kwargs: Any) -> bytes:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(ledger, "append", full)
    with pytest.raises(OSError):
        ledger.record_all(found, [adjust("tim", 5)])[0]
    assert encode(found.state) == before


def test_a_single_refused_event_changes_nothing_without_reopening(
    campaign: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    found = opened(campaign)
    state = found.state
    monkeypatch.setattr(ledger, "open_campaign", lambda *a, **k: pytest.fail("reopened"))
    with pytest.raises(RuleError):
        ledger.record_all(found, [adjust("sara", 1)])
    assert found.state is state


def test_a_recording_changes_the_state_in_place_once_written(campaign: Path) -> None:
    found = opened(campaign)
    done = ledger.record_all(found, [adjust("tim", 5)], by="sara")[0]
    assert found.state.bonus["tim"] == 5 and done.campaign is found
    assert done.event.by == "sara"
