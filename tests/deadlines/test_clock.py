"""The ledger's clock (docs/deadlines.md): COK_NOW and --now set it for every command, a bad
one is one clear line and exit 1; due times from a duration or a weekday and time, the
latter at the same local hour across a change of summer time."""

from __future__ import annotations

import datetime as dt
import os
import subprocess
import sys
from pathlib import Path
from zoneinfo import ZoneInfo

from cok.core.deadlines import Spec, due, now, spec

from .conftest import MONDAY, WEEK_DUE, cok_at, iso, log

LONDON = ZoneInfo("Europe/London")


def test_a_duration_is_due_that_long_after_the_wait_opened() -> None:
    rule = spec("1d12h")
    assert isinstance(rule, Spec) and rule.seconds == 36 * 3600
    assert due(MONDAY, rule, LONDON) == MONDAY + dt.timedelta(hours=36)


def test_a_weekday_and_time_is_the_next_such_moment_in_the_campaigns_zone() -> None:
    rule = spec("monday 19:00")
    assert isinstance(rule, Spec)
    assert due(MONDAY, rule, LONDON) == WEEK_DUE  # the same day, later
    assert due(WEEK_DUE, rule, LONDON) == WEEK_DUE + dt.timedelta(days=7)  # strictly after: a week on


def test_a_weekday_deadline_keeps_its_local_hour_across_summer_time() -> None:
    rule = spec("sunday 19:00")
    assert isinstance(rule, Spec)
    before = dt.datetime(2026, 10, 20, 12, 0, tzinfo=dt.UTC)  # BST (UTC+1) until 25 October
    found = due(before, rule, LONDON)
    assert found.astimezone(LONDON).strftime("%a %H:%M") == "Sun 19:00"
    assert found == dt.datetime(2026, 10, 25, 19, 0, tzinfo=dt.UTC)  # GMT by then: 19:00 is 19:00Z
    spring = due(dt.datetime(2026, 3, 27, 12, 0, tzinfo=dt.UTC), rule, LONDON)
    assert spring == dt.datetime(2026, 3, 29, 18, 0, tzinfo=dt.UTC)  # BST from that morning


def test_cok_now_is_the_clock_of_every_command(week: Path) -> None:
    assert now("2026-12-03T20:00:00Z") == dt.datetime(2026, 12, 3, 20, 0, tzinfo=dt.UTC)
    at = dt.datetime(2026, 12, 2, 8, 30, tzinfo=dt.UTC)
    run = cok_at(week, at, "deadline", "--json")
    assert run.exit_code == 0, run.stderr
    assert '"now": "2026-12-02T08:30:00+00:00"' in run.stdout
    recorded = cok_at(week, at, "week", "--next")
    assert recorded.exit_code == 0, recorded.stderr
    assert f"at: '{iso(at)}'" in log(week)  # a recording is dated by the ledger's clock too


def test_now_on_the_command_line_overrides_cok_now(week: Path) -> None:
    run = cok_at(week, MONDAY, "tick", "--now", "2026-11-30T19:00:00Z", "--dry-run")
    assert run.exit_code == 0, run.stderr
    assert "would record: no start of the next week from the organisers by Mon 30 Nov 19:00" in run.stdout
    early = cok_at(week, WEEK_DUE, "tick", "--now", "2026-11-30T18:59:59Z", "--dry-run")
    assert early.stdout.startswith("nothing is due at Mon 30 Nov 2026 18:59")


def test_a_bad_now_is_one_clear_line_and_exit_1(week: Path) -> None:
    env = {**os.environ, "COK_NOW": "thursday-ish"}
    done = subprocess.run(
        [sys.executable, "-m", "cok", "deadline", "-C", str(week)], env=env, capture_output=True, text=True, check=False
    )
    assert done.returncode == 1
    assert done.stderr.strip() == "cok: COK_NOW='thursday-ish' is not a moment; write it as 2026-12-03T20:00:00Z"
    flag = cok_at(week, MONDAY, "tick", "--now", "soon")
    assert flag.exit_code == 1
    assert "--now='soon' is not a moment" in flag.stderr
