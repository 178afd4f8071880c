"""One write, its followers (issue 45). Every change the ledger appends — a recording from the
terminal, a page or the API, and the ledger's own dice events (a commitment, a reveal, a seed
lost) — is appended under the campaign's lock by `Followers.write` and then handed, in the
log's order, to one list of followers, the same for every interface:

1. the chat's outbox (cok notify): its posts and the nudges the change asks, written before
   the recording answers, so that a server killed after its answer loses no post;
2. with `--commit`, the git commit of exactly that change;
3. with `--push`, its push (counted here, pushed by the repository's one thread).

The outbox is written by the recording's own thread once the lock is released (each change in
turn); the commit and the push by one ordered worker while the application runs (`start` and
`stop` go with it), else at once. A follower that fails never undoes or hides the write: it is
said on standard error and kept for the organiser's page (`troubles`)."""

from __future__ import annotations

import contextlib
import queue
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cok.service.change import Change

if TYPE_CHECKING:
    from cok.core.campaign import Campaign
    from cok.core.events import EventBase
    from cok.core.ledger import Events, Recorded
    from cok.notify.courier import Courier
    from cok.service.push import Pusher

#: Seconds a change waits for the one before it to have its posts written (that one's thread
#: answers within it unless it died: then this one goes on).
TURN = 10.0
#: The followers' failures kept for the organiser's page.
KEPT = 20


@dataclass(frozen=True)
class Backup:
    """What `cok serve --commit [--push [--remote NAME]]` asks of every write."""

    commit: bool = False
    #: the remote `--push` pushes to ("": the branch's upstream, else origin); None: no push
    push: str | None = None

    def checked(self, folder: Path) -> Backup:
        """Refused at start (RuleError), so that the organiser hears of a missing repository
        or remote, not a player at their first recording."""
        from cok.core.errors import RuleError

        if self.push is not None and not self.commit:
            raise RuleError("--push pushes the commits --commit makes: serve with --commit --push")
        if self.commit:
            from cok.service.commit import need_git

            need_git(folder)
        if self.push is not None:
            from cok.service.push import target

            target(folder, self.push or None)
        return self


#: Nothing asked of a write but the chat's outbox (the terminal, a server without --commit).
NO_BACKUP = Backup()


@dataclass(frozen=True)
class Trouble:
    """A follower that failed: the change is in the log all the same."""

    at: float
    text: str

    @property
    def when(self) -> str:
        return time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime(self.at))


def _stderr(line: str) -> None:
    with contextlib.suppress(OSError, ValueError):
        print(f"cok: {line}", file=sys.stderr, flush=True)


