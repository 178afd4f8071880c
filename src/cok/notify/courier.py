"""`cok serve`'s courier: a background thread that empties the outbox off the campaign's
lock, woken by each recording and every half minute for retries and reminders."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cok.notify.outbox import send

if TYPE_CHECKING:
    from cok.service.recording import Recording


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
    def __init__(self, folder: Path, every: float = 30.0) -> None:
        self.folder = folder
        self.every = every
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="cok-notify", daemon=True)

    def start(self) -> Courier:
        self._thread.start()
        return self

    def poke(self) -> None:
        """A post was queued: send it now rather than at the next round."""
        self._wake.set()

    def stop(self) -> None:
        self._stop.set()
        self._wake.set()
        self._thread.join(timeout=5)

    def _run(self) -> None:
        while not self._stop.is_set():
            self._wake.clear()
            with contextlib.suppress(Exception):  # a chat service never stops the server: status shows it
                send(self.folder, still_waits=lambda who, about: still_waits(self.folder, who, about))
            self._wake.wait(self.every)


Hook = Callable[["Recording", Any], None]


def serving(folder: Path, after: Hook | None) -> tuple[Hook, Courier]:
    """`cok serve`'s hook (under the lock: only queues, then wakes the courier) around the
    one it had, and the courier to start: the outbox is sent from its thread."""
    from cok.notify.outbox import enqueue

    courier = Courier(folder)

    def hook(recording: Recording, who: Any) -> None:
        if enqueue(folder, recording):
            courier.poke()
        if after is not None:
            after(recording, who)

    return hook, courier
