"""One campaign's alarm (issue 48): the server's one timer, started and stopped with the
application (its lifespan, beside the followers), asleep until the next moment the campaign
has something due — a deadline or a reminder before one — and then ringing once: the
defaults due are recorded (`service.deadlines.tick`, through the campaign's followers, so
the chat and git follow them as any recording) and the reminders due are posted.

Never a poll: it sleeps until the next due time, and is re-armed whenever the server learns
of a write (a recording can open or close a wait, an extension moves one) and when it starts
(a deadline that passed while no server ran is applied at once). The time it reads is the
ledger's (`deadlines.now()`, `COK_NOW` honoured); its clock and its sleep are given, so a
test moves a clock of its own and wakes it, and never sleeps."""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import sys
import threading
from collections.abc import Awaitable, Callable, Iterable

from cok.core import deadlines
from cok.serve.threads import in_thread

#: When the campaign has something due next: every due time and reminder time it knows of.
Times = Callable[[], Iterable[dt.datetime]]
#: What is done when a moment comes: the defaults and reminders due at `now`.
Ring = Callable[[dt.datetime], object]
#: How the alarm waits `seconds` (a test's returns when it moved its own clock, or never).
Sleep = Callable[[float], Awaitable[object]]


class Held:
    """A clock held at the moment its holder sets (`at`), for whoever drives the alarm's time
    themselves: a test, or the benchmark's simulated month; the alarm reads it as `now`."""

    def __init__(self, at: dt.datetime) -> None:
        self.at = at

    def __call__(self) -> dt.datetime:
        return self.at


async def until_woken(seconds: float) -> None:
    """A sleep that never ends by itself: the holder of a `Held` clock moves it and wakes the
    alarm (`Alarm.rearm`), so nothing waits on the machine's time."""
    await asyncio.Event().wait()


def _say(line: str) -> None:
    with contextlib.suppress(OSError, ValueError):
        print(f"cok: {line}", file=sys.stderr, flush=True)


class Alarm:
    """The timer of one campaign. `wakes`: how many times it rang (each a due time come, or
    at start for those that passed while nothing ran); `armed`: how many times it was told
    of a write; `at`: the moment it sleeps until (None: nothing is due)."""

    def __init__(
        self,
        times: Times,
        ring: Ring,
        *,
        clock: Callable[[], dt.datetime] = deadlines.now,
        sleep: Sleep = asyncio.sleep,
        say: Callable[[str], None] = _say,
    ) -> None:
        self.times = times
        self.ring = ring
        self.clock = clock
        self.sleep = sleep
        self.say = say
        self.wakes = 0
        self.armed = 0
        self.at: dt.datetime | None = None
        #: The moment of the last ring: what was due by then is done (a step whose default is
        #: `none` stays waited for after its deadline: its time is not rung twice).
        self.rang: dt.datetime | None = None
        self._woken: asyncio.Event | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._task: asyncio.Task[None] | None = None
        self._state = threading.Condition()  # `armed`, `_seen` and `_sleeping`, for `quiet`
        self._seen = 0  # the writes told of when the campaign was last read
        self._sleeping = False

    # --- with the application -------------------------------------------------------------------

    async def start(self) -> Alarm:
        """The application starts: armed at once (a deadline passed meanwhile rings now)."""
        if self._task is None:
            self._loop = asyncio.get_running_loop()
            self._woken = asyncio.Event()
            self._task = asyncio.create_task(self._run(), name="cok-alarm")
        return self

    async def stop(self) -> None:
        """The application stops: the alarm with it (a ring in hand finishes first: the
        recording under way is never cut in half, its thread goes on)."""
        task, self._task = self._task, None
        self._loop = self._woken = None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    def rearm(self) -> None:
        """A write happened (from any thread): the next due time is read again."""
        with self._state:
            self.armed += 1
        loop, woken = self._loop, self._woken
        if loop is None or woken is None or loop.is_closed():
            return
        with contextlib.suppress(RuntimeError):  # the loop closing: nothing to wake
            loop.call_soon_threadsafe(woken.set)

    def quiet(self, within: float = 10.0) -> bool:
        """Whether the alarm has done all it had to and sleeps (waiting up to `within` seconds
        for it): what a test or a benchmark waits for after a write or a move of its clock."""
        with self._state:
            return self._state.wait_for(lambda: self._sleeping and self._seen == self.armed, within)

    # --- the timer -------------------------------------------------------------------------------

    def next(self) -> dt.datetime | None:
        """The next moment something is due that has not rung yet."""
        later = [t for t in self.times() if self.rang is None or t > self.rang]
        return min(later, default=None)

    async def _run(self) -> None:
        assert self._woken is not None
        while True:
            with self._state:
                self._seen, self._sleeping = self.armed, False
            self._woken.clear()  # a write told of after this wakes it again
            try:
                self.at = await in_thread(self.next)
            except Exception as failed:  # a log that cannot be read: armed again at the next write
                self.say(f"the deadlines' alarm could not read the campaign: {failed}")
                self.at = None
            now = self.clock()
            if self.at is not None and self.at <= now:
                await self._rings(now)
                continue
            if await self._asleep(self.at, now):
                now = self.clock()
                if self.at is not None and self.at <= now:
                    await self._rings(now)

    async def _rings(self, now: dt.datetime) -> None:
        self.wakes += 1
        self.rang = now
        try:
            await in_thread(self.ring, now)
        except Exception as failed:  # never stops the server: said, and tried at the next write
            self.say(f"the deadlines due at {deadlines.iso(now)} could not be recorded: {failed}")

    async def _asleep(self, until: dt.datetime | None, now: dt.datetime) -> bool:
        """Asleep until `until` or a write; True when the time came, False when woken."""
        assert self._woken is not None
        woken: asyncio.Future[object] = asyncio.ensure_future(self._woken.wait())
        with self._state:
            self._sleeping = True
            self._state.notify_all()
        waits = {woken}
        if until is not None:
            waits.add(asyncio.ensure_future(self.sleep(max((until - now).total_seconds(), 0.0))))
        try:
            done, _ = await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for waiting in waits:
                waiting.cancel()
        return woken not in done
