"""The campaign's own time (issue 48): what the ledger waits for, when each wait is due, and
what is recorded for whoever misses it.

Pure and knowing no game. A game says what it waits for (`Ruleset.waits`: a `Wait` per player
or for the organisers) and what its steps are (`Ruleset.deadline_steps`); the organiser's
`campaign.yaml` says how long each step lasts (`deadlines:`) and what is recorded at the
deadline (`defaults:`). A `Clock`, kept with the state and rebuilt by the fold like everything
else, dates each wait from the log's own times, so every copy of the campaign agrees on what was
due. Time is an input: the caller gives `now` (`COK_NOW`, `--now`), never this module.
"""

from __future__ import annotations

import datetime as dt
import os
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

#: The setting of a step whose misses are only told to the organisers (no safe default exists).
NONE = "none"

#: Weekdays as an organiser writes them (`monday 19:00`, `mon 19:00`).
WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")

_DURATION = re.compile(r"^(?:(\d+)w)?(?:(\d+)d)?(?:(\d+)h)?(?:(\d+)m)?$")
_WEEKLY = re.compile(r"^([a-z]+)\s+(\d{1,2}):(\d{2})$")


@dataclass(frozen=True)
class Step:
    """Something a game's ledger waits for, as `campaign.yaml`'s `deadlines:` names it
    (Mighty Kingdoms' `orders`). `defaults`: the choices an organiser may set for a miss, the
    first the safest and the setting when none is given (`none`: only tell the organisers);
    `why`: the rule that makes the first the safest, for the docs."""

    key: str
    what: str
    defaults: tuple[str, ...]
    why: str = ""


@dataclass(frozen=True)
class Wait:
    """One thing the ledger waits for now: `step` (a `Step.key`), `who` (a player's id; None:
    the organisers), `what` in words ("orders for bo-4 and bo-5") and `key`, the wait's
    identity: the same while it lasts and new each time it opens again (the period is in it:
    `orders:1:3:bo`), so that its opening time, extensions and default are its own."""

    step: str
    who: str | None
    what: str
    key: str


@dataclass(frozen=True)
class Spec:
    """How long a step lasts: a duration from the event that opened the wait (`48h`, `3d`,
    `1d12h`), or the next weekday and time after it (`monday 19:00`) in the campaign's zone."""

    text: str
    seconds: int = 0
    weekday: int | None = None
    minute: int = 0  # of the day, for a weekday and time


def spec(text: str) -> Spec | str:
    """The spec an organiser wrote, or what is wrong with it in words."""
    written = " ".join(str(text).strip().lower().split())
    found = _DURATION.match(written.replace(" ", ""))
    if written and found and any(found.groups()):
        w, d, h, m = (int(g or 0) for g in found.groups())
        seconds = ((w * 7 + d) * 24 + h) * 3600 + m * 60
        if seconds <= 0:
            return f"{text!r} lasts no time; write a duration like 48h, 3d or 1d12h"
        return Spec(written, seconds=seconds)
    weekly = _WEEKLY.match(written)
    if weekly:
        name, hour, minute = weekly.group(1), int(weekly.group(2)), int(weekly.group(3))
        day = next((i for i, w in enumerate(WEEKDAYS) if len(name) >= 3 and w.startswith(name)), None)
        if day is None:
            return f"{name!r} is not a weekday; write one of {', '.join(WEEKDAYS)}"
        if hour > 23 or minute > 59:
            return f"{hour}:{minute:02d} is not a time of day; write it as 19:00"
        return Spec(written, weekday=day, minute=hour * 60 + minute)
    return f"{text!r} is neither a duration (48h, 3d, 1d12h, 90m) nor a weekday and time (monday 19:00)"


def zone(name: str) -> ZoneInfo | str:
    """The IANA zone an organiser named, or what is wrong with it in words."""
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        near = sorted(z for z in available_timezones() if z.lower().endswith(name.lower().split("/")[-1]))
        hint = f" (did you mean {', '.join(near[:3])}?)" if near else ""
        return f"{name!r} is not an IANA time zone{hint}; write one like Europe/London or UTC"


