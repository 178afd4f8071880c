"""The deadlines' alarm (serve/alarm.py, issue 48) on its own: one timer asleep until the next
due time, ringing once per due time, armed again by a write, ringing at once at start for a
time that passed while nothing ran. Its clock and its sleep are the test's: nothing sleeps."""

from __future__ import annotations

import asyncio
import datetime as dt
from collections.abc import Awaitable, Callable

from cok.serve.alarm import Alarm, until_woken

T0 = dt.datetime(2026, 12, 1, 12, 0, tzinfo=dt.UTC)


class Hours:
    """A clock the test moves."""

    def __init__(self) -> None:
        self.at = T0

    def __call__(self) -> dt.datetime:
        return self.at

    def hours(self, n: float) -> dt.datetime:
        return T0 + dt.timedelta(hours=n)


def run(test: Callable[[], Awaitable[None]]) -> None:
    asyncio.run(test())


async def settled(alarm: Alarm, until: dt.datetime | None = None) -> None:
    """Until the alarm has done what it had to and sleeps (with `until`: sleeps past it; never
    a sleep of the test's)."""
    for _ in range(10_000):
        if alarm.quiet(0) and (until is None or alarm.at is None or alarm.at > until):
            return
        await asyncio.sleep(0)
    raise AssertionError("the alarm never settled")


def test_the_alarm_sleeps_until_the_next_due_time_and_rings_once_when_it_comes() -> None:
    clock, rung = Hours(), []
    due = [clock.hours(48)]

    async def test() -> None:
        alarm = await Alarm(lambda: due, rung.append, clock=clock, sleep=until_woken).start()
        await settled(alarm)
        assert alarm.at == clock.hours(48) and rung == [] and alarm.wakes == 0
        clock.at = clock.hours(49)
        alarm.rearm()
        await settled(alarm)
        assert rung == [clock.hours(49)] and alarm.wakes == 1
        alarm.rearm()  # the same due time, still waited for (a default of "none"): not rung twice
        await settled(alarm)
        assert alarm.wakes == 1 and alarm.at is None
        await alarm.stop()

    run(test)


def test_a_deadline_passed_while_nothing_ran_rings_at_start() -> None:
    clock, rung = Hours(), []
    clock.at = clock.hours(100)

    async def test() -> None:
        alarm = await Alarm(lambda: [clock.hours(48)], rung.append, clock=clock, sleep=until_woken).start()
        await settled(alarm)
        assert rung == [clock.hours(100)] and alarm.wakes == 1
        await alarm.stop()

    run(test)


def test_a_write_arms_the_alarm_again_for_a_sooner_due_time() -> None:
    clock, rung = Hours(), []
    due = [clock.hours(48)]

    async def test() -> None:
        alarm = await Alarm(lambda: due, rung.append, clock=clock, sleep=until_woken).start()
        await settled(alarm)
        due.append(clock.hours(2))  # a recording opened a wait due sooner
        alarm.rearm()
        await settled(alarm)
        assert alarm.at == clock.hours(2) and alarm.wakes == 0 and alarm.armed == 1
        await alarm.stop()

    run(test)


def test_the_alarm_wakes_once_per_distinct_due_time_over_a_span() -> None:
    """Its own sleep moves the clock (a simulated week): it wakes at each due time, not more."""
    clock, rung = Hours(), []
    due = sorted({clock.hours(h) for h in (2, 24, 24, 30, 71.5, 150)})
    end = clock.hours(100)

    async def passing(seconds: float) -> None:
        if clock.at + dt.timedelta(seconds=seconds) > end:
            await asyncio.Event().wait()  # past the span: asleep for good
        clock.at += dt.timedelta(seconds=seconds)

    async def test() -> None:
        alarm = await Alarm(lambda: due, rung.append, clock=clock, sleep=passing).start()
        await settled(alarm, end)
        assert rung == [t for t in due if t <= end] and alarm.wakes == 4
        await alarm.stop()

    run(test)


def test_a_ring_that_fails_is_said_and_the_alarm_goes_on() -> None:
    clock, said = Hours(), []
    clock.at = clock.hours(50)

    def broken(now: dt.datetime) -> None:
        raise OSError("disk full")

    async def test() -> None:
        alarm = await Alarm(lambda: [clock.hours(48)], broken, clock=clock, sleep=until_woken, say=said.append).start()
        await settled(alarm)
        assert alarm.wakes == 1 and "disk full" in said[0]
        await alarm.stop()

    run(test)
