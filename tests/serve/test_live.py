"""Live refresh: every served page shown for a GET carries its campaign's version and the
script that polls `/api/version`; the version changes when anyone records (a phone, or `cok`
at a terminal), and a page answering a POST is never refreshed (it would send the form again)."""

from __future__ import annotations

import re

from .conftest import Table

VERSION = re.compile(r'data-version="([0-9a-f]+)"')


def version_of(page: str) -> str:
    found = VERSION.search(page)
    assert found, page[:400]
    return found[1]


def test_a_page_carries_the_version_the_api_says(table: Table) -> None:
    for path in ("/", "/activity", "/players/tim.html"):
        page = table.client.get(path).text
        assert version_of(page) == table.client.get("/api/version").json()["version"], path
        assert "/_cok/live.js" in page


def test_the_version_changes_when_a_phone_records(table: Table) -> None:
    before = table.client.get("/api/version").json()["version"]
    answer = table.client.post(
        "/api/events", json={"type": "painting", "player": "tim", "units": 1}, headers=table.bearer(table.tim)
    )
    assert answer.status_code == 201
    assert table.client.get("/api/version").json()["version"] != before


def test_the_version_changes_when_the_terminal_records(table: Table) -> None:
    from tests.conftest import Cok

    before = table.client.get("/api/version").json()["version"]
    assert Cok(table.folder)("adjust", "sara", "2", "--reason", "from the terminal").exit_code == 0
    assert table.client.get("/api/version").json()["version"] != before


def test_the_version_is_never_cached_and_says_nothing_of_the_files(table: Table) -> None:
    answer = table.client.get("/api/version")
    assert answer.headers["cache-control"] == "no-store"
    assert set(answer.json()) == {"version"} and re.fullmatch(r"[0-9a-f]{16}", answer.json()["version"])


def test_a_page_answering_a_post_is_not_refreshed(table: Table) -> None:
    """A page answering a POST (a refusal) never refreshes; a recording answers with a redirect
    to a page read with GET, which may (refreshing it records nothing)."""
    csrf = table.sign_in(table.tim)
    answer = table.client.post("/play/paint", data={"csrf": csrf, "player": "tim", "units": "x"})
    assert answer.status_code == 422
    assert "data-version" not in answer.text and "/_cok/live.js" not in answer.text
    recorded = table.client.post(
        "/play/paint", data={"csrf": csrf, "player": "tim", "units": "1"}, follow_redirects=False
    )
    assert recorded.status_code == 303


def test_the_script_is_served_and_allowed_by_the_pages_policy(table: Table) -> None:
    script = table.client.get("/_cok/live.js")
    assert script.status_code == 200 and script.headers["content-type"].startswith("text/javascript")
    assert "/api/version" in script.text
    policy = table.client.get("/").headers["content-security-policy"]
    assert "script-src 'self'" in policy and "unsafe-inline" not in policy.split("script-src")[1].split(";")[0]
