"""A served campaign keeps its own time (issue 48): the server's one alarm (serve/alarm.py)
records each default when its deadline passes, exactly once, even with `cok tick` racing it,
after a restart, and for every campaign of a club, including one added while serving. The
clock is the test's (`create_app(clock=…)`) and the alarm's sleep never ends by itself: the
test moves the clock and wakes the alarm; nothing sleeps."""

from __future__ import annotations

import datetime as dt
import os
import shutil
import subprocess
import sys
import warnings
from pathlib import Path

import pytest
import yaml

from cok.core import deadlines
from cok.core.campaign import open_campaign
from cok.serve.alarm import Alarm, Held, until_woken
from cok.serve.app import create_app
from cok.serve.club import club_app, gathered
from cok.serve.warm import Draft, Who

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

#: The example's last week began 2026-10-05 10:30 UTC; with `week: 3d` the next is due then.
DUE = dt.datetime(2026, 10, 8, 10, 30, tzinfo=dt.UTC)
BEFORE = DUE - dt.timedelta(hours=13)
AFTER = DUE + dt.timedelta(minutes=5)
#: `cok tick`, as cron or the systemd timer runs it (its time: COK_NOW).
TICK = [sys.executable, "-m", "cok", "tick"]


def with_deadlines(folder: Path, *lines: str) -> Path:
    with (folder / "campaign.yaml").open("a", encoding="utf-8") as settings:
        settings.write("".join(f"{line}\n" for line in ("deadlines:", "  week: 3d", *lines)))
    return folder


def defaults(folder: Path) -> list[dict[str, object]]:
    events = yaml.safe_load((folder / "events.yaml").read_text(encoding="utf-8"))
    return [e for e in events if e.get("default")]


def due_times(folder: Path) -> list[dt.datetime]:
    campaign = open_campaign(folder)
    found = deadlines.pending(campaign.state.clock, campaign.ruleset.waits(campaign.state))
    return [d.due for d in found if d.due is not None]


def woken(alarm: Alarm, clock: Held, at: dt.datetime) -> None:
    """The test's clock moved to `at`, the alarm woken, and what it then does done."""
    clock.at = at
    alarm.rearm()
    assert alarm.quiet(), "the alarm never went back to sleep"


def test_a_deadline_passing_under_a_running_server_records_the_default_once(example: Path) -> None:
    folder = with_deadlines(example)
    assert due_times(folder) == [DUE]
    clock = Held(BEFORE)
    app = create_app(folder, clock=clock, sleep=until_woken)
    with TestClient(app):
        alarm: Alarm = app.state.server.alarm
        assert alarm.quiet() and alarm.at == DUE and alarm.wakes == 0 and defaults(folder) == []
        woken(alarm, clock, AFTER)
        made = defaults(folder)
        assert len(made) == 1 and made[0]["default"] == "deadline" and made[0]["by"] == "ledger"
        assert deadlines.moment(str(made[0]["due"])) == DUE
        woken(alarm, clock, AFTER + dt.timedelta(minutes=1))  # woken again: nothing more is due
        assert len(defaults(folder)) == 1 and alarm.wakes == 1
        assert alarm.at == AFTER + dt.timedelta(days=3)  # the next week's deadline, from when it began


