"""Issue 38, several campaigns on one server: `cok serve -C DIR` of a folder of campaigns serves
the club's page at `/` and each campaign under its own path, with links and sessions of its own."""

from __future__ import annotations

import re
import shutil
import warnings
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from cok.core.campaign import open_campaign
from cok.links import invites
from cok.links import served as where_served
from cok.serve import club
from cok.serve.app import create_app
from cok.serve.sessions import COOKIE
from tests.conftest import EXAMPLE, ROOT, Cok
from tests.serve.process import served_club, serving

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

#: No address of this machine: a command that was not refused stops at the port, never serves.
UNSERVED = "192.0.2.1"
GAMES = {
    "week-nights": EXAMPLE,
    "ember-league": ROOT / "campaigns" / "mighty-kingdoms",
    "pyke": ROOT / "campaigns" / "no-true-king-example",
}


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """A club's folder: one campaign of each game, each under the name it is served as."""
    made = tmp_path / "club"
    for name, source in GAMES.items():
        shutil.copytree(source, made / name)
    return made


@pytest.fixture
def client(folder: Path) -> Iterator[TestClient]:
    with TestClient(club.club_app(folder, club.gathered(folder), create_app)) as served:
        yield served


def test_the_club_page_lists_each_campaign_with_its_game_its_period_and_who_leads(
    folder: Path, client: TestClient
) -> None:
    page = client.get("/")
    assert page.status_code == 200
    for name in GAMES:
        opened = open_campaign(folder / name).valid()
        document = opened.ruleset.standings(opened).document
        first = [r for k, rows in document.items() if k != "houses" and isinstance(rows, list) for r in rows]
        leader = next(str(r["name"]) for r in first if isinstance(r, dict) and r.get("rank") == 1)
        period = "game over" if document.get("over") else opened.ruleset.period(opened.state)
        listed = page.text.split("<main", 1)[1]  # the list, not the header's links
        block = listed.split(f'href="/{name}/"', 1)[1].split("</li>", 1)[0]
        assert opened.name in block and opened.ruleset.title in block, block
        assert f'class="period">{period}<' in block and f"<bdi>{leader}</bdi>" in block, block
        assert client.get(f"/{name}/").status_code == 200  # each campaign under its own path
        assert client.get(f"/{name}/api/standings").json()["campaign"] == opened.name


def test_signing_in_to_one_campaign_keeps_the_other_signed_in_and_its_cookie_opens_only_its_own(
    folder: Path, client: TestClient
) -> None:
    tim = invites.invite(folder / "week-nights", "tim")
    ann = invites.invite(folder / "ember-league", "Ann", organiser=True)
    client.get(f"/week-nights/join/{tim}")
    client.get(f"/ember-league/join/{ann}")
    assert client.get("/week-nights/play/paint").status_code == 200  # still signed in to the first
    assert client.get("/ember-league/links").status_code == 200  # and to the second
    cookies = {c.name: c for c in client.cookies.jar}
    a, b = cookies[club.cookie("week-nights")], cookies[club.cookie("ember-league")]
    assert (a.path, b.path) == ("/week-nights/", "/ember-league/") and a.value != b.value
    with TestClient(client.app) as other:  # A's session id offered to B, under every name B might read
        for name in (club.cookie("ember-league"), COOKIE):
            other.cookies.clear()
            other.cookies.set(name, a.value)
            assert other.get("/ember-league/links").status_code == 401
        other.cookies.clear()
        other.cookies.set(COOKIE, a.value)  # a campaign served alone at / on the same host: not A's
        assert other.get("/week-nights/play/paint").status_code == 401


def test_a_player_link_of_one_campaign_cannot_write_to_another(folder: Path, client: TestClient) -> None:
    tim = invites.invite(folder / "week-nights", "tim")
    before = (folder / "ember-league" / "events.yaml").read_bytes()
    answer = client.post(
        "/ember-league/api/events",
        json={"type": "adjust", "player": "cy", "cp": 1, "reason": "x"},
        headers={"authorization": f"Bearer {tim}"},
    )
    assert answer.status_code == 401
    assert client.get(f"/ember-league/join/{tim}").status_code == 401
    assert (folder / "ember-league" / "events.yaml").read_bytes() == before


