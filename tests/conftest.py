"""Shared helpers: small hand-made maps, replaying events without files, a CLI runner."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import typer.main
import typer.testing
from typer.testing import CliRunner

from cok.core.events import Entry
from cok.core.fold import Folded, fold
from cok.core.log import Log, event_types, parse_event, read_log
from cok.core.yamlfile import YamlMap, parse, read_file
from cok.main import app
from cok.rulesets import install
from cok.rulesets.clash_of_kings import RULESET
from cok.rulesets.clash_of_kings.map import Geography, Location, Route
from cok.rulesets.clash_of_kings.mapfile import load_map
from cok.rulesets.clash_of_kings.rules.apply import apply, initial_state
from cok.rulesets.clash_of_kings.rules.state import Settings, State

install()

ROOT = Path(__file__).resolve().parents[1]
WESTEROS = RULESET.builtin_map()  # the game's own (package data: rulesets/clash_of_kings/maps/)
EXAMPLE = ROOT / "campaigns" / "example"


@pytest.fixture(autouse=True)
def _dice_seeds_of_the_test(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """The seeds of the fair dice (docs/dice.md) are kept in a data folder of the test's own,
    never the user's (a test that needs its own sets COK_DATA_DIR again)."""
    monkeypatch.setenv("COK_DATA_DIR", str(tmp_path_factory.mktemp("data")))


@pytest.fixture(scope="session")
def westeros() -> Geography:
    return load_map(WESTEROS)


def tiny_map(locations: str, routes: str = "") -> Geography:
    """`tiny_map("A:castle B:fort R:region", "A-B B-R R~C")`: `-` a land route, `~` a sea route."""
    locs = {}
    for item in locations.split():
        name, kind = item.split(":")
        locs[name] = Location(name, kind)  # type: ignore[arg-type]
    links = []
    for item in routes.split():
        sep = "~" if "~" in item else "-"
        a, b = item.split(sep)
        links.append(Route(a, b, "sea" if sep == "~" else "land"))
    return Geography("tiny", locs, links)


def event(data: dict[str, Any] | str) -> Any:
    """An event from a dict or a YAML mapping, validated like a log entry."""
    if isinstance(data, str):
        data = parse(data, "test")
    else:
        data = YamlMap(data)
        data.line, data.key_lines = 1, {}
    found, errors = parse_event(data, event_types(RULESET), RULESET)
    assert found is not None, errors
    return found


def play(geo: Geography, events: Iterable[dict[str, Any]], settings: Settings | None = None) -> State:
    """Apply the events in order to a fresh state; a refusal raises RuleError."""
    state = initial_state(geo, settings or Settings())
    for data in events:
        apply(state, event(data))
    return state


def replayed(geo: Geography, events: Iterable[dict[str, Any]], settings: Settings | None = None) -> Folded:
    """The fold of the events (each on its own line), as the core folds a log."""
    entries = [Entry(event(data), line) for line, data in enumerate(events, start=1)]
    return fold(RULESET, entries, initial_state(geo, settings or Settings()), "events.yaml")


def joins(**castles: str) -> list[dict[str, Any]]:
    """`joins(tim="A", matt="B")`: each player joins with the named castle."""
    return [{"type": "join", "player": p, "faction": "neutral", "castle": c} for p, c in castles.items()]


def read_events(path: Path) -> Log:
    """The Clash of Kings log in a file, read as the core reads it."""
    raw, text = read_file(path, "event log")
    return read_log(raw, text, str(path), RULESET)


@dataclass
class Run:
    exit_code: int
    stdout: str
    stderr: str


#: Typer builds the click command from the functions' signatures on every call (~30 ms);
#: the tests build it once and run it many times.
COMMAND = typer.main.get_command(app)
_build = typer.testing._get_command
typer.testing._get_command = lambda typer_app: COMMAND if typer_app is app else _build(typer_app)


class Cok:
    """Runs the real command line in-process, in a given folder."""

    def __init__(self, cwd: Path) -> None:
        self.cwd = cwd
        self.runner = CliRunner()

    def __call__(self, *args: str, input: str | None = None, env: dict[str, str] | None = None) -> Run:
        old = Path.cwd()
        os.chdir(self.cwd)
        try:
            result = self.runner.invoke(app, list(args), input=input, env=env, catch_exceptions=False)
        finally:
            os.chdir(old)
        return Run(result.exit_code, result.stdout, result.stderr)


