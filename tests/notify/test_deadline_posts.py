"""Deadlines in the club's chat (issue 48, docs/notify.md): reminders before each deadline at
the organiser's offsets, each once per wait and offset, to whoever is still waited for, checked
again when sent; and the summary saying the next due time. On the shipped Mighty Kingdoms
campaign (month 2's orders opened by the reform of 2026-11-23 06:37:52 UTC) with `orders: 48h`
and `reminders: [24h, 2h]`; the moments are the test's, nothing sleeps."""

from __future__ import annotations

import datetime as dt

from cok.core.campaign import open_campaign
from cok.notify import outbox
from cok.notify.posts import next_due
from cok.service.deadlines import schedule
from tests.conftest import Cok
from tests.notify.conftest import Fake

DUE = dt.datetime(2026, 11, 25, 6, 37, 52, tzinfo=dt.UTC)


def _deadlines(kow: Cok, *more: str) -> None:
    with (kow.cwd / "campaign.yaml").open("a", encoding="utf-8") as settings:
        settings.write("".join(f"{line}\n" for line in ("deadlines:", "  orders: 48h", "reminders: [24h, 2h]", *more)))


def _remind(kow: Cok, at: dt.datetime) -> int:
    campaign = open_campaign(kow.cwd)
    return outbox.remind(kow.cwd, campaign, at, schedule(campaign).reminders)


def test_a_reminder_goes_to_each_one_still_waited_for_once_per_wait_and_offset(kow: Cok, fake: Fake) -> None:
    _deadlines(kow)
    kow("notify", "add", fake.url, "--only", "nudge")
    assert _remind(kow, DUE - dt.timedelta(hours=25)) == 0  # before the first offset: nothing
    assert _remind(kow, DUE - dt.timedelta(hours=23)) == 3  # dag, bo and cy give orders
    assert _remind(kow, DUE - dt.timedelta(hours=22)) == 0  # the same offset: once
    kow("notify", "send")
    assert sorted(b.split(":")[0] + ":" + b.split(":")[1] for b in fake.bodies) == [
        "Reminder: the ledger waits for bo",
        "Reminder: the ledger waits for cy",
        "Reminder: the ledger waits for dag",
    ]
    assert all("due Wed 25 Nov 06:37" in b and "(in 23 hours)" in b for b in fake.bodies)
    assert _remind(kow, DUE - dt.timedelta(hours=1)) == 3  # the 2h offset: its own reminders


def test_a_reminder_is_not_sent_to_a_player_who_acted_meanwhile(kow: Cok, fake: Fake) -> None:
    _deadlines(kow)
    kow("notify", "add", fake.url, "--only", "nudge")
    assert _remind(kow, DUE - dt.timedelta(hours=23)) == 3
    for army in ("dag-1", "dag-2", "dag-3"):  # Dagny gives her orders before the courier sends
        assert kow("mk", "order", army, "defend").exit_code == 0
    kow("notify", "send")
    reminders = [b for b in fake.bodies if b.startswith("Reminder")]
    assert len(reminders) == 2 and not any("for dag" in b for b in reminders)


def test_no_reminder_after_the_deadline_and_one_not_many_when_started_late(kow: Cok, fake: Fake) -> None:
    _deadlines(kow)
    kow("notify", "add", fake.url, "--only", "nudge")
    assert _remind(kow, DUE + dt.timedelta(minutes=1)) == 0
    assert _remind(kow, DUE - dt.timedelta(hours=1)) == 3  # both offsets passed: the 2h one alone
    assert _remind(kow, DUE - dt.timedelta(minutes=30)) == 0


def test_no_reminder_without_reminders_set(kow: Cok, fake: Fake) -> None:
    with (kow.cwd / "campaign.yaml").open("a", encoding="utf-8") as settings:
        settings.write("deadlines:\n  orders: 48h\n")
    kow("notify", "add", fake.url, "--only", "nudge")
    assert _remind(kow, DUE - dt.timedelta(hours=1)) == 0


def test_the_summary_says_the_next_due_time_in_the_campaigns_zone(kow: Cok) -> None:
    _deadlines(kow, "timezone: Europe/London")
    said = next_due(open_campaign(kow.cwd))
    assert said.startswith("Next due: orders for ") and said.endswith("by Wed 25 Nov 06:37 (Europe/London).")


def test_a_summary_post_ends_with_the_next_due_time(kow: Cok, fake: Fake) -> None:
    _deadlines(kow)
    kow("notify", "add", fake.url, "--only", "summary")
    for army in ("dag-1", "dag-2", "dag-3", "bo-4", "bo-5", "cy-1"):
        assert kow("mk", "order", army, "defend").exit_code == 0
    while (found := open_campaign(kow.cwd)) and (turn := _resolver(found)) is not None:
        army = next(a.id for a in found.state.armies_of(turn) if not a.resolved)
        assert kow("mk", "resolve", army).exit_code == 0
    assert kow("mk", "reform").exit_code == 0
    kow("notify", "send")
    assert any("Now year" in b and "Next due: orders for " in b for b in fake.bodies), fake.bodies


def _resolver(campaign: object) -> str | None:
    from cok.rulesets.mighty_kingdoms.rules.phase import resolver

    return resolver(campaign.state)  # type: ignore[attr-defined]