class Followers:
    """The followers of one campaign folder's writes, in the log's order."""

    def __init__(self, folder: Path, backup: Backup = NO_BACKUP, *, say: Callable[[str], None] = _stderr) -> None:
        self.folder = Path(folder)
        self.backup = backup
        self.say = say
        self._turn = threading.Condition()
        self._given = 0  # changes handed over (under the ledger's lock: the log's order)
        self._posted = 0  # changes whose posts are written
        self._work: queue.SimpleQueue[Change | None] = queue.SimpleQueue()
        self._worker: threading.Thread | None = None
        self._pusher: Pusher | None = None
        self._courier: Courier | None = None
        self._troubles: deque[Trouble] = deque(maxlen=KEPT)

    # --- the write --------------------------------------------------------------------------------

    def write(
        self,
        campaign: Campaign,
        events: Events,
        *,
        under_lock: Callable[[list[Recorded]], None] | None = None,
        **options: Any,
    ) -> tuple[list[Recorded], list[str]]:
        """`core.ledger.record_all`, then this change handed to the followers: the recorded
        events, and what a follower run now could not do (a warning: the events stay).
        `under_lock`: the caller's own bookkeeping once written (a warm ledger's file stamps)."""
        from cok.core.ledger import record_all

        turns: list[tuple[int, Change, bool]] = []

        def handed(done: list[Recorded]) -> None:  # under the lock: only counted, in the log's order
            if under_lock is not None:
                under_lock(done)
            turns.append(self._handed(Change(tuple(done))))

        done = record_all(campaign, events, after=handed, **options)
        return done, [said for turn in turns for said in self._follow(*turn)]

    def _handed(self, change: Change) -> tuple[int, Change, bool]:
        """The change's turn; queued for the worker when one runs (its queue is in the log's
        order too)."""
        with self._turn:
            turn, self._given = self._given, self._given + 1
            queued = self._worker is not None
            if queued:
                self._work.put(change)
        return turn, change, queued

    def _follow(self, turn: int, change: Change, queued: bool) -> list[str]:
        """After the lock, before the answer: the change's posts written, in turn; and, when
        no worker runs (the terminal), the commit and the push too."""
        said: list[str] = []
        with self._turn:
            self._turn.wait_for(lambda: self._posted >= turn, timeout=TURN)
            try:
                said += self._run("the chat's outbox", self._post, change)
                if not queued:
                    said += self._after_answer(change)
            finally:
                self._posted = max(self._posted, turn + 1)
                self._turn.notify_all()
        return said

    # --- the followers ----------------------------------------------------------------------------

    def _post(self, change: Change) -> None:
        from cok.notify.outbox import enqueue

        if enqueue(self.folder, change) and self._courier is not None:
            self._courier.wake()

    def _commit(self, change: Change) -> None:
        from cok.service.commit import git_commit

        git_commit(self.folder, change)

    def _after_answer(self, change: Change) -> list[str]:
        said: list[str] = []
        if self.backup.commit:
            said += self._run("its git commit", self._commit, change)
            if not said and self._pusher is not None:
                self._pusher.committed()
        return said

    def _run(self, what: str, follower: Callable[[Change], None], change: Change) -> list[str]:
        """One follower: its failure said and kept, never raised (the change is written)."""
        try:
            follower(change)
        except Exception as error:
            text = f"recorded as {_first_id(change.events)}, but {what} failed: {_said(error)}"
            self._troubles.append(Trouble(time.time(), text))
            self.say(text)
            return [text]
        return []

    def troubles(self) -> list[Trouble]:
        """The followers' latest failures, newest first (the organiser's page)."""
        return list(reversed(self._troubles))

    # --- with the application ---------------------------------------------------------------------

    def start(self) -> Followers:
        """The application starts: the ordered worker, the pusher and the chat's courier."""
        from cok.notify.courier import Courier

        with self._turn:
            if self._worker is not None:
                return self
            self._worker = threading.Thread(target=self._work_through, name="cok-followers", daemon=True)
            self._worker.start()
        if self.backup.push is not None:
            from cok.service.push import started

            self._pusher = started(self.folder, self.backup.push or None, say=self.say)
        self._courier = Courier(self.folder).start()
        return self

    def stop(self) -> None:
        """The application stops: every change handed over followed first (nothing lost), then
        the pusher and the courier stopped (each finishes what it holds)."""
        with self._turn:
            worker, self._worker = self._worker, None
            if worker is not None:
                self._work.put(None)
        if worker is not None:
            worker.join()
        pusher, self._pusher = self._pusher, None
        if pusher is not None:
            from cok.service.push import stopped

            stopped(self.folder, pusher)
        courier, self._courier = self._courier, None
        if courier is not None:
            courier.stop()

    def _work_through(self) -> None:
        while True:
            change = self._work.get()
            if change is None:
                return
            self._after_answer(change)

    @property
    def pusher(self) -> Pusher | None:
        return self._pusher


def _first_id(events: Sequence[EventBase]) -> str:
    return str(events[0].id) if events else "?"


def _said(error: Exception) -> str:
    """A follower's failure in a few words (an OSError's own text, else the error's)."""
    if isinstance(error, OSError):
        return f"{error.strerror or error}"
    return str(error) or type(error).__name__
