"""`cok tick` and the service's tick (docs/deadlines.md): each default recorded once, through
the one recording path, decided under the lock; a deadline missed while nothing ran applied
at the next tick, dated then and saying when it was due; a dry run writes nothing."""

from __future__ import annotations

import datetime as dt
import json
import multiprocessing
from pathlib import Path

from cok.core.campaign import open_campaign
from cok.service.deadlines import next_due, pending, tick

from .conftest import WEEK_DUE, cok_at, log

LATE = WEEK_DUE + dt.timedelta(days=3, hours=2)  # Thursday 3 December, 21:00


def test_a_tick_records_the_next_week_once_at_its_deadline(week: Path) -> None:
    first = tick(week, WEEK_DUE)
    again = tick(week, WEEK_DUE)
    assert [d.wait.key for d in first.defaults] == ["week:1"] and again.defaults == []
    assert log(week).count("- type: week") == 1
    assert "  default: deadline\n  due: '2026-11-30T19:00:00Z'\n" in log(week)
    assert "  by: ledger\n" in log(week)
    assert open_campaign(week, use_cache=False).state.week == 2


def test_the_week_default_is_the_ordinary_week_with_the_usual_limit(week: Path) -> None:
    done = tick(week, WEEK_DUE)
    assert done.defaults[0].recording.told == [
        "no start of the next week from the organisers by Mon 30 Nov 19:00 (applied Mon 30 Nov 19:00): "
        "week 2 begins — points limit 23 (+3)"
    ]


def test_a_tick_before_the_deadline_records_nothing(week: Path) -> None:
    assert tick(week, WEEK_DUE - dt.timedelta(seconds=1)).defaults == []
    assert "type: week" not in log(week)


def test_a_deadline_missed_while_nothing_ran_is_applied_at_the_next_tick_dated_then(week: Path) -> None:
    done = tick(week, LATE)
    event = done.defaults[0].recording.events[0]
    assert event.at == LATE and event.due == WEEK_DUE
    assert "(applied Thu 3 Dec 21:00)" in done.defaults[0].recording.told[0]
    # week 2 opened when it was applied: due the Monday after, not at once
    assert [d.due for d in pending(open_campaign(week))] == [dt.datetime(2026, 12, 7, 19, 0, tzinfo=dt.UTC)]
    assert tick(week, LATE).defaults == []


def test_a_dry_run_tick_writes_nothing(week: Path) -> None:
    before = log(week)
    run = cok_at(week, LATE, "tick", "--dry-run")
    assert run.exit_code == 0, run.stderr
    assert run.stdout.startswith("would record: no start of the next week")
    assert log(week) == before


def test_the_ledgers_clock_after_a_tick_is_the_folds(week: Path) -> None:
    recorded = tick(week, LATE).defaults[0].recording.campaign.state.clock
    assert open_campaign(week, use_cache=False).state.clock == recorded


def _racer(folder: str, barrier: object, out: object) -> None:
    from cok.rulesets import install

    install()
    barrier.wait()  # type: ignore[attr-defined]
    done = tick(Path(folder), LATE)
    out.put(len(done.defaults))  # type: ignore[attr-defined]


def test_two_ticks_racing_record_the_default_once(week: Path) -> None:
    context = multiprocessing.get_context("spawn")
    barrier, out = context.Barrier(2), context.Queue()
    racers = [context.Process(target=_racer, args=(str(week), barrier, out)) for _ in range(2)]
    for racer in racers:
        racer.start()
    for racer in racers:
        racer.join(120)
    assert sorted(out.get(timeout=5) for _ in racers) == [0, 1]
    assert log(week).count("- type: week") == 1


def test_tick_json_lists_each_default_with_its_events(week: Path) -> None:
    run = cok_at(week, LATE, "tick", "--json")
    assert run.exit_code == 0, run.stderr
    document = json.loads(run.stdout)
    assert set(document) == {"now", "written", "defaults", "refused"}
    assert document["now"] == "2026-12-03T21:00:00+00:00" and document["written"] is True
    (default,) = document["defaults"]
    assert {k: default[k] for k in ("step", "player", "what", "default", "due")} == {
        "step": "week",
        "player": None,
        "what": "the start of week 2",
        "default": "deadline",
        "due": "2026-11-30T19:00:00+00:00",
    }
    assert default["events"][0]["type"] == "week" and default["events"][0]["by"] == "ledger"
    assert default["told"][0].startswith("no start of the next week")


