"""Recording reads the log once under the lock, and still notices what changed since the
campaign was opened: the new position, the fresh id and the cache come from those bytes."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cok.core import campaign as campaign_module
from cok.core import write
from cok.core.cache import load_entry
from cok.core.campaign import Streamed, open_campaign, stream
from cok.core.ledger import record_all
from cok.core.position import Position, digest, running
from cok.rulesets.clash_of_kings.events import Adjust

from .conftest import Cok


@given(before=st.binary(max_size=200), appended=st.binary(max_size=200), column=st.integers(0, 4))
def test_the_position_after_an_append_is_what_reading_the_whole_log_says(
    before: bytes, appended: bytes, column: int
) -> None:
    hashed = running(before)
    assert Position.of(before, column).after(appended, hashed) == Position.of(before + appended, column)
    assert hashed.hexdigest() == digest(before)  # the running digest is left as it was


def test_the_position_of_an_empty_flow_list_is_never_extended() -> None:
    with pytest.raises(ValueError, match="rewritten"):
        Position.of(b"[]\n", 0, (0, 2)).after(b"- type: week\n", running(b"[]\n"))


@settings(max_examples=300, deadline=None)
@given(
    data=st.binary(max_size=200),
    size=st.integers(0, 220),
    chunk=st.integers(1, 9),
    picks=st.lists(st.tuples(st.integers(0, 200), st.integers(1, 12)), max_size=3),
    other=st.binary(min_size=1, max_size=5),
)
def test_streaming_the_log_says_what_reading_it_whole_says(
    data: bytes, size: int, chunk: int, picks: list[tuple[int, int]], other: bytes
) -> None:
    looking_for = {data[at : at + length] for at, length in picks if data[at : at + length]} | {other}
    with tempfile.TemporaryDirectory() as folder, pytest.MonkeyPatch.context() as patched:
        patched.setattr(campaign_module, "CHUNK", chunk)  # texts across many chunks' edges
        path = Path(folder) / "events.yaml"
        path.write_bytes(data)
        read = stream(path, size, looking_for)
    assert read is not None
    assert read.hashed.hexdigest() == digest(data[:size])
    assert read.last == data[:size][-1:]
    assert read.rest == data[size:]
    assert read.found == {text for text in looking_for if text in data[:size]}


def test_a_missing_log_streams_as_an_empty_one(tmp_path: Path) -> None:
    read = stream(tmp_path / "events.yaml", 0, [b"abc"])
    assert read is not None and (read.hashed.hexdigest(), read.rest, read.found) == (digest(b""), b"", frozenset())


def log_reads(monkeypatch: pytest.MonkeyPatch, log: Path) -> list[str]:
    """Note every read of the log file: "whole" (through either way cok reads a whole
    file) or "streamed" (a chunk at a time)."""
    reads: list[str] = []
    real_read_bytes, real_path_read_bytes, real_stream = campaign_module.read_bytes, Path.read_bytes, stream

    def counted(path: Path, what: str) -> bytes:
        reads.extend(["whole"] if path == log else [])
        return real_read_bytes(path, what)

    def path_counted(path: Path) -> bytes:
        reads.extend(["whole"] if path == log else [])
        return real_path_read_bytes(path)

    def streamed(path: Path, *args: Any) -> Streamed | None:
        reads.extend(["streamed"] if path == log else [])
        return real_stream(path, *args)

    monkeypatch.setattr(campaign_module, "read_bytes", counted)
    monkeypatch.setattr(Path, "read_bytes", path_counted)
    monkeypatch.setattr(campaign_module, "stream", streamed)
    return reads


def test_a_warm_open_streams_the_log_and_never_holds_it_whole(example: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    open_campaign(example)  # the cache is written
    with monkeypatch.context() as patched:
        reads = log_reads(patched, example / "events.yaml")
        opened = open_campaign(example)
    assert reads == ["streamed"]
    assert opened.position == Position.of((example / "events.yaml").read_bytes(), opened.position.item_column)


def test_recording_streams_the_log_once_under_the_lock(example: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    open_campaign(example)  # the cache is written
    opened = open_campaign(example)
    with monkeypatch.context() as patched:
        reads = log_reads(patched, example / "events.yaml")
        done = record_all(opened, [Adjust(player="tim", cp=1, reason="once")])[0]
    assert reads == ["streamed"]
    data = (example / "events.yaml").read_bytes()
    assert done.campaign.position == Position.of(data, opened.position.item_column)
    entry = load_entry(example)
    assert entry is not None and entry["log"]["digest"] == digest(data)
    assert Cok(example)("standings", "--json").stdout == Cok(example)("standings", "--json", "--no-cache").stdout


def test_a_same_size_edit_between_opening_and_recording_is_noticed(example: Path) -> None:
    open_campaign(example)
    opened = open_campaign(example)
    log = example / "events.yaml"
    before = log.stat()
    data = log.read_bytes()
    assert data.count(b"cp: 1\n") == 1
    with open(log, "r+b") as handle:  # same size, same inode, the old mtime put back
        handle.write(data.replace(b"cp: 1\n", b"cp: 5\n", 1))
    os.utime(log, ns=(before.st_atime_ns, before.st_mtime_ns))
    done = record_all(opened, [Adjust(player="tim", cp=1, reason="after an edit")])[0]
    assert done.campaign is not opened  # opened again from the files as they are now
    fresh = open_campaign(example, use_cache=False)
    assert done.campaign.state.bonus == fresh.state.bonus
    assert Cok(example)("standings", "--json").stdout == Cok(example)("standings", "--json", "--no-cache").stdout


def test_a_fresh_id_is_never_one_the_log_mentions(example: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    opened = open_campaign(example)
    taken = next(iter(opened.ids()))
    offered = iter([taken, "0123456789ab"])
    monkeypatch.setattr(write, "new_id", lambda: next(offered))
    done = record_all(opened, [Adjust(player="tim", cp=1, reason="fresh")])[0]
    assert done.event.id == "0123456789ab"
    assert (example / "events.yaml").read_bytes().count(taken.encode()) >= 1