def test_a_recording_arms_the_alarm_again(example: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A write the server hears (the organiser starting the next week early) moves the deadline."""
    monkeypatch.setenv("COK_NOW", deadlines.iso(BEFORE))  # the recording's time
    folder = with_deadlines(example)
    clock = Held(BEFORE)
    app = create_app(folder, clock=clock, sleep=until_woken)
    with TestClient(app):
        alarm: Alarm = app.state.server.alarm
        assert alarm.quiet() and alarm.at == DUE
        armed = alarm.armed
        app.state.server.warm.record([Draft("week", {})], Who("organiser", True))
        assert alarm.quiet() and alarm.armed > armed
        assert alarm.at == BEFORE + dt.timedelta(days=3) and defaults(folder) == []


def test_a_server_restarted_with_a_deadline_passed_applies_it_at_start(example: Path) -> None:
    folder = with_deadlines(example)
    clock = Held(BEFORE)
    first = create_app(folder, clock=clock, sleep=until_woken)
    with TestClient(first):
        assert first.state.server.alarm.quiet() and first.state.server.alarm.at == DUE
    clock.at = AFTER  # the deadline passes while no server runs
    second = create_app(folder, clock=clock, sleep=until_woken)
    with TestClient(second):
        assert second.state.server.alarm.quiet()
        made = defaults(folder)
        assert len(made) == 1 and deadlines.moment(str(made[0]["due"])) == DUE and second.state.server.alarm.wakes == 1


def test_a_server_restarted_before_the_deadline_arms_the_alarm_for_it(example: Path) -> None:
    folder = with_deadlines(example)
    clock = Held(BEFORE)
    app = create_app(folder, clock=clock, sleep=until_woken)
    with TestClient(app):
        assert app.state.server.alarm.quiet() and app.state.server.alarm.at == DUE
        assert app.state.server.alarm.wakes == 0 and defaults(folder) == []


def test_a_tick_and_a_server_racing_record_each_default_exactly_once(example: Path) -> None:
    folder = with_deadlines(example)
    clock = Held(BEFORE)
    app = create_app(folder, clock=clock, sleep=until_woken)
    env = {**os.environ, "COK_NOW": deadlines.iso(AFTER)}
    with TestClient(app):
        alarm: Alarm = app.state.server.alarm
        assert alarm.quiet()
        ticks = [subprocess.Popen([*TICK, "-C", str(folder)], env=env, stdout=subprocess.DEVNULL) for _ in range(2)]
        woken(alarm, clock, AFTER)
        assert [t.wait(timeout=120) for t in ticks] == [0, 0]
        woken(alarm, clock, AFTER)
    made = defaults(folder)
    assert len(made) == 1 and deadlines.moment(str(made[0]["due"])) == DUE


def test_a_clubs_every_campaign_has_its_alarm_armed_including_one_added_while_serving(tmp_path: Path) -> None:
    from tests.conftest import EXAMPLE

    club = tmp_path / "club"
    for name in ("north", "south"):
        with_deadlines(_copy(EXAMPLE, club / name))
    clock = Held(BEFORE)
    app = club_app(club, gathered(club), lambda folder: create_app(folder, clock=clock, sleep=until_woken))
    with TestClient(app) as client:
        made = app.state.club._made
        alarms = [made[club / name].state.server.alarm for name in ("north", "south")]
        assert all(a.quiet() and a.at == DUE for a in alarms)
        with_deadlines(_copy(EXAMPLE, club / "west"))
        assert client.get("/west/").status_code == 200  # seen at its first request
        west = made[club / "west"].state.server.alarm
        assert west.quiet() and west.at == DUE
        for alarm in [*alarms, west]:
            woken(alarm, clock, AFTER)
        page = client.get("/").text
    for name in ("north", "south", "west"):
        assert len(defaults(club / name)) == 1, name
    assert "Next due" in page


def _copy(source: Path, to: Path) -> Path:
    shutil.copytree(source, to)
    return to


def test_the_alarm_wakes_at_a_reminders_moment_and_queues_it_once(tmp_path: Path) -> None:
    """Mighty Kingdoms' month 2 orders, due 2026-11-25 06:37:52 UTC, `reminders: [24h]`, a chat
    destination taking nudges: the alarm sleeps until 24 hours before, then queues one reminder
    for each kingdom still waited for, once."""
    from tests.conftest import ROOT, Cok
    from tests.notify.conftest import serving

    folder = _copy(ROOT / "campaigns" / "mighty-kingdoms", tmp_path / "mk")
    with (folder / "campaign.yaml").open("a", encoding="utf-8") as settings:
        settings.write("deadlines:\n  orders: 48h\nreminders: [24h]\n")
    due = dt.datetime(2026, 11, 25, 6, 37, 52, tzinfo=dt.UTC)
    clock = Held(due - dt.timedelta(hours=30))
    with serving() as fake:
        assert Cok(folder)("notify", "add", fake.url, "--only", "nudge").exit_code == 0
        app = create_app(folder, clock=clock, sleep=until_woken)
        with TestClient(app):
            alarm: Alarm = app.state.server.alarm
            assert alarm.quiet() and alarm.at == due - dt.timedelta(hours=24)
            woken(alarm, clock, due - dt.timedelta(hours=23, minutes=59))
            expected = [f"due.orders-y3-m2-{p}.86400s" for p in ("bo", "cy", "dag")]
            assert _reminders(folder) == expected
            woken(alarm, clock, due - dt.timedelta(hours=23))  # woken again: nothing more to queue
            assert _reminders(folder) == expected and alarm.at == due and alarm.wakes == 1


def _reminders(folder: Path) -> list[str]:
    """The reminders queued or already sent by the server's courier (each key once)."""
    from cok.notify.home import campaign_home

    home = campaign_home(folder)
    found = [p.stem for p in (home / "outbox").glob("due.*.json")] + [p.name for p in (home / "sent").glob("due.*")]
    return sorted(found)


def test_a_default_recorded_by_the_server_is_posted_like_any_recording(example: Path) -> None:
    from cok.notify.home import campaign_home
    from cok.notify.home import read_json as read
    from tests.conftest import Cok
    from tests.notify.conftest import serving

    folder = with_deadlines(example)
    clock = Held(BEFORE)
    with serving() as fake:
        assert Cok(folder)("notify", "add", fake.url, "--only", "week").exit_code == 0
        app = create_app(folder, clock=clock, sleep=until_woken)
        with TestClient(app):
            alarm: Alarm = app.state.server.alarm
            assert alarm.quiet()
            woken(alarm, clock, AFTER)
            made = defaults(folder)
            home = campaign_home(folder)
            queued = [read(p) for p in (home / "outbox").glob("*.json")]
            sent = [p.name for p in (home / "sent").glob("*")]
    posted = [str(q["text"]) for q in queued if q["key"] == made[0]["id"]]
    assert (posted and posted[0].startswith("no start of the next week")) or made[0]["id"] in sent
