"""Issue 46, "public pages never show a filesystem path": the club's page listed a broken
campaign's problem with the folder's path as the server saw it (`…/club/broken/events.yaml:385`),
relative to where the server was started, or absolute when started elsewhere. It is named by
its folder's name with its `events.yaml:LINE` problem; the full path is the terminal's alone."""

from __future__ import annotations

import shutil
import warnings
from pathlib import Path

import pytest

from cok.cli.serving import _opens, _said_club
from cok.serve import club
from cok.serve.app import create_app
from tests.conftest import EXAMPLE

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient


def broken_club(tmp_path: Path) -> tuple[Path, int]:
    """A club of two campaigns, `broken`'s log ending with an event no game knows (its line)."""
    made = tmp_path / "club"
    shutil.copytree(EXAMPLE, made / "week-nights")
    shutil.copytree(EXAMPLE, made / "broken")
    log = made / "broken" / "events.yaml"
    line = len(log.read_text().splitlines()) + 1
    with log.open("a") as written:
        written.write("- type: no-such-event\n  id: broken\n")
    return made, line


@pytest.mark.parametrize("started", ["in the club's parent", "elsewhere"])
def test_a_broken_campaign_is_named_by_its_folder_with_its_events_yaml_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, started: str
) -> None:
    made, line = broken_club(tmp_path)
    if started == "in the club's parent":
        monkeypatch.chdir(tmp_path)
        given = Path("club")
    else:
        monkeypatch.chdir(tmp_path.parent)
        given = made
    members = club.gathered(given)
    for member in members:
        _opens(member)
    with TestClient(club.club_app(given, members, create_app)) as served:
        page = served.get("/").text
        unopened = served.get("/broken/")
    for text in (page, unopened.text):
        assert f"broken/events.yaml:{line}" in text and "no-such-event" in text
        assert str(tmp_path) not in text and "club/broken" not in text
    assert unopened.status_code == 503


def test_the_terminal_names_the_broken_campaign_by_its_full_path(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    made, line = broken_club(tmp_path)
    members = club.gathered(made)
    for member in members:
        _opens(member)
    _said_club(members, "http://127.0.0.1:9400")
    assert f"{made / 'broken' / 'events.yaml'}:{line}" in capsys.readouterr().err


def test_a_path_outside_the_campaign_shows_only_its_last_part() -> None:
    folder = Path("/srv/club/broken")
    said = club.in_public(["/home/ann/maps/westeros.yaml:4: not a map", "/srv/club/broken/events.yaml:9: x"], folder)
    assert said == ["westeros.yaml:4: not a map", "broken/events.yaml:9: x"]
