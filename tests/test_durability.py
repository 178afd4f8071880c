"""The log is sacred: parallel appends lose nothing, a kill -9 never leaves half an event."""

from __future__ import annotations

import builtins
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from cok.core.append import journal_path, recover
from cok.core.campaign import open_campaign

from .conftest import Cok, read_events

#: Whole processes, fuzzing or random campaigns: left out of the quick run (`-m 'not slow'`).
pytestmark = pytest.mark.slow

APPENDER = Path(__file__).with_name("appender.py")


def start(campaign: Path, worker: str, count: int, pause: float = 0) -> subprocess.Popen[str]:
    env = {**os.environ, "COK_TEST_APPEND_PAUSE": str(pause)}
    return subprocess.Popen(
        [sys.executable, str(APPENDER), str(campaign), worker, str(count)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )


def test_six_processes_appending_in_parallel_lose_and_duplicate_nothing(campaign: Path) -> None:
    Cok(campaign)("join", "tim", "--faction", "martell")
    workers = [start(campaign, f"w{i}", 8) for i in range(6)]
    reported = []
    for proc in workers:
        out, err = proc.communicate(timeout=300)
        assert proc.returncode == 0, err
        reported += [line.split()[1] for line in out.splitlines() if line.startswith("ok ")]
    assert len(reported) == 48
    notes = [r.event.note for r in read_events(campaign / "events.yaml").entries if r.event.note]
    assert sorted(notes) == sorted(reported)
    assert Cok(campaign)("check").exit_code == 0
    assert open_campaign(campaign, use_cache=False).valid().state.bonus["tim"] == 48


def inside_an_append(log: Path, patience: float = 30.0) -> None:
    """Wait until an append is under way: its journal is written before the log is touched."""
    deadline = time.monotonic() + patience
    while not journal_path(log).exists() and time.monotonic() < deadline:
        time.sleep(0.002)


def test_kill_9_at_random_moments_never_leaves_a_partial_event(campaign: Path) -> None:
    Cok(campaign)("join", "tim", "--faction", "martell")
    rng = random.Random(20261122)
    confirmed: list[str] = []
    kills = torn = 0
    # Appends are slowed (and torn in two). Every other kill waits for the journal, so that it
    # lands inside an append however loaded the machine is; the others land at random moments.
    for round_ in range(60):
        if kills >= 30 and torn >= 3:
            break
        proc = start(campaign, f"k{round_}", 1000, pause=0.05)
        assert proc.stdout is not None
        first = proc.stdout.readline()  # wait until it has appended once
        if round_ % 2:
            time.sleep(rng.uniform(0, 0.2))
        else:
            inside_an_append(campaign / "events.yaml")
        os.kill(proc.pid, signal.SIGKILL)
        rest, _ = proc.communicate()
        kills += 1
        torn += journal_path(campaign / "events.yaml").exists()
        confirmed += [line.split()[1] for line in (first + rest).splitlines() if line.startswith("ok ")]
        run = Cok(campaign)("check")
        assert run.exit_code == 0, run.stderr
        notes = [r.event.note for r in read_events(campaign / "events.yaml").entries if r.event.note]
        assert len(notes) == len(set(notes))
        assert set(confirmed) <= set(notes)
    assert torn >= 3, "too few kills landed inside an append to test anything"
    print(f"kills: {kills}, inside an append: {torn}, events confirmed: {len(confirmed)}")
    assert not journal_path(campaign / "events.yaml").exists()


def test_recover_cuts_a_partial_block_and_keeps_a_complete_one(tmp_path: Path) -> None:
    log = tmp_path / "events.yaml"
    original = b"- type: week\n"
    block = b"- type: week\n  limit: 30\n"
    for written, expected in ((block[:9], original), (block, original + block), (b"", original)):
        log.write_bytes(original + written)
        journal_path(log).write_bytes(b"cok-pending %d %d\n" % (len(original), len(block)) + block)
        recover(log)
        assert log.read_bytes() == expected
        assert not journal_path(log).exists()


def test_a_torn_journal_means_the_append_never_started(tmp_path: Path) -> None:
    log = tmp_path / "events.yaml"
    log.write_bytes(b"- type: week\n")
    journal_path(log).write_bytes(b"cok-pending 13 40\n- type: we")
    recover(log)
    assert log.read_bytes() == b"- type: week\n"
    assert not journal_path(log).exists()


def test_readers_recover_a_left_journal_before_reading(campaign: Path) -> None:
    log = campaign / "events.yaml"
    log.write_bytes(b"- type: week\n- type: we")
    block = b"- type: week\n  id: x\n"
    journal_path(log).write_bytes(b"cok-pending 13 %d\n" % len(block) + block)
    run = Cok(campaign)("check")
    assert run.exit_code == 0, run.stderr
    assert log.read_bytes() == b"- type: week\n"


def _torn_append(campaign: Path) -> bytes:
    """Leave the log as a killed append does: a journal, and half of its block written."""
    log = campaign / "events.yaml"
    before = log.read_bytes()
    block = b"- type: week\n  limit: 99\n  id: torn000000\n"
    journal_path(log).write_bytes(b"cok-pending %d %d\n" % (len(before), len(block)) + block)
    with open(log, "ab") as handle:
        handle.write(block[: len(block) // 2])
    return before


def _refuse_writes(monkeypatch: pytest.MonkeyPatch, *modes: str) -> None:
    """The log as an immutable (or append-only) file: opening it in these modes is refused."""
    real = builtins.open

    def guarded(file: Any, mode: str = "r", *args: Any, **kwargs: Any) -> Any:
        if str(file).endswith("events.yaml") and mode in modes:
            raise PermissionError(1, "Operation not permitted")
        return real(file, mode, *args, **kwargs)

    monkeypatch.setattr(builtins, "open", guarded)


def test_a_torn_append_that_cannot_be_cut_is_read_around_and_recording_waits(
    campaign: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cok = Cok(campaign)
    cok("join", "tim", "--faction", "martell")
    _torn_append(campaign)
    _refuse_writes(monkeypatch, "r+b", "ab")
    for args in (("check", "--no-cache"), ("week", "--json"), ("log",), ("standings",)):
        run = cok(*args)
        assert run.exit_code == 0, (args, run.stderr)
    assert '"points_limit": 20' in cok("week", "--json").stdout
    run = cok("adjust", "tim", "1", "--reason", "x")
    assert run.exit_code == 1
    assert "cannot cut it" in run.stderr


def test_an_append_the_file_system_refuses_writes_nothing_and_reading_goes_on(
    campaign: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cok = Cok(campaign)
    cok("join", "tim", "--faction", "martell")
    before = (campaign / "events.yaml").read_bytes()
    _refuse_writes(monkeypatch, "ab")
    run = cok("adjust", "tim", "1", "--reason", "x")
    assert run.exit_code == 1
    assert "nothing was recorded: cannot append to the log (Operation not permitted)" in run.stderr
    assert (campaign / "events.yaml").read_bytes() == before
    assert not journal_path(campaign / "events.yaml").exists()
    assert cok("check", "--no-cache").exit_code == 0
