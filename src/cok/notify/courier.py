"""`cok serve`'s courier: a process of its own that empties the outbox off the campaign's
lock, woken by each recording and every half minute for retries and reminders; started and
stopped with the application (the service's `Followers.start`/`stop`, from its lifespan). A process,
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
from pathlib import Path
from typing import IO

from cok.notify.outbox import send

#: Seconds the courier lets pass after a recording wakes it: the recording's answer (and the
#: pages the phones reload) go out before a post takes the machine's time (row 52).
SETTLE = 0.5


def still_waits(folder: Path, who: str | None, about: str | None = None) -> bool:
    """Whether the ledger still waits for this person (a reminder is posted only then): for
    their turn, the game's; for a result, while it awaits their word; for a dispute, while
    it is open."""
    from cok.core.campaign import open_campaign
    from cok.notify.posts import waiting
    from cok.service import confirming

    try:
        campaign = open_campaign(folder)
        if about is None:
            found = waiting(campaign)
            return found is not None and found[0] == who
        asked, _, target = about.partition(":")
        if asked == "confirm":
            return who is not None and any(r.id == target for r in confirming.waiting(campaign).get(who, []))
        if asked == "settle":
            return any(r.id == target for r in confirming.disputes(campaign))
    except Exception:
        return False
    return False


class Courier:
    """The server's side of the courier: starts it when the campaign has a destination (or
    gets one), wakes it after each recording, stops it with the server."""

    def __init__(self, folder: Path, every: float = 30.0) -> None:
        self.folder = folder
        self.every = every
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

    def poke(self) -> None:
        """A post was queued: send it now rather than at the next round."""
        child = self._running() if self._started else None
        if child is not None and child.stdin is not None:
            with contextlib.suppress(OSError, ValueError):  # it stopped: the next poke starts another
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
                command = [sys.executable, "-m", "cok.notify.courier", str(self.folder), str(self.every)]
                self._child = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL)
            return self._child


def run(folder: Path, every: float, woken: IO[bytes]) -> None:
    """The courier's loop: send what is due, then wait for a recording's wake-up or the next
    round; stop when the server closes the pipe (or is gone)."""
    import logging

    logging.getLogger("apprise").setLevel(logging.CRITICAL)  # failures are shown by `cok notify status`
    while True:
        with contextlib.suppress(Exception):  # a chat service never stops the courier: status shows it
            send(folder, still_waits=lambda who, about: still_waits(folder, who, about))
        ready, _, _ = select.select([woken], [], [], every)
        if ready:
            if not os.read(woken.fileno(), 4096):
                return
            time.sleep(SETTLE)  # the recording that woke us answers first: its server has the machine


if __name__ == "__main__":  # `cok serve`'s courier process (Courier above starts it)
    from cok.rulesets import install

    install()
    run(Path(sys.argv[1]), float(sys.argv[2]), sys.stdin.buffer)
