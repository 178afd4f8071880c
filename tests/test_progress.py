"""A progress display for long work (#14): the core reports reading and replaying a long log
and building the site; Rich shows it at a terminal only, never piped or with --json."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from cok.core import progress
from cok.core.campaign import open_campaign
from cok.core.progress import Advance

from .conftest import Cok


@pytest.fixture
def watched() -> Iterator[list[tuple[str, int | None, int]]]:
    seen: list[tuple[str, int | None, int]] = []

    @contextmanager
    def shower(what: str, total: int | None) -> Iterator[Advance]:
        done = [0]
        yield lambda n: done.__setitem__(0, n)
        seen.append((what, total, done[0]))

    progress.show_with(shower)
    yield seen
    progress.show_with(None)


def long_campaign(campaign: Path, weeks: int) -> None:
    (campaign / "events.yaml").write_text("".join(f"- type: week\n  limit: {20 + i % 5}\n" for i in range(weeks)))


def test_a_cold_replay_of_a_long_log_reports_its_progress(
    campaign: Path, watched: list[tuple[str, int | None, int]]
) -> None:
    long_campaign(campaign, 6000)
    open_campaign(campaign, use_cache=False)
    assert [what for what, _, _ in watched] == ["replaying the log"]  # read and applied as it is read
    _, lines, done = watched[0]
    assert lines == 12001 and done > 11000


def test_a_short_log_shows_no_progress(campaign: Path, watched: list[tuple[str, int | None, int]]) -> None:
    long_campaign(campaign, 100)
    open_campaign(campaign, use_cache=False)
    assert watched == []


@pytest.mark.slow
def test_building_a_big_campaigns_site_reports_progress(
    campaign: Path, watched: list[tuple[str, int | None, int]], tmp_path: Path
) -> None:
    long_campaign(campaign, 6000)
    assert Cok(campaign)("site", str(tmp_path / "public")).exit_code == 0
    assert "building the site" in [what for what, _, _ in watched]


def test_progress_is_shown_only_at_a_terminal_and_never_with_json(monkeypatch: pytest.MonkeyPatch) -> None:
    from cok.render import progress as shown

    class Tty:
        def isatty(self) -> bool:
            return True

    monkeypatch.setattr("sys.stdout", Tty())
    monkeypatch.setattr("sys.stderr", Tty())
    assert shown.wanted(["log"])
    assert not shown.wanted(["log", "--json"])
    monkeypatch.setattr("sys.stdout", open("/dev/null", "w"))  # noqa: SIM115
    assert not shown.wanted(["log"])