def due(opened: dt.datetime, rule: Spec, tz: ZoneInfo, extended: int = 0) -> dt.datetime:
    """When a wait opened at `opened` is due under `rule`, `extended` seconds later for its
    extensions: a duration counts from the opening; a weekday and time is the first such moment
    strictly after it, in the campaign's zone (so `monday 19:00` stays 19:00 across a change of
    summer time)."""
    if rule.weekday is None:
        return opened + dt.timedelta(seconds=rule.seconds + extended)
    local = opened.astimezone(tz)
    days = (rule.weekday - local.weekday()) % 7
    day = (local + dt.timedelta(days=days)).date()
    moment = dt.datetime.combine(day, dt.time(rule.minute // 60, rule.minute % 60), tzinfo=tz)
    if moment <= local:
        moment = dt.datetime.combine(day + dt.timedelta(days=7), moment.timetz())
    return moment.astimezone(dt.UTC) + dt.timedelta(seconds=extended)


def moment(value: dt.datetime | dt.date | str | None, tz: ZoneInfo | dt.tzinfo = dt.UTC) -> dt.datetime | None:
    """An event's `at` (or `COK_NOW`) as an aware moment: a date is its midnight and a time
    without an offset is the campaign's zone's; None stays None (a log written by hand)."""
    if value is None:
        return None
    if isinstance(value, str):
        text = value.strip().replace(" ", "T", 1)
        try:
            value = dt.datetime.fromisoformat(text.replace("Z", "+00:00").replace("z", "+00:00"))
        except ValueError:
            try:
                value = dt.date.fromisoformat(text)
            except ValueError:
                return None
    if not isinstance(value, dt.datetime):
        value = dt.datetime.combine(value, dt.time())
    return value if value.tzinfo is not None else value.replace(tzinfo=tz)


class BadNow(ValueError):
    """`COK_NOW` or `--now` that is not a moment."""


def now(written: str | None = None) -> dt.datetime:
    """The ledger's clock, as hledger's `--today`: `written` (`--now`), else `COK_NOW`, else the
    machine's clock. Every command judges deadlines at this moment, so an organiser can see what
    a tick would do then and tests never sleep."""
    text = written if written is not None else os.environ.get("COK_NOW")
    if not text:
        return dt.datetime.now(dt.UTC)
    found = moment(text)
    if found is None:
        source = "--now" if written is not None else "COK_NOW"
        raise BadNow(f"{source}={text!r} is not a moment; write it as 2026-12-03T20:00:00Z")
    return found


def iso(value: dt.datetime) -> str:
    """A moment as the log and `--json` write it: ISO 8601 with its offset, to the second."""
    return value.replace(microsecond=0).isoformat()


@dataclass
class Clock:
    """What the ledger knows of time, rebuilt by the fold (it travels with each game's state as
    `state.clock`, cached with it): when each wait now open opened (`opened`: its key → ISO
    moment; absent when the event that opened it had no time), the seconds an extension added
    to it, the waits already defaulted, each player's deadlines missed in a row, the players
    marked absent and the extensions each asked for. `steps`, `tz`, `absent_after`: the
    settings it was set up with (a change of campaign.yaml replays the log)."""

    steps: dict[str, str] = field(default_factory=dict)  # step → spec as written
    tz: str = "UTC"
    absent_after: int = 0  # 0: nobody is ever marked absent
    opened: dict[str, str] = field(default_factory=dict)
    extended: dict[str, int] = field(default_factory=dict)
    defaulted: set[str] = field(default_factory=set)
    defaulting: str | None = None  # the wait the last event was a default for (its next events continue it)
    missed: dict[str, int] = field(default_factory=dict)
    absent: set[str] = field(default_factory=set)
    asked: dict[str, int] = field(default_factory=dict)
    extensions: int = 0  # the times each player may ask for more time (`extensions:`)
    whose: dict[str, str] = field(default_factory=dict)  # an open player's wait: its key → the player

    def zone(self) -> ZoneInfo:
        """The campaign's zone (UTC when the setting names none that is known here)."""
        return _tz(self)

    def copy(self) -> Clock:
        """A copy a recording may change (a dry run, a batch decide on a copy of the state):
        every field's container copied (they hold only strings and numbers)."""
        return Clock(**{f.name: _shallow(getattr(self, f.name)) for f in fields(self)})

    @property
    def on(self) -> bool:
        """Whether the campaign has deadlines at all (without them the fold never asks its game)."""
        return bool(self.steps)

    def due(self, wait: Wait) -> dt.datetime | None:
        """When `wait` is due; None when its step has no deadline or its opening has no time.
        An absent player's wait is due as soon as it opens."""
        written, opened = self.steps.get(wait.step), self.opened.get(wait.key)
        if written is None or opened is None:
            return None
        start = moment(opened)
        assert start is not None
        if wait.who is not None and wait.who in self.absent:
            return start.astimezone(self.zone())
        rule = spec(written)
        if isinstance(rule, str):
            return None
        tz = self.zone()  # told in the campaign's zone: the same moment, as its players read it
        return due(start, rule, tz, self.extended.get(wait.key, 0)).astimezone(tz)


def _shallow(value: Any) -> Any:
    return type(value)(value) if isinstance(value, (dict, set, list)) else value


def set_up(deadlines: Mapping[str, str], tz: str = "UTC", absent_after: int = 0) -> Clock:
    """A campaign's clock before its first event."""
    return Clock(steps=dict(deadlines), tz=tz, absent_after=absent_after)


def follow(clock: Clock, at: dt.datetime | dt.date | None, waits: Iterable[Wait]) -> dict[str, str | None]:
    """After an event: the waits it opened are dated by its time, the ones it closed forgotten.
    Returns the waits it closed: each key with its player (None: the organisers')."""
    now_open = {w.key: w.who for w in waits}
    opened = clock.opened
    closed: dict[str, str | None] = {}
    if len(opened) > len(now_open) or any(k not in now_open for k in opened):
        for key in [k for k in opened if k not in now_open]:
            opened.pop(key)
            clock.extended.pop(key, None)
            clock.defaulted.discard(key)
            closed[key] = clock.whose.pop(key, None)
    new = [key for key in now_open if key not in opened]
    found = moment(at, _tz(clock)) if new else None  # most events open nothing: no time read
    if found is not None:
        for key in new:
            opened[key] = iso(found)
            who = now_open[key]
            if who is not None:
                clock.whose[key] = who
    return closed


def kept(state: Any) -> Clock | None:
    """The clock a game's state carries (`state.clock`); None for a state that carries none."""
    found = getattr(state, "clock", None)
    return found if isinstance(found, Clock) else None


def zone_of(state: Any) -> dt.tzinfo:
    """The campaign's time zone (`timezone:`), in which every due time is said; UTC without a clock."""
    clock = kept(state)
    return clock.zone() if clock is not None else dt.UTC


def day_and_time(value: dt.datetime, tz: dt.tzinfo = dt.UTC) -> str:
    """A moment as the log, the posts and the pages say it, in the campaign's zone: "Thu 3 Dec 20:00"."""
    local = value.astimezone(tz)
    return f"{local:%a} {local.day} {local:%b %H:%M}"


def _tz(clock: Clock) -> ZoneInfo:
    found = zone(clock.tz)
    return found if isinstance(found, ZoneInfo) else ZoneInfo("UTC")


@dataclass(frozen=True)
class Due:
    """A wait and when it is due (None: no deadline), as status, pages and posts show it."""

    wait: Wait
    due: dt.datetime | None
    absent: bool = False

    def document(self) -> dict[str, object]:
        """As `--json` shows it, beside what is waited for."""
        return {
            "step": self.wait.step,
            "player": self.wait.who,
            "what": self.wait.what,
            "due": iso(self.due) if self.due is not None else None,
            "absent": self.absent,
        }


def pending(clock: Clock, waits: Sequence[Wait]) -> list[Due]:
    """Each wait with its due time, soonest first (those without a deadline last)."""
    found = [Due(w, clock.due(w), w.who is not None and w.who in clock.absent) for w in waits]
    far = dt.datetime.max.replace(tzinfo=dt.UTC)
    return sorted(found, key=lambda d: d.due or far)


def first_due(found: Sequence[Due]) -> Due | None:
    """The wait due soonest, of `pending`'s (soonest first; those without a deadline last)."""
    return next((d for d in found if d.due is not None), None)


def when(due_at: dt.datetime, now_at: dt.datetime, tz: ZoneInfo | dt.tzinfo = dt.UTC) -> str:
    """A due time as a player reads it: "Thu 3 Dec 20:00 — in 2 days" (or "— 3 hours ago")."""
    said = day_and_time(due_at, tz)
    seconds = (due_at - now_at).total_seconds()
    size = abs(seconds)
    if size < 90:
        span = "now"
    else:
        for unit, length in (("day", 86400), ("hour", 3600), ("minute", 60)):
            if size >= length * (1.5 if unit != "minute" else 1):
                count = round(size / length)
                span = f"{count} {unit}{'s' if count != 1 else ''}"
                break
        span = f"in {span}" if seconds > 0 else f"{span} ago"
    return f"{said} — {span}"
