"""Issue 34, "nothing that breaks the log is ever written, from any interface", at the server:
a lone surrogate in JSON or a form, JSON nested deeper than any event, text over its bound and
more events than one form makes, each refused with a 4xx that says why, and nothing written —
for every game."""

from __future__ import annotations

import json
import re
import warnings
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from cok.core.campaign import open_campaign
from cok.links import invites
from cok.serve.app import create_app
from cok.serve.forms import MAX_DRAFTS
from cok.service.recording import MAX_NOTE
from tests.games import GAMES, played
from tests.service.conftest import shipped


@dataclass
class Served:
    folder: Path
    client: TestClient
    organiser: str  # the organiser's token

    def log(self) -> bytes:
        return (self.folder / "events.yaml").read_bytes()

    def last_id(self) -> str:
        return list(open_campaign(self.folder, use_cache=False).ids())[-1]

    def post(self, body: bytes | dict[str, object]) -> object:
        headers = {"authorization": f"Bearer {self.organiser}", "content-type": "application/json"}
        content = body if isinstance(body, bytes) else json.dumps(body).encode()
        return self.client.post("/api/events", content=content, headers=headers)

    def csrf(self) -> str:
        self.client.get(f"/join/{self.organiser}")
        found = re.search(r'name="csrf" value="([^"]+)"', self.client.get("/void").text)
        assert found
        return found[1]


@pytest.fixture(params=GAMES)
def served(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Served]:
    folder = played(tmp_path, request.param)
    organiser = invites.invite(folder, "Ann", organiser=True)
    with TestClient(create_app(folder)) as client:
        yield Served(folder, client, organiser)


def reads(folder: Path) -> bool:
    return not open_campaign(folder, use_cache=False).problems


def test_a_lone_surrogate_in_json_is_400_and_nothing_is_written(served: Served) -> None:
    before = served.log()
    body = b'{"type": "void", "target": "%s", "reason": "bad \\ud800"}' % served.last_id().encode()
    answer = served.post(body)
    assert answer.status_code == 400, answer.text  # type: ignore[attr-defined]
    assert "`reason`" in answer.json()["problems"][0]["message"]  # type: ignore[attr-defined]
    assert served.log() == before and reads(served.folder)


def test_the_painting_of_the_issue_is_400(tmp_path: Path) -> None:
    """`{"type":"painting","player":"tim","note":"\\ud800"}` answered 500 and was appended."""
    folder = shipped(tmp_path, "example")
    token = invites.invite(folder, "tim")
    before = (folder / "events.yaml").read_bytes()
    with TestClient(create_app(folder)) as client:
        answer = client.post(
            "/api/events",
            content=b'{"type":"painting","player":"tim","units":1,"note":"\\ud800"}',
            headers={"authorization": f"Bearer {token}"},
        )
    assert answer.status_code == 400
    assert (folder / "events.yaml").read_bytes() == before and reads(folder)


def test_deeply_nested_json_is_400_not_500(served: Served) -> None:
    before = served.log()
    for depth in (50, 100_000):
        body = b'{"type": "void", "target": ' + b"[" * depth + b"]" * depth + b"}"
        answer = served.post(body)
        assert answer.status_code == 400, answer.text  # type: ignore[attr-defined]
        assert "one event" in answer.json()["problems"][0]["message"]  # type: ignore[attr-defined]
    assert served.log() == before


def test_a_note_over_the_bound_is_refused_with_the_bound(served: Served) -> None:
    before = served.log()
    answer = served.post({"type": "void", "target": served.last_id(), "reason": "x" * (MAX_NOTE + 1)})
    assert answer.status_code == 422  # type: ignore[attr-defined]
    assert f"{MAX_NOTE:,}" in answer.json()["problems"][0]["message"]  # type: ignore[attr-defined]
    assert served.log() == before


def test_a_form_may_record_only_so_many_events(served: Served) -> None:
    """A /record POST appended 500 events, another 3,000: one form records at most MAX_DRAFTS."""
    csrf = served.csrf()
    before = served.log()
    void = {"type": "void", "fields": {"target": served.last_id(), "reason": "again"}}
    many = [void] * (MAX_DRAFTS + 1)
    answer = served.client.post("/record", data={"csrf": csrf, "drafts": json.dumps(many), "answers": "{}"})
    assert answer.status_code == 413 and f"at most {MAX_DRAFTS} events" in answer.text
    assert served.log() == before


def test_a_forms_events_nested_too_deep_are_400(served: Served) -> None:
    csrf = served.csrf()
    before = served.log()
    deep = "[" * 100_000 + "]" * 100_000
    answer = served.client.post("/record", data={"csrf": csrf, "drafts": deep, "answers": "{}"})
    assert answer.status_code == 400
    assert served.log() == before


def test_a_form_with_bytes_that_are_not_utf8_never_breaks_the_log(tmp_path: Path) -> None:
    """A form's note of a UTF-8-encoded surrogate and a stray byte: refused or recorded, the log
    still reads."""
    folder = shipped(tmp_path, "example")
    organiser = invites.invite(folder, "Ann", organiser=True)
    with TestClient(create_app(folder)) as client:
        client.get(f"/join/{organiser}")
        csrf = re.search(r'name="csrf" value="([^"]+)"', client.get("/play/week").text)
        assert csrf
        body = f"csrf={csrf[1]}&note=bad%ED%A0%80%FF".encode()
        answer = client.post("/play/week", content=body, headers={"content-type": "application/x-www-form-urlencoded"})
    assert answer.status_code in (200, 400, 422)
    assert reads(folder)
