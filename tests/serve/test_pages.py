"""The pages and forms through the test client: signing in from a link, the CSRF token, the
rules' questions as forms, the organiser's pages, escaping, and games served read-only."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
import yaml
from starlette.testclient import TestClient

from cok.links import invites
from cok.serve.app import create_app
from tests.conftest import Cok
from tests.serve.conftest import Table

ROOT = Path(__file__).resolve().parents[2]


def main_of(page: str) -> str:
    return re.sub(r"\s+", " ", page[page.find("<main") :])


def test_anyone_reads_the_site_live_without_a_link(table: Table) -> None:
    for path in ("/", "/index.html", "/log.html", "/map.svg", "/players/tim.html", "/activity"):
        assert table.client.get(path).status_code == 200, path
    assert "reading only" in table.client.get("/").text
    assert table.client.get("/no-such-page.html").status_code == 404


def test_a_page_changes_as_soon_as_an_event_is_recorded(table: Table) -> None:
    """Live: the standings read after a recording show it (no rebuild asked for)."""
    before = table.client.get("/api/standings").json()
    tim = next(p for p in before["players"] if p["id"] == "tim")
    table.client.post(
        "/api/events", json={"type": "painting", "player": "tim", "units": 1}, headers=table.bearer(table.tim)
    )
    after = table.client.get("/api/standings").json()
    assert next(p for p in after["players"] if p["id"] == "tim")["cp"] == tim["cp"] + 1


def test_a_recording_from_the_terminal_is_seen_at_the_next_read(table: Table) -> None:
    from tests.conftest import Cok

    table.client.get("/activity")
    assert Cok(table.folder)("adjust", "sara", "2", "--reason", "from the terminal").exit_code == 0
    assert "from the terminal" in table.client.get("/activity").text


def test_opening_the_link_signs_in_with_an_httponly_strict_cookie(table: Table) -> None:
    answer = table.client.get(f"/join/{table.tim}", follow_redirects=False)
    assert answer.status_code == 303
    cookie = answer.headers["set-cookie"].lower()
    assert "httponly" in cookie and "samesite=strict" in cookie and "secure" not in cookie
    assert "Tim" in table.client.get("/").text.split("</nav>")[0]  # by name (issue #35)


def test_the_cookie_is_secure_over_https(example: Path) -> None:
    token = invites.invite(example, "tim")
    with TestClient(create_app(example), base_url="https://table.example") as client:
        cookie = client.get(f"/join/{token}", follow_redirects=False).headers["set-cookie"].lower()
    assert "secure" in cookie


def test_a_wrong_link_signs_nobody_in(table: Table) -> None:
    answer = table.client.get("/join/wrong", follow_redirects=False)
    assert answer.status_code == 401 and "set-cookie" not in answer.headers


def test_a_form_without_the_sessions_csrf_token_is_refused(table: Table) -> None:
    table.sign_in(table.tim)
    before = table.log()
    form = {"units": "1"}
    assert table.client.post("/play/paint", data=form).status_code == 403
    assert table.client.post("/play/paint", data={**form, "csrf": "forged"}).status_code == 403
    assert table.log() == before


def test_a_form_without_a_session_is_refused(table: Table) -> None:
    before = table.log()
    assert table.client.post("/play/paint", data={"units": "1", "csrf": "x"}).status_code == 401
    assert table.log() == before


def test_revoking_a_link_signs_its_phone_out(table: Table) -> None:
    csrf = table.sign_in(table.tim)
    invites.revoke(table.folder, "tim")
    assert table.client.post("/play/paint", data={"units": "1", "csrf": csrf}).status_code == 401


def test_plan_a_battle_shows_where_as_cok_where_says(table: Table) -> None:
    table.sign_in(table.tim)
    where = table.client.get("/api/where?players=tim,matt").json()
    page = table.client.get("/play/battle?opponent=matt").text
    offered = re.findall(r'name="location" value="([^"]+)"', page)
    assert offered == [loc["name"] for loc in where["locations"]]
    assert "Tim</strong> attacks" in page


def test_record_the_result_from_the_plan(table: Table) -> None:
    csrf = table.sign_in(table.tim)
    form = {"csrf": csrf, "a": "tim", "b": "matt", "location": "Ghost Hill", "vp:tim": "7", "vp:matt": "5"}
    answer = table.client.post("/play/battle", data=form)
    assert answer.status_code == 200, main_of(answer.text)
    assert "Tim (attacker) beat Matt at Ghost Hill" in main_of(answer.text)
    assert "by: tim" in table.log().decode().rsplit("- type:", 1)[1]


def test_the_rules_question_becomes_a_form_and_nothing_is_written_until_answered(table: Table) -> None:
    csrf = table.sign_in(table.tim)
    before = table.log()
    tie = {"csrf": csrf, "a": "tim", "b": "matt", "location": "Ghost Hill", "vp:tim": "5", "vp:matt": "5"}
    asked = table.client.post("/play/battle", data=tie)
    assert asked.status_code == 409
    assert table.log() == before
    fields = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', asked.text))
    numbers = re.findall(r'name="(number:remaining:[a-z]+)"', asked.text)
    assert sorted(numbers) == ["number:remaining:matt", "number:remaining:tim"]
    import html

    answer = {k: html.unescape(v) for k, v in fields.items()} | {numbers[0]: "10", numbers[1]: "4"}
    done = table.client.post("/record", data=answer)
    assert done.status_code == 200, main_of(done.text)
    assert "remaining" in table.log().decode().rsplit("- type:", 1)[1]


def test_a_player_may_not_record_a_battle_of_others_from_a_form(table: Table) -> None:
    csrf = table.sign_in(table.tim)
    before = table.log()
    form = {"csrf": csrf, "a": "aaron", "b": "sara", "location": "Ghost Hill"}
    assert table.client.post("/play/battle", data=form).status_code == 403
    assert table.log() == before


def test_organiser_pages_are_the_organisers(table: Table) -> None:
    table.sign_in(table.tim)
    assert table.client.get("/play/week").status_code == 403
    assert "New week" not in table.client.get("/").text
    csrf = table.sign_in(table.organiser)
    assert "New week" in table.client.get("/").text
    answer = table.client.post("/play/week", data={"csrf": csrf, "limit": "33"})
    assert answer.status_code == 200, main_of(answer.text)
    assert table.client.get("/api/standings").json()["points_limit"] == 33


def test_the_organiser_adds_a_player_and_adjusts(table: Table) -> None:
    csrf = table.sign_in(table.organiser)
    joined = table.client.post("/play/join", data={"csrf": csrf, "player": "ned", "name": "Ned", "faction": "stark"})
    assert joined.status_code == 200 or answered(table, joined.text) == 200
    assert "player: ned" in table.log().decode().rsplit("- type:", 1)[1]
    adjusted = table.client.post(
        "/play/adjust", data={"csrf": csrf, "player": "tim", "cp": "-2", "reason": "late list"}
    )
    assert adjusted.status_code == 200
    assert "late list" in table.log().decode().rsplit("- type:", 1)[1]


def test_a_void_shows_what_it_takes_with_it_before_voiding(table: Table) -> None:
    """Voiding a join takes the new player's painting with it (`cok void --cascade`)."""
    csrf = table.sign_in(table.organiser)
    joined = table.client.post("/play/join", data={"csrf": csrf, "player": "ned", "faction": "stark"})
    assert joined.status_code == 200 or answered(table, joined.text) == 200
    join_id = re.findall(r"id: '?([0-9a-f]+)", table.log().decode())[-1]
    welcome = {"type": "adjust", "player": "ned", "cp": 1, "reason": "welcome"}
    answer = table.client.post("/api/events", json=welcome, headers=table.bearer(table.organiser))
    assert answer.status_code == 201, answer.text
    painted = answer.json()["id"]
    before = table.log()
    preview = table.client.post("/void", data={"csrf": csrf, "target": join_id, "reason": "never came"})
    assert preview.status_code == 200, main_of(preview.text)
    assert table.log() == before
    assert painted in main_of(preview.text) and "1 later event" in main_of(preview.text)
    shown = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', preview.text))
    done = table.client.post("/void", data={**shown, "target": join_id, "reason": "never came"})
    assert done.status_code == 200, main_of(done.text)
    # read as YAML: an id of digits alone is written quoted
    voided = [event.get("target") for event in yaml.safe_load(table.log())]
    assert join_id in voided and painted in voided