@pytest.fixture
def campaign(tmp_path: Path) -> Path:
    """An empty campaign on the Westeros map."""
    folder = tmp_path / "campaigns" / "test"
    folder.mkdir(parents=True)
    shutil.copyfile(WESTEROS, tmp_path / "westeros.yaml")
    (folder / "campaign.yaml").write_text("name: Test\nmap: ../../westeros.yaml\npoints: {start: 20, step: 3}\n")
    (folder / "events.yaml").write_text("")
    return folder


@pytest.fixture
def two(campaign: Path) -> Path:
    """Tim (Martell, at Sunspear) and Matt (Lannister, at Casterly Rock), week 1: as many
    territories, so a battle between them rolls off."""
    (campaign / "events.yaml").write_text(
        "- type: join\n  player: tim\n  name: Tim\n  faction: martell\n  id: j1\n"
        "- type: join\n  player: matt\n  name: Matt\n  faction: lannister\n  id: j2\n"
    )
    return campaign


@pytest.fixture
def cok(campaign: Path) -> Cok:
    return Cok(campaign)


@pytest.fixture
def example(tmp_path: Path) -> Path:
    """A copy of the shipped example campaign, safe to append to (self-contained: its map is its own)."""
    copy = tmp_path / "copy" / "campaigns" / "example"
    shutil.copytree(EXAMPLE, copy)
    return copy


def holding(geo: Geography, held: dict[str, list[str]], bonus: dict[str, int] | None = None) -> State:
    """A state in which each player holds the given locations (and bonus CP)."""
    from cok.rulesets.clash_of_kings.rules.apply import commit
    from cok.rulesets.clash_of_kings.rules.outcomes import Joined

    state = initial_state(geo, Settings())
    for pid, locations in held.items():
        commit(Joined(pid, pid.title(), "neutral", 1, tuple(locations), "test"), state)
        state.bonus[pid] = (bonus or {}).get(pid, 0)
    return state


@pytest.fixture(autouse=True)
def _own_cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every test gets an empty replay cache of its own, never the user's."""
    monkeypatch.setenv("COK_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))


Marks = dict[Path, tuple[int, int]]


def site_marks(site: Path) -> Marks:
    """Each file of a built site with its inode and modification time: a file written again
    (even with the same text) gets new ones."""
    return {p: (p.stat().st_ino, p.stat().st_mtime_ns) for p in site.rglob("*") if p.is_file()}


def rewritten_since(before: Marks, site: Path) -> list[str]:
    """The site's files written since `before` was taken, by their paths in the site."""
    now = site_marks(site)
    return sorted(str(p.relative_to(site)) for p, seen in before.items() if now.get(p) != seen)


def older_pages_never_show(site: Path, badge: str, newest: Iterable[str]) -> None:
    """The site's older pages (`log-1.html`, `players/tim-2.html` …) show none of today's
    `badge`, which the newest pages do."""
    older = list(site.rglob("*-[0-9]*.html"))
    assert older and not any(badge in page.read_text() for page in older)
    assert all(badge in (site / name).read_text() for name in newest)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """One Chromium for a test module's pages (tests/browser.py): skipped without one, a
    failure under CI. A test that takes it is marked `browser` (below)."""
    from tests.browser import browser as launch

    with launch() as launched:
        yield launched


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "browser: opens pages in Chromium (tests/browser.py); `-m 'not browser'` leaves them out"
    )
    config.addinivalue_line(
        "markers", "slow: fuzzing, kill -9 and whole-log runs; `-m 'not slow'` leaves them out while you work"
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """A test that takes a `browser` or `chromium` fixture (every page test launches Chromium
    through one) is marked `browser`, so a new page test needs no mark of its own."""
    for item in items:
        if {"browser", "chromium"} & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.browser)


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    """Browser tests skipped for want of Chromium are said in the run's last lines, with how to
    run them: a contributor's machine without Chromium passes, and knows what it did not run."""
    from tests.browser import NO_CHROMIUM

    skipped = [r for r in terminalreporter.stats.get("skipped", []) if NO_CHROMIUM in str(r.longrepr)]
    if skipped:
        terminalreporter.write_line(
            f"{len(skipped)} browser tests skipped: {NO_CHROMIUM}. To run them, install Chromium "
            "(Debian and Ubuntu: apt-get install chromium; elsewhere: .venv/bin/playwright install chromium, "
            "or COK_CHROMIUM=/path/to/chromium) and run pytest again.",
            yellow=True,
            bold=True,
        )
