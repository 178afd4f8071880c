"""A campaign kept warm for a long-lived process (issue #24): never a state changed without
a write, reused only while its files are unchanged, safe from several threads at once."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest

from cok.core.campaign import open_campaign
from cok.core.errors import Refused
from cok.service import Asked, Draft, Ledger, Who, record
from tests.states import same_data

from .conftest import log_of, shipped

ORGANISER = Who("org", organiser=True)


def plain(state: Any) -> Any:
    """The state as plain data: what it holds, whatever objects hold it."""
    return same_data(state)


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


def test_stamps_taken_within_a_clock_tick_of_a_change_are_not_trusted() -> None:
    from cok.service.ledger import RACY_NS, _trusted

    changed = 10**18
    assert not _trusted(((1, 2, 3, changed, changed),), changed + RACY_NS // 2)
    assert _trusted(((1, 2, 3, changed, changed),), changed + 2 * RACY_NS)
    assert not _trusted(((1, 2, 3, changed, changed), None), changed + 2 * RACY_NS)


def test_a_log_this_process_appended_to_is_proved_unchanged_by_its_seal_without_reading_it(
    two: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from cok.core import campaign as opening

    ledger = Ledger(two)
    ledger.record([adjust("tim", 2)], by=ORGANISER)
    warm = ledger.campaign()
    streamed: list[Path] = []
    real = opening.stream
    monkeypatch.setattr(opening, "stream", lambda path, *a: streamed.append(path) or real(path, *a))
    assert warm.unchanged() is not None
    assert streamed == []


def test_a_sealed_log_appended_to_by_another_command_is_read_again(two: Path) -> None:
    ledger = Ledger(two)
    ledger.record([adjust("tim", 2)], by=ORGANISER)
    warm = ledger.campaign()
    record(two, [adjust("matt", 4)], by=ORGANISER, use_cache=False)  # the command line, at once
    assert warm.unchanged() is None
    done = ledger.record([adjust("tim", 1)], by=ORGANISER)
    assert done.campaign.state.bonus == {"tim": 3, "matt": 4}
    assert log_of(two).count("type: adjust") == 3


def test_a_same_size_edit_of_what_this_process_appended_is_seen_even_within_a_clock_tick(
    two: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from cok.core import campaign as opening

    ledger = Ledger(two)
    ledger.record([adjust("tim", 2)], by=ORGANISER)
    warm = ledger.campaign()
    log = two / "events.yaml"
    seal = opening.stamp(log)
    log.write_text(log_of(two).replace("cp: 2", "cp: 7"))
    monkeypatch.setattr(opening, "stamp", lambda path: seal)  # a clock that did not move: the times say nothing
    assert warm.unchanged() is None


def test_a_recording_replaces_the_warm_state_and_never_changes_one_a_reader_holds(two: Path) -> None:
    ledger = Ledger(two)
    held = ledger.campaign().state  # a page being drawn in another thread
    before = plain(held)
    ledger.record([adjust("tim", 3)], by=ORGANISER)
    assert plain(held) == before
    assert ledger.campaign().state is not held and ledger.campaign().state.bonus["tim"] == 3


def test_a_recording_whose_cache_write_was_skipped_is_read_again_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from cok.core import campaign as opening

    folder = shipped(tmp_path, "example")
    ledger = Ledger(folder)
    assert ledger.campaign()._history is None  # the history is read from the cache's rows
    monkeypatch.setattr(opening, "save_campaign", lambda *a, **k: None)  # another command held the cache
    done = ledger.record([adjust("tim", 2)], by=ORGANISER)
    monkeypatch.undo()
    assert ledger.campaign().history()[-1].id == done.events[0].id


def test_a_ledger_whose_readers_hold_its_lock_changes_the_state_in_place(two: Path) -> None:
    ledger = Ledger(two, replace_state=False)
    with ledger.lock:
        held = ledger.campaign().state
    ledger.record([adjust("tim", 3)], by=ORGANISER)
    assert ledger.campaign().state is held and held.bonus["tim"] == 3
    before = plain(held)
    with pytest.raises(Asked):  # and a refusal or a question still leaves it as it was
        ledger.record(
            [adjust("tim", 1), Draft("battle", {"players": ["tim", "matt"], "location": "Tarth"})], by=ORGANISER
        )
    assert plain(held) == before


def cached_size(folder: Path) -> int:
    from cok.core.cache import load_entry

    entry = load_entry(folder)
    assert entry is not None
    return int(entry["log"]["size"])


def test_a_recording_kept_warm_writes_its_state_to_the_cache_only_once_recordings_pause(
    two: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from cok.service import ledger as warm

    monkeypatch.setattr(warm, "IDLE", 3600.0)  # never on its own during the test
    ledger = Ledger(two)
    ledger.campaign()
    before = cached_size(two)
    ledger.record([adjust("tim", 2)], by=ORGANISER)
    assert cached_size(two) == before
    ledger.save()
    assert cached_size(two) == (two / "events.yaml").stat().st_size


def test_the_warm_state_is_written_to_the_cache_when_no_recording_follows(
    two: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import time

    from cok.service import ledger as warm

    monkeypatch.setattr(warm, "IDLE", 0.05)
    ledger = Ledger(two)
    ledger.record([adjust("tim", 2)], by=ORGANISER)
    deadline = time.monotonic() + 10
    while cached_size(two) != (two / "events.yaml").stat().st_size and time.monotonic() < deadline:
        time.sleep(0.02)
    assert cached_size(two) == (two / "events.yaml").stat().st_size


def test_a_command_that_reads_while_the_cache_lags_sees_every_recording(
    two: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from cok.service import ledger as warm

    monkeypatch.setattr(warm, "IDLE", 3600.0)
    ledger = Ledger(two)
    ledger.record([adjust("tim", 2)], by=ORGANISER)
    ledger.record([adjust("matt", 3)], by=ORGANISER)
    elsewhere = open_campaign(two)  # the command line, from the cache the server wrote
    assert (elsewhere.state.bonus["tim"], elsewhere.state.bonus["matt"]) == (2, 3)
    assert [t.type for t in elsewhere.history()][-2:] == ["adjust", "adjust"]
    done = ledger.record([adjust("tim", 1)], by=ORGANISER)  # the server goes on after it
    assert plain(done.campaign.state) == plain(open_campaign(two, use_cache=False).state)
    assert [t.id for t in ledger.campaign().history()] == [t.id for t in open_campaign(two, use_cache=False).history()]
