"""The server's tests: a copy of the example campaign, links kept in a data folder of the
test's own, and Starlette's test client over the app."""

from __future__ import annotations

import re
import warnings
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # the test client's notice about its HTTP library
    from starlette.testclient import TestClient

from cok.links import invites
from cok.serve.app import create_app


@pytest.fixture(autouse=True)
def _own_data(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Links are kept in a data folder of the test's own, never the user's."""
    folder = tmp_path_factory.mktemp("data")
    monkeypatch.setenv("COK_DATA_DIR", str(folder))
    return folder


@dataclass
class Table:
    folder: Path
    client: TestClient
    tim: str  # tokens
    matt: str
    organiser: str

    def log(self) -> bytes:
        return (self.folder / "events.yaml").read_bytes()

    def bearer(self, token: str) -> dict[str, str]:
        return {"authorization": f"Bearer {token}"}

    def sign_in(self, token: str) -> str:
        """Open the link; the session's CSRF token from the page it leads to."""
        self.client.cookies.clear()  # a phone not signed in: the link signs it in without asking
        self.client.get(f"/join/{token}")
        page = self.client.get("/play/paint").text
        found = re.search(r'name="csrf" value="([^"]+)"', page)
        assert found, page
        return found[1]


@pytest.fixture
def table(example: Path) -> Iterator[Table]:
    tim = invites.invite(example, "tim")
    matt = invites.invite(example, "matt")
    organiser = invites.invite(example, "Ann", organiser=True)
    with TestClient(create_app(example)) as client:
        yield Table(example, client, tim, matt, organiser)


def battle(location: str = "Ghost Hill", **more: object) -> dict[str, object]:
    """Tim and Matt's battle, Tim the attacker (he holds fewer territories in the example)."""
    return {"type": "battle", "players": ["tim", "matt"], "location": location, "vp": {"tim": 7, "matt": 5}, **more}
