"""campaign.yaml's time keys (docs/deadlines.md): each mistake refused at its own line with
what would be accepted, nothing replayed; `cok schema campaign` lists every key."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cok.core.campaign import open_campaign
from cok.core.errors import Refused

from ..conftest import Cok
from .conftest import TURNS_SETTINGS


def refused(folder: Path, settings: str) -> list[tuple[int | None, str]]:
    (folder / "campaign.yaml").write_text(settings)
    with pytest.raises(Refused) as caught:
        open_campaign(folder, use_cache=False)
    return [(p.line, p.message) for p in caught.value.problems]


def test_a_step_the_game_does_not_have_is_refused_at_its_line_with_the_games_steps(week: Path) -> None:
    said = refused(week, "name: W\nmap: map.yaml\ndeadlines:\n  week: 48h\n  orders: 48h\n")
    assert said == [(5, "deadlines.orders: Clash of Kings has no step 'orders'; its steps: week")]


def test_a_time_that_does_not_read_is_refused_at_its_line_saying_what_reads(week: Path) -> None:
    (line, message), *_ = refused(week, "name: W\nmap: map.yaml\ndeadlines:\n  week: next tuesday\n")
    assert line == 4
    assert message.startswith("deadlines.week: 'next tuesday' is neither a duration (48h, 3d, 1d12h, 90m)")
    assert "weekday and time (monday 19:00)" in message


def test_a_weekday_misspelt_is_refused_naming_the_weekdays(week: Path) -> None:
    (line, message), *_ = refused(week, "name: W\nmap: map.yaml\ndeadlines: {week: mondy 19:00}\n")
    assert line == 3 and "'mondy' is not a weekday" in message and "monday, tuesday" in message


def test_an_unknown_time_zone_is_refused_at_its_line(week: Path) -> None:
    said = refused(week, "name: W\nmap: map.yaml\ntimezone: Europe/Londn\ndeadlines: {week: 3d}\n")
    assert said[0][0] == 3
    assert said[0][1].startswith("timezone: 'Europe/Londn' is not an IANA time zone")


def test_a_default_the_step_does_not_offer_is_refused_with_the_steps_choices(week: Path) -> None:
    said = refused(week, "name: W\nmap: map.yaml\ndeadlines: {week: 3d}\ndefaults:\n  week: skip\n")
    assert said == [(5, "defaults.week: 'skip' is not one of next, none (week: next, the safest, when not given)")]


def test_a_reminder_or_an_extension_that_is_not_a_length_is_refused_at_its_line(week: Path) -> None:
    said = refused(
        week, "name: W\nmap: map.yaml\ndeadlines: {week: 3d}\nreminders:\n  - 24h\n  - friday 10:00\nextension: soon\n"
    )
    assert [line for line, _ in said] == [6, 7]
    assert said[0][1].startswith("reminders[2]: 'friday 10:00' is a weekday and time")
    assert said[1][1].startswith("extension: 'soon' is neither a duration")


def test_the_counts_are_whole_numbers_from_nought(week: Path) -> None:
    said = refused(week, "name: W\nmap: map.yaml\nabsent_after: -1\n")
    assert said[0][0] == 3 and "absent_after" in said[0][1]


def test_a_bad_setting_is_said_by_cok_check_with_exit_1(week: Path) -> None:
    (week / "campaign.yaml").write_text("name: W\nmap: map.yaml\ndeadlines: {wek: 3d}\n")
    run = Cok(week)("check")
    assert run.exit_code == 1
    assert "campaign.yaml:3: deadlines.wek: Clash of Kings has no step 'wek' (did you mean 'week'?)" in run.stderr


def test_good_settings_are_read_into_the_clock(turns: Path) -> None:
    clock = open_campaign(turns, use_cache=False).state.clock
    assert (clock.steps, clock.tz, clock.absent_after, clock.extensions) == ({"score": "48h"}, "UTC", 2, 1)
    assert TURNS_SETTINGS  # the fixture's settings, accepted whole


def test_cok_schema_campaign_lists_every_time_key(week: Path) -> None:
    run = Cok(week)("schema", "campaign")
    assert run.exit_code == 0, run.stderr
    properties = json.loads(run.stdout)["properties"]
    for key in ("timezone", "deadlines", "defaults", "reminders", "extensions", "extension", "absent_after"):
        assert properties[key]["description"], key
