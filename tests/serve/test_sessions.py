"""Issue 34's sessions and issue 38's restarts: sessions bounded and purged, kept across a
restart as hashes only, another person's link asked about before it replaces a session, and
signed-in pages kept by no cache."""

from __future__ import annotations

import re
import shutil
import time
import warnings
from pathlib import Path

import pytest

from cok.links import invites
from cok.serve import sessions
from cok.serve.app import create_app
from cok.serve.sessions import COOKIE, Sessions
from tests.serve.conftest import Table

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient


def test_sessions_are_bounded_a_link_holder_starting_them_in_a_loop_fills_nothing(tmp_path: Path) -> None:
    kept = Sessions(tmp_path / "s.json")
    link = invites.Link("tim", False, "ab" * 32)
    first = kept.start(link)
    for _ in range(300):
        kept.start(link)
    assert len(kept) == sessions.PER_LINK
    assert kept.find(first) is None  # the oldest phone signed out, not the newest


def test_sessions_are_bounded_in_all(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sessions, "MOST", 50)
    kept = Sessions()
    for n in range(200):
        kept.start(invites.Link(f"p{n}", False, f"{n:064x}"))
    assert len(kept) == 50


def test_expired_sessions_are_purged(tmp_path: Path) -> None:
    path = tmp_path / "s.json"
    kept = Sessions(path)
    old = kept.start(invites.Link("tim", False, "ab" * 32))
    assert kept.find(old) is not None
    real = time.time
    try:
        time.time = lambda: real() + sessions.LIFETIME + 1  # type: ignore[assignment]
        assert kept.find(old) is None
        kept.start(invites.Link("matt", False, "cd" * 32))
        assert len(kept) == 1 and len(Sessions(path)) == 1
    finally:
        time.time = real  # type: ignore[assignment]


def test_a_restart_keeps_every_phone_signed_in_without_keeping_a_session_id(table: Table) -> None:
    csrf = table.sign_in(table.tim)
    sid = table.client.cookies[COOKIE]
    with TestClient(create_app(table.folder)) as restarted:
        restarted.cookies.set(COOKIE, sid)
        page = restarted.get("/play/paint")
        assert page.status_code == 200 and f'value="{csrf}"' in page.text
    kept = invites.sessions_store(table.folder).read_text()
    assert sid not in kept and csrf not in kept
    assert invites.sessions_store(table.folder).stat().st_mode & 0o077 == 0


def test_another_persons_link_asks_before_replacing_a_signed_in_session(table: Table) -> None:
    table.sign_in(table.tim)
    tim_sid = table.client.cookies[COOKIE]
    asked = table.client.get(f"/join/{table.matt}", follow_redirects=False)
    assert asked.status_code == 200 and "set-cookie" not in asked.headers
    assert "signed in as tim" in asked.text and f'action="/join/{table.matt}"' in asked.text
    assert table.client.cookies[COOKIE] == tim_sid
    confirm = re.search(r'name="confirm" value="([^"]+)"', asked.text)
    assert confirm
    unconfirmed = table.client.post(f"/join/{table.matt}", follow_redirects=False)
    assert unconfirmed.status_code == 403 and table.client.cookies[COOKIE] == tim_sid
    confirmed = table.client.post(f"/join/{table.matt}", data={"confirm": confirm[1]}, follow_redirects=False)
    assert confirmed.status_code == 303 and COOKIE in confirmed.headers["set-cookie"]


def test_a_link_opened_from_another_site_asks_and_its_forged_post_is_refused(table: Table) -> None:
    asked = table.client.get(f"/join/{table.tim}", headers={"sec-fetch-site": "cross-site"}, follow_redirects=False)
    assert asked.status_code == 200 and "set-cookie" not in asked.headers and "Sign in as tim" in asked.text
    forged = table.client.post(
        f"/join/{table.tim}", data={"confirm": "guessed"}, headers={"origin": "https://evil.example"}
    )
    assert forged.status_code == 403 and COOKIE not in table.client.cookies
    same = table.client.get(f"/join/{table.tim}", headers={"sec-fetch-site": "none"}, follow_redirects=False)
    assert same.status_code == 303  # a link opened from a message or typed signs in at once


def test_signed_in_pages_carry_cache_control_no_store(table: Table) -> None:
    assert "no-store" not in table.client.get("/").headers.get("cache-control", "")
    table.sign_in(table.tim)
    for path in ("/", "/play/paint", "/activity"):
        assert table.client.get(path).headers["cache-control"] == "no-store", path


def test_links_follow_the_campaign_when_its_folder_moves(example: Path, tmp_path: Path) -> None:
    token = invites.invite(example, "tim")
    moved = tmp_path / "elsewhere" / "season"
    shutil.move(example, moved)
    assert invites.Keys(moved).find(token) is not None
    assert [k.name for k in invites.links(moved)] == ["tim"]


def test_links_kept_under_the_path_before_ids_are_read_and_moved_at_the_next_invite(example: Path) -> None:
    token = invites.invite(example, "tim")
    identity = invites.identity(example)
    settings = example / "campaign.yaml"
    settings.write_text(settings.read_text().replace(f"id: {identity}", "# no id yet"))
    legacy = invites._by_path(example, "invites")
    legacy.parent.mkdir(parents=True, exist_ok=True)
    shutil.move(invites.data_dir() / "invites" / f"{identity}.json", legacy)
    assert invites.Keys(example).find(token) is not None  # an existing campaign keeps its links
    invites.invite(example, "matt")
    assert not legacy.exists() and invites.Keys(example).find(token) is not None
    assert invites.identity(example) not in (None, identity)


def test_a_form_sent_after_the_session_ended_says_to_open_the_same_link_again(table: Table) -> None:
    csrf = table.sign_in(table.tim)
    sid = table.client.cookies[COOKIE]
    with TestClient(create_app(table.folder)) as restarted:
        restarted.cookies.set(COOKIE, "a-session-that-ended")
        sent = restarted.post("/play/paint", data={"csrf": csrf, "units": "1"})
        assert sent.status_code == 401 and "open the same personal link again" in sent.text
        restarted.cookies.set(COOKIE, sid)  # the session itself survived the restart
        assert restarted.get("/play/paint").status_code == 200


def test_phones_signed_in_before_the_campaign_had_an_id_stay_signed_in_after_a_restart(example: Path) -> None:
    with TestClient(create_app(example)) as before:  # started before anyone was invited
        token = invites.invite(example, "tim")  # the first invite gives the campaign its id
        before.get(f"/join/{token}")
        sid = before.cookies[COOKIE]
    with TestClient(create_app(example)) as restarted:
        restarted.cookies.set(COOKIE, sid)
        assert "Sign out" in restarted.get("/play/paint").text


def test_in_chromium_the_question_before_replacing_a_session_signs_in_when_answered(example: Path) -> None:
    """The page's own POST carries no usable Origin (the pages' no-referrer policy makes it
    `null`): what binds it to the page is the hidden field only the server's page holds."""
    from tests.browser import browser as launch
    from tests.serve.process import serving

    tim, matt = invites.invite(example, "tim"), invites.invite(example, "matt")
    with serving(example) as served, launch() as browser:
        page = browser.new_page()
        page.goto(f"{served.url}/join/{tim}")
        page.goto(f"{served.url}/join/{matt}")
        assert "You are signed in as tim" in page.locator("h1").inner_text()
        with page.expect_navigation():
            page.get_by_role("button", name="Sign in as matt").click()
        assert page.locator(".who").inner_text() == "Matt"  # the bar names people by name (#35)
