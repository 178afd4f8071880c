"""Campaigns with deadlines, at times the tests set (COK_NOW, `now=`): never a sleep.

- `week`: Clash of Kings, `deadlines: {week: monday 19:00}` in Europe/London, Tim and Matt
  joined on Monday 30 November 2026 at 10:00 (week 1's end is due that evening at 19:00).
- `turns`: the toy game whose ledger waits for each player (tests/deadlines/turns.py), a
  score due 48 h after its round opened, Al and Bo joined at T0."""

from __future__ import annotations

import datetime as dt
import shutil
from pathlib import Path

import pytest

from cok.core import ruleset as registry

from ..conftest import WESTEROS, Cok, Run

registry.register("turns", "tests.deadlines.turns")

UTC = dt.UTC
MONDAY = dt.datetime(2026, 11, 30, 10, 0, tzinfo=UTC)  # week 1 opens
WEEK_DUE = dt.datetime(2026, 11, 30, 19, 0, tzinfo=UTC)  # London is on UTC in winter
T0 = dt.datetime(2026, 12, 1, 12, 0, tzinfo=UTC)  # the turns campaign opens


def iso(moment: dt.datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


@pytest.fixture
def week(tmp_path: Path) -> Path:
    folder = tmp_path / "week"
    folder.mkdir()
    shutil.copyfile(WESTEROS, folder / "map.yaml")
    (folder / "campaign.yaml").write_text(
        "name: Weekly\nmap: map.yaml\npoints: {start: 20, step: 3}\n"
        "timezone: Europe/London\ndeadlines: {week: monday 19:00}\n"
    )
    (folder / "events.yaml").write_text(
        f"- type: join\n  player: tim\n  faction: martell\n  id: j1\n  at: {iso(MONDAY)}\n"
        f"- type: join\n  player: matt\n  faction: lannister\n  id: j2\n  at: {iso(MONDAY)}\n"
    )
    return folder


TURNS_SETTINGS = (
    "name: Turns\nruleset: turns\nmap: board.yaml\n"
    "deadlines: {score: 48h}\nabsent_after: 2\nextensions: 1\nextension: 12h\nreminders: [24h, 2h]\n"
)


@pytest.fixture
def turns(tmp_path: Path) -> Path:
    folder = tmp_path / "turns"
    folder.mkdir()
    (folder / "board.yaml").write_text("name: Board\ncap: 5\n")
    (folder / "campaign.yaml").write_text(TURNS_SETTINGS)
    (folder / "events.yaml").write_text(
        f"- type: join\n  player: al\n  id: j1\n  at: {iso(T0)}\n"
        f"- type: join\n  player: bo\n  id: j2\n  at: {iso(T0)}\n"
    )
    return folder


def cok_at(folder: Path, moment: dt.datetime, *args: str) -> Run:
    """The real command line in `folder` with the ledger's clock at `moment`."""
    return Cok(folder)(*args, env={"COK_NOW": iso(moment), "COK_BY": "ann"})


def log(folder: Path) -> str:
    return (folder / "events.yaml").read_text()


LATE_ENOUGH = "2026-12-01T09:00:00Z"  # after week 1 was due