def answered(table: Table, asked: str) -> int:
    """Answer the rules' question on a page with its first option; the status of the answer."""
    import html

    fields = {k: html.unescape(v) for k, v in re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', asked)}
    choice = re.search(r'name="(answer:[a-z_]+)" value="([^"]+)"', asked)
    assert choice, main_of(asked)
    return table.client.post("/record", data={**fields, choice[1]: html.unescape(choice[2])}).status_code


def test_every_name_is_escaped(table: Table) -> None:
    csrf = table.sign_in(table.organiser)
    form = {"csrf": csrf, "player": "evil", "name": "<b>Evil</b>", "faction": "bolton"}
    joined = table.client.post("/play/join", data=form)
    assert joined.status_code == 200 or answered(table, joined.text) == 200
    for path in ("/activity", "/play/adjust"):
        page = table.client.get(path).text
        assert "<b>Evil</b>" not in page and "&lt;b&gt;Evil&lt;/b&gt;" in page, path


def test_pages_carry_headers_against_framing_and_sniffing(table: Table) -> None:
    headers = table.client.get("/").headers
    assert headers["x-frame-options"] == "DENY"
    assert headers["x-content-type-options"] == "nosniff"
    assert headers["referrer-policy"] == "no-referrer"  # a link's token never leaves in a Referer
    assert "frame-ancestors 'none'" in headers["content-security-policy"]


def test_a_game_without_pages_is_served_read_only(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A game whose Ruleset offers no pages (`web()`) is read, never written, by the server."""
    from cok.rulesets.no_true_king import RULESET
    from cok.serve.kit import Web

    monkeypatch.setattr(RULESET, "web", lambda: Web())
    folder = tmp_path / "ntk"
    shutil.copytree(ROOT / "campaigns" / "no-true-king-example", folder)
    token = invites.invite(folder, "Ann", organiser=True)
    with TestClient(create_app(folder)) as client:
        assert client.get("/").status_code == 200
        assert client.get("/api/standings").status_code == 200
        assert client.get("/api/status").json() == json.loads(Cok(folder)("ntk", "status", "--json").stdout)
        client.get(f"/join/{token}")
        assert client.get("/play/battle").status_code == 404
        answer = client.post("/api/events", json={"type": "week"}, headers={"authorization": f"Bearer {token}"})
        assert answer.status_code == 403 and "read-only" in answer.json()["problems"][0]["message"]


def test_the_bar_is_markup_on_every_page(table: Table) -> None:
    """The bar is made with autoescape on, and placed whole (not escaped a second time)."""
    table.sign_in(table.tim)
    for path in ("/", "/activity", "/play/paint"):
        page = table.client.get(path).text
        assert '<header class="top cok-bar"' in page and "&lt;header" not in page, path


def test_the_sites_pages_and_the_servers_have_one_head(table: Table) -> None:
    """One head for every page (issue #51): the site's layout and the server's frame extend
    `document.html`, so the meta lines, the icon and the skip link are written once."""
    from importlib import resources

    def template(package: str, name: str) -> str:
        return resources.files(package).joinpath(f"templates/{name}").read_text(encoding="utf-8")

    for package, name in (("cok.render", "layout.html"), ("cok.serve", "frame.html")):
        own = template(package, name)
        assert own.startswith('{% extends "document.html" %}') and "<head>" not in own, name
    shell = template("cok.render", "document.html")
    head = shell[shell.index("<!doctype html>") : shell.index("<title>")]
    icon = next(line for line in shell.splitlines() if line.startswith('<link rel="icon"'))
    table.sign_in(table.tim)
    for path, body in (("/activity", '<body class="cok">'), ("/play/paint", '<body class="cok">'), ("/", "<body>")):
        page = table.client.get(path).text
        assert page.startswith(head) and icon in page, path
        assert f'{body}\n<a class="skip" href="#main">Skip to the page</a>\n' in page, path