def test_deadline_json_shows_what_is_due_and_when(week: Path) -> None:
    run = cok_at(week, LATE - dt.timedelta(days=4), "deadline", "--json")
    assert run.exit_code == 0, run.stderr
    assert json.loads(run.stdout) == {
        "now": "2026-11-29T21:00:00+00:00",
        "timezone": "Europe/London",
        "due": [
            {
                "step": "week",
                "player": None,
                "what": "the start of week 2",
                "due": "2026-11-30T19:00:00+00:00",
                "absent": False,
            }
        ],
        "absent": [],
        "next": "2026-11-30T19:00:00+00:00",
        "steps": [
            {
                "step": "week",
                "what": "start of the next week",
                "deadline": "monday 19:00",
                "default": "next",
                "choices": ["next", "none"],
            }
        ],
    }


def test_next_due_is_the_soonest_default_or_reminder(turns: Path) -> None:
    campaign = open_campaign(turns)
    opened = dt.datetime(2026, 12, 1, 12, 0, tzinfo=dt.UTC)
    assert next_due(campaign, opened) == opened + dt.timedelta(hours=24)  # the 24h reminder before 48h
    assert next_due(campaign, opened + dt.timedelta(hours=25)) == opened + dt.timedelta(hours=46)  # the 2h one
    assert next_due(campaign, opened + dt.timedelta(hours=47)) == opened + dt.timedelta(hours=48)  # the deadline
    assert next_due(campaign, opened + dt.timedelta(days=9)) == opened + dt.timedelta(hours=48)  # owed: at once


def test_a_campaign_without_deadlines_is_never_due(tmp_path: Path, week: Path) -> None:
    (week / "campaign.yaml").write_text("name: W\nmap: map.yaml\n")
    campaign = open_campaign(week)
    assert next_due(campaign, LATE) is None
    assert tick(week, LATE).defaults == []


def test_cok_week_shows_when_the_next_week_is_due(week: Path) -> None:
    document = json.loads(cok_at(week, WEEK_DUE - dt.timedelta(hours=2), "week", "--json").stdout)
    assert document["due"] == [
        {
            "step": "week",
            "player": None,
            "what": "the start of week 2",
            "due": "2026-11-30T19:00:00+00:00",
            "absent": False,
        }
    ]
    assert document["absent"] == []
    said = cok_at(week, WEEK_DUE - dt.timedelta(hours=2), "week").stdout
    assert "week 1, points limit 20; week 2 is due Mon 30 Nov 19:00 — in 2 hours" in said


def test_cok_where_json_carries_the_due_times(week: Path) -> None:
    document = json.loads(cok_at(week, WEEK_DUE, "where", "tim", "matt", "--json").stdout)
    assert [d["due"] for d in document["due"]] == ["2026-11-30T19:00:00+00:00"]


def test_a_past_deadline_whose_default_is_none_is_never_due_again(turns: Path) -> None:
    (turns / "campaign.yaml").write_text((turns / "campaign.yaml").read_text() + "defaults: {score: none}\n")
    campaign = open_campaign(turns)
    opened = dt.datetime(2026, 12, 1, 12, 0, tzinfo=dt.UTC)
    assert next_due(campaign, opened + dt.timedelta(hours=47)) == opened + dt.timedelta(hours=48)
    assert next_due(campaign, opened + dt.timedelta(days=9)) is None  # told once, then nothing to do
    assert tick(turns, opened + dt.timedelta(days=9)).defaults == []


def test_tick_all_ticks_every_campaign_below_a_folder(week: Path, turns: Path) -> None:
    run = cok_at(week.parent, LATE, "tick", "--all", str(week.parent), "--json")
    assert run.exit_code == 0, run.stderr
    ticked = {Path(d["campaign"]).name: [x["what"] for x in d["defaults"]] for d in json.loads(run.stdout)["campaigns"]}
    assert ticked == {"week": ["the start of week 2"], "turns": ["al's score in round 1", "bo's score in round 1"]}
    assert "default: deadline" in log(week) and "default: deadline" in log(turns)


def test_cok_log_tells_the_default_in_its_words(week: Path) -> None:
    tick(week, LATE)
    said = cok_at(week, LATE, "log").stdout
    assert "no start of the next week from the organisers by Mon 30 Nov 19:00 (applied Thu 3 Dec 21:00): " in said
