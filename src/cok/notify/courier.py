"""`cok serve`'s courier: a process of its own that empties the outbox off the campaign's
lock, woken by each recording and when the next post falls due (a retry, the end of a
429's wait, a reminder), never on a fixed round; started and stopped with the application (the
service's `Followers.start`/`stop`, from its lifespan). A process,
not a thread: Apprise's work never takes the server's interpreter from a recording (a
recording with chat destinations costs what one without does: docs/performance.md row 52)."""

from __future__ import annotations

import contextlib
import os
import select
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import IO

from cok.notify.outbox import send

#: Seconds the courier lets pass after a recording wakes it: the recording's answer (and the
#: pages the phones reload) go out before a post takes the machine's time (row 52).
SETTLE = 0.5
#: Seconds between two looks at the outbox folder for posts another process queued (a
#: recording at a terminal while the server runs): a look is one `stat`, nothing is read.
LOOK = 1.0


class Courier:
    """The server's side of the courier: starts it when the campaign has a destination (or
    gets one), wakes it after each recording, stops it with the server."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._child: subprocess.Popen[bytes] | None = None
        self._started = False
        self._lock = threading.Lock()

    def start(self) -> Courier:
        from cok.notify.destinations import settings

        self._started = True
        with contextlib.suppress(Exception):  # no data folder: nothing to send yet
            if settings(self.folder).destinations:
                self._running()
        return self

    def wake(self) -> None:
        """A post was queued: send it now (its recording answered first: SETTLE)."""
        child = self._running() if self._started else None
        if child is not None and child.stdin is not None:
            with contextlib.suppress(OSError, ValueError):  # it stopped: the next wake starts another
                child.stdin.write(b"\n")
                child.stdin.flush()

    def stop(self) -> None:
        with self._lock:
            child, self._child, self._started = self._child, None, False
        if child is None:
            return
        with contextlib.suppress(OSError, ValueError):
            if child.stdin is not None:
                child.stdin.close()  # its end of the pipe closes: it finishes the post in hand and stops
        try:
            child.wait(timeout=10)
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait()

    def _running(self) -> subprocess.Popen[bytes] | None:
        with self._lock:
            if self._child is None or self._child.poll() is not None:
                command = [sys.executable, "-m", "cok.notify.courier", str(self.folder)]
                self._child = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL)
            return self._child


def run(folder: Path, woken: IO[bytes], clock: Callable[[], float] = time.time) -> None:
    """The courier's loop: send what is due (at once when started: posts that waited through
    a restart), then sleep until the next post falls due, a recording wakes it or another
    process queues a post; stop when the server closes the pipe (or is gone)."""
    import logging

    from cok.notify.outbox import next_due

    logging.getLogger("apprise").setLevel(logging.CRITICAL)  # failures are shown by `cok notify status`
    box = campaign_home_of(folder) / "outbox"
    warm = False
    while True:
        seen = _looked(box)  # before sending: a post another process queues meanwhile is not missed
        with contextlib.suppress(Exception):  # a chat service never stops the courier: status shows it
            send(folder, now=clock)
        if not warm:  # after the posts that waited through a restart are sent
            warm = _warmed(folder)
        due: float | None = None
        with contextlib.suppress(Exception):
            due = next_due(folder)
        if due is not None and due <= clock():  # just sent, yet due: a post it could not try (never spin)
            due = clock() + LOOK
        while True:
            left = None if due is None else due - clock()
            if left is not None and left <= 0:
                break  # a post fell due
            ready, _, _ = select.select([woken], [], [], LOOK if left is None else min(left, LOOK))
            if ready:
                if not os.read(woken.fileno(), 4096):
                    return
                time.sleep(SETTLE)  # the recording that woke us answers first: its server has the machine
                break
            if _looked(box) != seen:
                break  # a post queued meanwhile, by another process (or this round's own sending: looked at once more)


def _warmed(folder: Path) -> bool:
    """Apprise imported and the campaign read once, as the courier starts: the first post and
    the first nudge's check against the ledger then take no second longer than the next."""
    with contextlib.suppress(Exception):
        import apprise  # noqa: F401

        from cok.notify.asked import asked_now

        asked_now(folder)
    return True


def campaign_home_of(folder: Path) -> Path:
    from cok.notify.home import campaign_home

    return campaign_home(folder)


def _looked(box: Path) -> tuple[int, int]:
    """The outbox folder's change time and size: they change whenever a post is queued or sent
    (the size as well, where a file system's clock is coarser than two posts)."""
    try:
        return box.stat().st_mtime_ns, len(os.listdir(box))
    except OSError:
        return 0, 0


if __name__ == "__main__":  # `cok serve`'s courier process (Courier above starts it)
    from cok.rulesets import install

    install()
    run(Path(sys.argv[1]), sys.stdin.buffer)
