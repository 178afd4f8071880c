"""A campaign kept warm for a long-lived process (issue #24): never a state changed without
a write, reused only while its files are unchanged, safe from several threads at once."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest

from cok.core.campaign import open_campaign
from cok.core.errors import Refused
from cok.core.plain import encode
from cok.service import Asked, Draft, Ledger, Who, record

from .conftest import log_of

ORGANISER = Who("org", organiser=True)


def plain(state: Any) -> Any:
    """The state as plain data: what it holds, whatever objects hold it."""
    return encode(state)


def adjust(player: str, cp: int = 1) -> Draft:
    return Draft("adjust", {"player": player, "cp": cp, "reason": "a ruling"})


def test_a_dry_run_leaves_the_warm_state_as_it_was(two: Path) -> None:
    ledger = Ledger(two)
    before = plain(ledger.campaign().state)
    done = ledger.record([adjust("tim", 5)], by=ORGANISER, dry_run=True)
    assert done.document["cp"] == {"tim": {"before": 10, "after": 15}}
    assert plain(ledger.campaign().state) == before


def test_a_batch_refused_half_way_leaves_the_warm_state_as_it_was(two: Path) -> None:
    ledger = Ledger(two)
    warm = ledger.campaign()
    before = plain(warm.state)
    refused = Draft("battle", {"players": ["tim", "matt"], "location": "Tarth", "attacker": "tim"})
    with pytest.raises(Refused):
        ledger.record([adjust("tim", 5), adjust("matt", 2), refused], by=ORGANISER)
    assert plain(warm.state) == before
    assert plain(ledger.campaign().state) == before


def test_a_batch_whose_last_event_asks_a_question_leaves_the_state_as_it_was(two: Path) -> None:
    ledger = Ledger(two)
    warm = ledger.campaign()
    before = plain(warm.state)
    asking = Draft("battle", {"players": ["tim", "matt"], "location": "Tarth", "winner": "tim"})
    with pytest.raises(Asked):
        ledger.record([adjust("tim", 5), asking], by=ORGANISER)
    assert plain(warm.state) == before


def test_a_recording_is_kept_warm_and_reads_as_the_files_do(two: Path) -> None:
    ledger = Ledger(two)
    ledger.record([adjust("tim", 3)], by=ORGANISER)
    warm = ledger.campaign()
    assert warm.state.bonus["tim"] == 3
    assert plain(warm.state) == plain(open_campaign(two, use_cache=False).state)


def test_a_campaign_unchanged_is_reused_and_a_changed_one_is_read_again(two: Path) -> None:
    ledger = Ledger(two)
    first = ledger.campaign()
    assert ledger.campaign() is first
    record(two, [adjust("matt", 4)], by=ORGANISER)  # another writer: the command line
    again = ledger.campaign()
    assert again.state.bonus["matt"] == 4


def test_a_same_size_edit_of_the_log_is_seen(two: Path) -> None:
    ledger = Ledger(two)
    assert ledger.campaign().state.players["tim"].name == "Tim"
    text = log_of(two)
    (two / "events.yaml").write_text(text.replace("name: Tim", "name: Kit"))
    assert ledger.campaign().state.players["tim"].name == "Kit"


def test_a_file_touched_but_not_changed_is_proved_unchanged_and_kept(two: Path) -> None:
    ledger = Ledger(two)
    first = ledger.campaign()
    (two / "events.yaml").write_text(log_of(two))
    assert ledger.campaign() is first


def test_recordings_from_many_threads_all_land_each_once(two: Path) -> None:
    ledger = Ledger(two)
    errors: list[BaseException] = []

    def one(n: int) -> None:
        try:
            ledger.record([adjust("tim" if n % 2 else "matt", 1)], by=ORGANISER)
        except BaseException as error:
            errors.append(error)

    threads = [threading.Thread(target=one, args=(n,)) for n in range(12)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert log_of(two).count("type: adjust") == 12
    state = ledger.campaign().state
    assert (state.bonus["tim"], state.bonus["matt"]) == (6, 6)
    assert plain(state) == plain(open_campaign(two, use_cache=False).state)
