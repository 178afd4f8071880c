"""Issue 36, "one decorator that signs in, checks CSRF and the role for every cookie POST
(impossible to forget)": every POST route of every game's app is walked, and each is refused
without a session (401), without the session's CSRF token (403) and, where only an organiser
may, for a player (403), with nothing written. A route that forgets the door fails here."""

from __future__ import annotations

import re
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from starlette.routing import BaseRoute, Mount, Route

from cok.links import invites
from cok.serve.app import create_app
from cok.serve.signed import FORGED, GUARDED, ORGANISERS
from tests.games import GAMES, played

#: The two POSTs that sign in without the session's cookie: the link's own page, and the API's
#: Bearer token. Each is checked below for its own refusal.
OWN_DOORS = {"/join/{token}", "/api/events"}


def taking(method: str, routes: list[BaseRoute], prefix: str = "") -> Iterator[Route]:
    """Every route of the app that takes `method`, with its full path (Mounts walked into)."""
    for route in routes:
        if isinstance(route, Mount):
            yield from taking(method, list(route.routes), prefix + route.path)
        elif isinstance(route, Route) and route.methods and method in route.methods:
            yield Route(prefix + route.path, route.endpoint, methods=list(route.methods))


def csrf_of(client: TestClient, token: str) -> str:
    """Signed in with the link; the session's CSRF token from the bar of the page it leads to."""
    client.cookies.clear()
    client.get(f"/join/{token}")
    found = re.search(r'name="csrf" value="([^"]+)"', client.get("/").text)
    assert found
    return found[1]


@pytest.fixture(params=GAMES)
def served(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[Path, TestClient]]:
    folder = played(tmp_path, request.param)
    with TestClient(create_app(folder)) as client:
        yield folder, client


def test_every_cookie_post_goes_through_the_door(served: tuple[Path, TestClient]) -> None:
    folder, client = served
    app = client.app
    server = app.state.server  # type: ignore[attr-defined]
    routes = list(taking("POST", app.routes))  # type: ignore[attr-defined]
    organisers = {"/void", "/links"} | {
        f"/play{f.path}" for f in server.web().forms if f.organiser and "POST" in f.methods
    }
    guarded = [r for r in routes if r.path not in OWN_DOORS]
    assert {r.path for r in guarded} >= {"/record", "/void", "/verdict", "/signout", "/links"}
    assert len(guarded) > 5  # the game's own forms too
    missing = [r.path for r in guarded if r.endpoint not in GUARDED]
    assert missing == []  # every cookie POST is behind the door
    assert {r.path for r in guarded if GUARDED[r.endpoint]} == organisers

    player = next(iter(server.warm.view().people()))
    tokens = {"player": invites.invite(folder, player), "organiser": invites.invite(folder, "Ann", organiser=True)}
    before = (folder / "events.yaml").read_bytes()
    for route in guarded:
        path = re.sub(r"\{[^}]+\}", "x", route.path)
        client.cookies.clear()
        signed_out = client.post(path, data={"csrf": "x"}, follow_redirects=False)
        assert signed_out.status_code == 401, path
        csrf = csrf_of(client, tokens["organiser"])
        for forged in ({}, {"csrf": "forged"}, {"csrf": csrf[:-1]}):
            answer = client.post(path, data=forged, follow_redirects=False)
            assert answer.status_code == 403 and FORGED in answer.text, (path, forged)
        if route.path in organisers:
            csrf = csrf_of(client, tokens["player"])
            answer = client.post(path, data={"csrf": csrf}, follow_redirects=False)
            assert answer.status_code == 403 and ORGANISERS in answer.text, path
    assert (folder / "events.yaml").read_bytes() == before


def test_the_two_posts_outside_the_door_are_refused_without_their_own_proof(served: tuple[Path, TestClient]) -> None:
    """The link's sign-in POST needs the confirmation its own page carries; the API's POST a
    Bearer token. The session's cookie alone opens neither."""
    folder, client = served
    token = invites.invite(folder, "Ann", organiser=True)
    csrf = csrf_of(client, token)
    assert client.post(f"/join/{token}", data={"csrf": csrf}).status_code == 403
    answer = client.post("/api/events", json={"type": "void", "target": "x", "reason": "y"})
    assert answer.status_code == 401
    paths = {r.path for r in taking("POST", client.app.routes)}  # type: ignore[attr-defined]
    assert paths >= OWN_DOORS


def test_a_page_behind_the_door_shows_a_signed_out_phone_how_to_sign_in(served: tuple[Path, TestClient]) -> None:
    """The door's GET: no session, the sign-in page (401); an organiser's page, 403 for a player."""
    folder, client = served
    server = client.app.state.server  # type: ignore[attr-defined]
    player = invites.invite(folder, next(iter(server.warm.view().people())))
    pages = [r for r in taking("GET", client.app.routes) if r.endpoint in GUARDED]  # type: ignore[attr-defined]
    assert {"/void", "/links"} <= {r.path for r in pages} and len(pages) > 2
    for route in pages:
        path = re.sub(r"\{[^}]+\}", "x", route.path)
        client.cookies.clear()
        answer = client.get(path)
        assert answer.status_code == 401 and "cok invite" in answer.text and "Not recorded" not in answer.text, path
    csrf_of(client, player)
    for route in pages:
        if GUARDED[route.endpoint]:
            assert client.get(route.path).status_code == 403, route.path
