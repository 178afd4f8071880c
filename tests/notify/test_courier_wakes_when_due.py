"""Issue 45: the courier wakes for what is due, not on a 30-second round: posts that waited
through a restart go out at once when it starts, a retry when its wait is over, a reminder
when it falls due, a post queued at a terminal meanwhile as soon as the courier looks (once a second)."""

from __future__ import annotations

import contextlib
import os
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from cok.notify.courier import run
from tests.conftest import Cok
from tests.notify.conftest import Fake


@contextlib.contextmanager
def courier(folder: Path) -> Iterator[None]:
    """The courier's loop in a thread, stopped as the server stops it (its pipe closed)."""
    read, write = os.pipe()
    woken = os.fdopen(read, "rb", buffering=0)
    thread = threading.Thread(target=run, args=(folder, woken), daemon=True)
    thread.start()
    try:
        yield
    finally:
        os.close(write)
        thread.join(timeout=10)
        woken.close()
    assert not thread.is_alive()


def _within(seconds: float, done: Callable[[], bool]) -> float:
    """How long until `done` (a failure past `seconds`)."""
    start = time.monotonic()
    while not done():
        assert time.monotonic() - start < seconds, "not sent in time"
        time.sleep(0.02)
    return time.monotonic() - start


def _battle(cok: Cok, at: str = "Sunspear") -> None:
    assert cok("battle", "tim", "matt", "--at", at, "--winner", "tim", "--override", "a test").exit_code == 0


def test_posts_waiting_through_a_restart_go_out_at_once_when_the_courier_starts(example: Path, fake: Fake) -> None:
    cok = Cok(example)
    cok("notify", "add", fake.url, "--only", "battle")
    _battle(cok)  # queued while no server ran
    with courier(example):
        assert _within(2, lambda: len(fake.bodies) == 1) < 2


def test_a_retry_goes_out_when_the_wait_a_429_asked_is_over(example: Path, fake: Fake) -> None:
    cok = Cok(example)
    cok("notify", "add", fake.url, "--only", "battle")
    _battle(cok)
    fake.answers, fake.retry_after = [429], "0.4"
    with courier(example):
        _within(3, lambda: len(fake.bodies) == 1)
    assert len(fake.times) == 2 and 0.4 <= fake.times[1] - fake.times[0] < 1.5


def test_a_reminder_goes_out_when_it_falls_due(kow: Cok, fake: Fake) -> None:
    kow("notify", "add", fake.url, "--remind", "1s")
    kow("mk", "order", "dag-1", "defend")
    with courier(kow.cwd):
        _within(2, lambda: len(fake.bodies) == 1)
        waited = _within(3, lambda: len(fake.bodies) == 2)
    assert fake.bodies == ["The ledger waits for dag: an order."] * 2 and waited < 1.5


def test_a_post_queued_at_a_terminal_while_the_courier_runs_goes_out_without_waiting_for_a_round(
    example: Path, fake: Fake
) -> None:
    cok = Cok(example)
    cok("notify", "add", fake.url, "--only", "battle")
    with courier(example):
        time.sleep(0.1)  # the courier has looked: nothing to send
        _battle(cok)
        assert _within(2.5, lambda: len(fake.bodies) == 1) < 2.5
