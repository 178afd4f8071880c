"""Issue 37: what the first page after a recording asks of a long log costs what the
recording added, not the log's length: whether it mentions a dispute is read from where it
was last read, and the campaign a recording makes shares the ids read with the one before."""

from __future__ import annotations

import io
import os
from pathlib import Path
from typing import Any

import pytest

from cok.core import folders
from cok.core.campaign import Ids
from cok.service import confirming


class _Counted(io.BufferedReader):
    read_bytes = 0

    def read(self, size: int | None = -1) -> bytes:  # type: ignore[override]
        data = super().read(size)
        _Counted.read_bytes += len(data)
        return data


def _counting(monkeypatch: pytest.MonkeyPatch) -> None:
    def opened(path: Any, mode: str = "r", *args: Any, **kw: Any) -> Any:
        assert mode == "rb"
        return _Counted(io.FileIO(path, "rb"))

    monkeypatch.setattr(confirming, "open", opened, raising=False)


def test_whether_a_grown_log_mentions_a_dispute_is_read_from_where_it_was_last_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    log = tmp_path / "events.yaml"
    log.write_bytes(b"- type: adjust\n  reason: long ago\n" * 5000)
    _counting(monkeypatch)
    assert confirming.mentions_dispute(log) is False
    grown = b"- type: dispute\n  target: b1\n"
    with open(log, "ab") as handle:
        handle.write(grown)
    _Counted.read_bytes = 0
    assert confirming.mentions_dispute(log) is True
    assert _Counted.read_bytes < len(grown) + 200  # the new bytes and a few before them


def test_a_log_edited_in_place_is_read_again_whole(tmp_path: Path) -> None:
    log = tmp_path / "events.yaml"
    log.write_bytes(b"- type: adjust\n  reason: a dispute\n")
    assert confirming.mentions_dispute(log) is True
    before = log.stat()
    log.write_bytes(b"- type: adjust\n  reason: a dislike\n")  # the same size, the same file
    os.utime(log, ns=(before.st_atime_ns, before.st_mtime_ns + 1_000_000))
    assert confirming.mentions_dispute(log) is False


def test_the_ids_a_recording_adds_are_the_next_campaigns_never_the_one_before() -> None:
    read = {"a1": 3, "a2": 9}
    before = Ids(read)
    after = before.successor()
    after.add("b1", 14)
    assert "b1" in after and after["b1"] == 14 and list(after) == ["a1", "a2", "b1"] and len(after) == 3
    assert "b1" not in before and list(before) == ["a1", "a2"] and read == {"a1": 3, "a2": 9}
    later = after.successor()
    later.add("c1", 20)
    assert "c1" not in after and dict(later) == {"a1": 3, "a2": 9, "b1": 14, "c1": 20}


def test_whether_a_log_mentions_a_dispute_is_read_a_chunk_at_a_time_never_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A warm `cok standings` at 100,000 events held the whole 20 MB log for this question."""
    monkeypatch.setattr(folders, "SEARCHED", 64, raising=False)
    largest = 0

    class Sized(io.BufferedReader):
        def read(self, size: int | None = -1) -> bytes:  # type: ignore[override]
            nonlocal largest
            data = super().read(size)
            largest = max(largest, len(data))
            return data

    monkeypatch.setattr(confirming, "open", lambda path, mode="rb": Sized(io.FileIO(path, mode)), raising=False)
    for at in range(50, 80):  # the word anywhere across the chunks' edges
        log = tmp_path / f"events-{at}.yaml"
        log.write_bytes(b"x" * at + b"dispute" + b"y" * 200)
        assert confirming.mentions_dispute(log) is True
    log = tmp_path / "events.yaml"
    log.write_bytes(b"- type: adjust\n  reason: long ago\n" * 100)
    assert confirming.mentions_dispute(log) is False
    assert largest <= 64
