"""Issue 46, "form text that is not UTF-8 is refused like JSON's (400/422, nothing written) at
every form": `POST /verdict` with `reason=%ED%A0%80%FF+bytes` answered 303 and recorded
"���� bytes". Every POST route of every game's app is sent such text, signed in with its CSRF
token, and answers 400 with nothing written."""

from __future__ import annotations

import re
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from cok.links import invites
from cok.serve.app import create_app
from cok.serve.signed import NOT_UTF8
from tests.serve.test_every_post_is_guarded import csrf_of, taking
from tests.service.conftest import shipped

GAMES = ("example", "mighty-kingdoms", "no-true-king-example")
FORM = {"content-type": "application/x-www-form-urlencoded"}
#: A lone surrogate encoded as UTF-8 would encode it, then a byte that is never UTF-8.
NOT_TEXT = "%ED%A0%80%FF+bytes"


@pytest.fixture(params=GAMES)
def served(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[Path, TestClient]]:
    folder = shipped(tmp_path, request.param)
    with TestClient(create_app(folder)) as client:
        yield folder, client


def test_the_verdict_of_the_issue_is_400_and_nothing_is_written(tmp_path: Path) -> None:
    folder = shipped(tmp_path, "example")
    token = invites.invite(folder, "Ann", organiser=True)
    before = (folder / "events.yaml").read_bytes()
    with TestClient(create_app(folder)) as client:
        csrf = csrf_of(client, token)
        body = f"csrf={csrf}&kind=dispute&target=x&reason={NOT_TEXT}".encode()
        answer = client.post("/verdict", content=body, headers=FORM, follow_redirects=False)
    assert answer.status_code == 400 and NOT_UTF8 in answer.text
    assert (folder / "events.yaml").read_bytes() == before


def test_every_form_refuses_text_that_is_not_utf8(served: tuple[Path, TestClient]) -> None:
    folder, client = served
    token = invites.invite(folder, "Ann", organiser=True)
    before = (folder / "events.yaml").read_bytes()
    routes = [r for r in taking("POST", client.app.routes) if r.path != "/api/events"]  # type: ignore[attr-defined]
    assert len(routes) > 5
    for route in routes:
        path = re.sub(r"\{[^}]+\}", token if "join" in route.path else "x", route.path)
        csrf = csrf_of(client, token)
        for body in (f"csrf={csrf}&note={NOT_TEXT}&reason={NOT_TEXT}", f"csrf={csrf}&{NOT_TEXT}=1"):
            answer = client.post(path, content=body.encode(), headers=FORM, follow_redirects=False)
            assert answer.status_code == 400, (path, answer.status_code, answer.text[:200])
    assert (folder / "events.yaml").read_bytes() == before


def test_a_form_of_utf8_text_still_records(tmp_path: Path) -> None:
    """The refusal is of bytes that are not text only: a reason in any script is recorded."""
    folder = shipped(tmp_path, "example")
    token = invites.invite(folder, "Ann", organiser=True)
    with TestClient(create_app(folder)) as client:
        csrf = csrf_of(client, token)
        target = re.findall(r"id: (\w+)", (folder / "events.yaml").read_text())[-1]
        body = f"csrf={csrf}&target={target}&reason=%C3%A9t%C3%A9+%E2%80%94+%F0%9F%8E%B2".encode()
        answer = client.post("/void", content=body, headers=FORM, follow_redirects=False)
    assert answer.status_code == 200 and "été — 🎲" in answer.text  # the void's preview, with the reason
