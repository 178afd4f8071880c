"""Fake chat services on 127.0.0.1 (never a real one): a tiny HTTP server in a thread that
keeps every JSON body Apprise's `json://` posts to it, and answers as a test tells it."""

from __future__ import annotations

import contextlib
import json
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import ROOT, Cok


@dataclass
class Fake:
    port: int
    received: list[dict[str, Any]] = field(default_factory=list)
    answer: int = 200  # 429: too many requests (with Retry-After)
    answers: list[int] = field(default_factory=list)  # the next answers, in turn, before `answer`
    retry_after: str = "30"  # a 429's Retry-After header ("" for none)
    retry_body: bytes = b""  # a 429's body (Discord's and Telegram's `retry_after` are in it)
    times: list[float] = field(default_factory=list)  # when each post arrived (time.monotonic)

    @property
    def url(self) -> str:
        return f"json://127.0.0.1:{self.port}/hook"

    @property
    def bodies(self) -> list[str]:
        return [str(r.get("message", "")) for r in self.received]


@contextlib.contextmanager
def serving() -> Iterator[Fake]:
    """One fake chat service on 127.0.0.1, for as long as the block runs."""
    made = Fake(0)

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length", "0"))
            body = json.loads(self.rfile.read(length) or b"{}")
            made.times.append(time.monotonic())
            answer = made.answers.pop(0) if made.answers else made.answer
            if answer == 200:
                made.received.append(body)
            said = made.retry_body if answer == 429 else b""
            self.send_response(answer)
            if answer == 429 and made.retry_after:
                self.send_header("Retry-After", made.retry_after)
            self.send_header("Content-Length", str(len(said)))
            self.end_headers()
            self.wfile.write(said)

        def log_message(self, format: str, *args: Any) -> None:
            pass

    from tests.serve.process import free_port

    server = ThreadingHTTPServer(("127.0.0.1", free_port()), Handler)
    made.port = server.server_address[1]
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield made
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture
def fake() -> Iterator[Fake]:
    with serving() as made:
        yield made


@pytest.fixture
def own() -> Iterator[Fake]:
    """A second fake service: a player's own destination (a direct message)."""
    with serving() as made:
        yield made


@pytest.fixture
def down() -> str:
    """A json:// destination on a port nothing listens on."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    return f"json://127.0.0.1:{port}/hook"


@pytest.fixture(autouse=True)
def _own_data(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Destinations and the outbox in a data folder of the test's own, never the user's."""
    folder = tmp_path_factory.mktemp("data")
    monkeypatch.setenv("COK_DATA_DIR", str(folder))
    return folder


def copied(tmp_path: Path, name: str) -> Path:
    copy = tmp_path / "campaigns" / name
    shutil.copytree(ROOT / "campaigns" / name, copy)
    return copy


@pytest.fixture
def kow(tmp_path: Path) -> Cok:
    """The shipped Mighty Kingdoms campaign, in its orders phase (Dagny gives orders first)."""
    return Cok(copied(tmp_path, "mighty-kingdoms"))
