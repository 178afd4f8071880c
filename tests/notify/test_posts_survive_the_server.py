"""Issue 45: the chat's outbox is written before a recording answers, and the server's
background work starts and stops with the application: a server killed with -9 right after
the answer loses no post (it is sent after the restart), and SIGTERM stops it cleanly with
its commit made and its post kept."""

from __future__ import annotations

import subprocess
import time
from pathlib import Path

import httpx
import pytest

from cok.links import invites
from cok.notify import outbox
from tests.conftest import Cok
from tests.notify.conftest import Fake
from tests.serve.process import serving

#: Whole processes: left out of the quick run (`-m 'not slow'`).
pytestmark = pytest.mark.slow

BATTLE = {"type": "battle", "players": ["tim", "matt"], "location": "Sunspear", "winner": "tim"}


def _recorded(url: str, token: str) -> str:
    answer = httpx.post(f"{url}/api/events", json=BATTLE, headers={"authorization": f"Bearer {token}"}, timeout=30)
    assert answer.status_code == 201, answer.text
    return str(answer.json()["id"])


def _battles(fake: Fake, within: float) -> list[str]:
    """The battle's own post (not the nudge asking matt to confirm it), waited for."""

    def posted() -> list[str]:
        return [b for b in fake.bodies if "beat Matt at Sunspear" in b and not b.startswith("The ledger waits")]

    deadline = time.monotonic() + within
    while time.monotonic() < deadline and not posted():
        time.sleep(0.1)
    return posted()


def test_a_post_answered_before_a_kill_9_is_sent_after_the_restart(example: Path, fake: Fake) -> None:
    Cok(example)("notify", "add", fake.url)
    tim = invites.invite(example, "tim")
    with serving(example) as served:
        event = _recorded(served.url, tim)
        served.kill()  # at once: no chance to finish anything
    assert event in {w.key for w in outbox.pending(example)} or _battles(fake, 0)  # in the outbox, or sent
    with serving(example):
        assert len(_battles(fake, 20)) == 1  # sent after the restart, once


def test_sigterm_right_after_an_answer_stops_the_server_with_its_commit_made_and_its_post_kept(
    example: Path, fake: Fake
) -> None:
    repo = example.parents[1]
    git = ["git", "-C", str(repo), "-c", "user.name=setup", "-c", "user.email=setup@example.org"]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-qm", "the campaign"], check=True)
    Cok(example)("notify", "add", fake.url)
    tim = invites.invite(example, "tim")
    with serving(example, "--commit") as served:
        event = _recorded(served.url, tim)
        served.process.terminate()
        assert served.process.wait(30) in (0, -15)  # uvicorn stops, then lets SIGTERM end the process
    assert event in subprocess.run([*git, "show", "HEAD"], capture_output=True, text=True).stdout
    assert event in {w.key for w in outbox.pending(example)} or _battles(fake, 0)
    with serving(example):
        assert len(_battles(fake, 20)) == 1