def test_a_campaign_that_cannot_be_opened_is_listed_with_its_problem_and_the_others_served(folder: Path) -> None:
    with (folder / "pyke" / "events.yaml").open("a") as log:
        log.write("- type: no-such-event\n  id: broken\n")
    members = club.gathered(folder)
    for m in members:
        try:
            open_campaign(m.folder).valid()
        except Exception as refused:
            m.problems = [str(refused)]
    with TestClient(club.club_app(folder, members, create_app)) as served:
        page = served.get("/").text
        assert "cannot be opened" in page and "no-such-event" in page
        assert served.get("/pyke/").status_code == 503
        assert served.get("/week-nights/").status_code == 200


def test_two_campaigns_served_at_one_path_are_refused(folder: Path, tmp_path: Path) -> None:
    shutil.copytree(EXAMPLE, folder / "Week Nights")
    before = sorted(p for p in folder.rglob("*"))
    said = Cok(tmp_path)("serve", "-C", str(folder), "--host", UNSERVED)
    assert said.exit_code == 1
    assert "Week Nights" in said.stderr and "week-nights" in said.stderr and "/week-nights/" in said.stderr
    assert sorted(p for p in folder.rglob("*")) == before


def test_two_copies_of_one_campaign_are_refused(folder: Path, tmp_path: Path) -> None:
    invites.invite(folder / "week-nights", "tim")  # gives it its id: line
    shutil.copytree(folder / "week-nights", folder / "tuesdays")
    said = Cok(tmp_path)("serve", "-C", str(folder), "--host", UNSERVED)
    assert said.exit_code == 1 and "one campaign" in said.stderr and "id:" in said.stderr


def test_a_folder_holding_no_campaign_is_refused(tmp_path: Path) -> None:
    (tmp_path / "empty" / "notes").mkdir(parents=True)
    said = Cok(tmp_path)("serve", "-C", str(tmp_path / "empty"), "--host", UNSERVED)
    assert said.exit_code == 1 and "holds no campaign" in said.stderr and "Traceback" not in said.stderr


def test_cok_serve_of_a_club_prints_each_campaigns_address_and_links_and_invite_adds_its_path(
    folder: Path, tmp_path: Path
) -> None:
    invites.invite(folder / "week-nights", "tim")
    invites.invite(folder / "week-nights", "matt")
    with served_club(folder) as (url, process):
        port = url.rsplit(":", 1)[1]
    out = process.stdout.read() if process.stdout else ""
    assert f"http://localhost:{port}/week-nights/  2 links known" in out, out
    assert f"http://localhost:{port}/ember-league/  nobody has a link yet" in out, out
    said = Cok(tmp_path)("invite", "tim", "-C", str(folder / "week-nights"), "--url", "http://192.168.1.20:8000")
    assert said.exit_code == 0, said.stderr
    link = re.search(r"http://\S+", said.stdout)
    assert link and link[0].startswith("http://192.168.1.20:8000/week-nights/join/"), said.stdout
    again = Cok(tmp_path)("invite", "matt", "-C", str(folder / "week-nights"))
    assert "http://192.168.1.20:8000/week-nights/join/" in again.stdout  # remembered, the path once


def test_a_folder_that_is_itself_a_campaign_is_served_alone_as_ever(folder: Path, tmp_path: Path) -> None:
    alone = folder / "week-nights"
    where_served.remember(alone, "week-nights")  # it was served in the club before
    with serving(alone) as served:
        assert httpx.get(f"{served.url}/api/standings").json()["campaign"] == open_campaign(alone).name
    said = Cok(tmp_path)("invite", "tim", "-C", str(alone), "--url", "http://192.168.1.20:8000")
    assert "http://192.168.1.20:8000/join/" in said.stdout, said.stdout  # at /, no club's path


def test_a_form_of_one_campaign_is_refused_by_another(folder: Path, client: TestClient) -> None:
    """CSRF stays per campaign: a form's token signed in to one campaign is not the other's."""
    client.get(f"/week-nights/join/{invites.invite(folder / 'week-nights', 'tim')}")
    client.get(f"/ember-league/join/{invites.invite(folder / 'ember-league', 'Ann', organiser=True)}")
    page = client.get("/week-nights/play/paint").text
    found = re.search(r'name="csrf" value="([^"]+)"', page)
    assert found
    assert client.post("/ember-league/signout", data={"csrf": found[1]}).status_code == 403
    assert client.get("/ember-league/links").status_code == 200  # still signed in there


def test_cok_serve_in_a_clubs_folder_serves_the_club(folder: Path) -> None:
    said = Cok(folder)("serve", "--host", UNSERVED)  # gathered, then stopped at the address
    assert said.exit_code == 1 and "not an address of this machine" in said.stderr, said.stderr
