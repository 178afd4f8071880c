"""Reminders before a deadline (issue 48): at each offset the organiser set (`reminders:
[24h, 2h]` in campaign.yaml), whoever the ledger still waits for is reminded once in the
club's chat — once per wait and offset (the outbox's key holds both), and only while the
wait goes on: the reminder is a nudge, checked again when it is sent (asked.py), so a player
who acted meanwhile is not reminded. The server's alarm wakes at each reminder's moment
(serve/alarm.py) and queues it (`outbox.remind`); the courier sends it."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from cok.core import deadlines

if TYPE_CHECKING:
    from cok.core.campaign import Campaign
    from cok.core.deadlines import Due, Wait

#: What a reminder's `about` begins with: the wait it reminds of follows (`due:orders:1:3:bo`).
ABOUT = "due:"


def times(campaign: Campaign, dues: Sequence[Due], offsets: Sequence[int]) -> list[dt.datetime]:
    """The moments reminders are due: each deadline less each offset in seconds (the
    organiser's `reminders:`, `service.deadlines.schedule`); the alarm wakes then. None when
    the campaign posts nowhere (no destination: nothing to wake for)."""
    spans = list(offsets) if any(d.due is not None for d in dues) else []
    if spans and not _posts(campaign.folder):
        return []
    return [d.due - dt.timedelta(seconds=s) for d in dues if d.due is not None and not d.absent for s in spans]


def _posts(folder: Path) -> bool:
    from cok.notify.destinations import settings

    try:
        return bool(settings(folder).destinations)
    except Exception:  # no data folder: no destination was ever added
        return False


def key(wait_key: str, seconds: int) -> str:
    """The outbox key of one reminder: its wait and offset (each sent at most once)."""
    safe = re.sub(r"[^A-Za-z0-9._-]", "-", wait_key)
    return f"due.{safe}.{seconds}s"


def said(due: Due, tz: dt.tzinfo) -> str:
    """A due time as a post says it: the moment in the campaign's zone, no "in 2 days" (the
    post is read later than it is written)."""
    assert due.due is not None
    return deadlines.day_and_time(due.due, tz)


def due_now(campaign: Campaign, now: dt.datetime, offsets: Sequence[int]) -> list[tuple[str, str, Wait]]:
    """The reminders due at `now` (key, text, wait): each wait's latest offset passed, while
    its deadline is still ahead (a server started late sends one, not every one it missed)."""
    state = campaign.state
    clock = getattr(state, "clock", None)
    if clock is None or not clock.on:
        return []
    spans = list(offsets)
    if not spans:
        return []
    tz = deadlines.zone_of(campaign.state)
    made = []
    for due in deadlines.pending(clock, campaign.ruleset.waits(state)):
        if due.due is None or due.absent or due.due <= now:
            continue
        passed = [s for s in spans if due.due - dt.timedelta(seconds=s) <= now]
        if not passed:
            continue
        left = deadlines.when(due.due, now, tz).split(" — ")[-1]
        who = "{who}" if due.wait.who is not None else "the organisers"
        text = f"Reminder: the ledger waits for {who}: {due.wait.what}, due {said(due, tz)} ({left})."
        made.append((key(due.wait.key, min(passed)), text, due.wait))
    return made
