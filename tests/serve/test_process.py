"""The server as a real process: killed with -9 while it writes, many writers at once (phones
and a terminal), behind a reverse proxy, and what it prints."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest

from cok.links import invites
from tests.serve.process import COK, free_port, serving

#: Whole processes, fuzzing or random campaigns: left out of the quick run (`-m 'not slow'`).
pytestmark = pytest.mark.slow


def _adjust(url: str, token: str, reason: str) -> int:
    event = {"type": "adjust", "player": "tim", "cp": 1, "reason": reason}
    return httpx.post(
        f"{url}/api/events", json=event, headers={"authorization": f"Bearer {token}"}, timeout=60
    ).status_code


def _check(folder: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*COK, "check", "-C", str(folder)], capture_output=True, text=True, env=os.environ)


def test_killed_while_writing_the_log_stays_whole(example: Path) -> None:
    token = invites.invite(example, "Ann", organiser=True)
    answered: list[int] = []
    with serving(example) as served:
        stop = threading.Event()

        def write(n: int) -> None:
            i = 0
            while not stop.is_set():
                try:
                    answered.append(_adjust(served.url, token, f"writer {n} event {i}"))
                except httpx.HTTPError:
                    return  # the server is gone
                i += 1

        writers = [threading.Thread(target=write, args=(n,)) for n in range(4)]
        for w in writers:
            w.start()
        while answered.count(201) < 8:
            threading.Event().wait(0.02)
        served.kill()
        stop.set()
        for w in writers:
            w.join(30)
    checked = _check(example)
    assert checked.returncode == 0, checked.stderr
    log = (example / "events.yaml").read_text()
    assert log.count("reason: writer") >= answered.count(201)  # every 201 is in the log
    with serving(example) as again:  # and it serves, and records, again
        assert _adjust(again.url, token, "after the kill") == 201


def test_twenty_phones_and_a_terminal_at_once_each_land_once(example: Path) -> None:
    token = invites.invite(example, "Ann", organiser=True)
    with serving(example) as served:
        terminal = subprocess.Popen(
            [*COK, "adjust", "tim", "1", "--reason", "from the terminal", "-C", str(example)],
            env=os.environ,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        with ThreadPoolExecutor(20) as pool:
            codes = list(pool.map(lambda n: _adjust(served.url, token, f"phone {n}"), range(20)))
        assert terminal.wait(60) == 0
    assert codes == [201] * 20
    log = (example / "events.yaml").read_text()
    for n in range(20):
        assert log.count(f"reason: phone {n}\n") == 1, n
    assert log.count("reason: from the terminal") == 1
    assert _check(example).returncode == 0


def test_behind_a_reverse_proxy_links_and_cookies_follow_it(example: Path) -> None:
    """A proxy serving https://club.example/cok/ forwards to the server with the prefix taken
    off and X-Forwarded-Proto: https; links carry /cok and the cookie is Secure."""
    token = invites.invite(example, "tim")
    with serving(example, "--root-path=/cok") as served:
        base = served.url.removesuffix("/cok")
        proxied = {"x-forwarded-proto": "https", "x-forwarded-for": "203.0.113.9", "host": "club.example"}
        signed = httpx.get(f"{base}/join/{token}", headers=proxied, follow_redirects=False)
        assert signed.status_code == 303
        assert signed.headers["location"] in ("/cok/", "https://club.example/cok/")
        cookie = signed.headers["set-cookie"].lower()
        assert "secure" in cookie and "path=/cok/" in cookie
        page = httpx.get(f"{base}/activity", headers=proxied).text
        assert 'href="/cok/_cok/serve.css"' in page and 'href="/cok/"' in page, page[:900]


def test_an_untrusted_client_cannot_claim_https(example: Path) -> None:
    """Forwarded headers are believed only from the proxies named (--forwarded-allow-ips)."""
    token = invites.invite(example, "tim")
    with serving(example, "--forwarded-allow-ips=192.0.2.1") as served:
        signed = httpx.get(f"{served.url}/join/{token}", headers={"x-forwarded-proto": "https"}, follow_redirects=False)
        assert "secure" not in signed.headers["set-cookie"].lower()


def test_listening_on_every_address_warns_that_anyone_can_read(example: Path) -> None:
    port = free_port()
    process = subprocess.Popen(
        [*COK, "serve", "-C", str(example), "--host", "0.0.0.0", "--port", str(port)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=os.environ,
    )
    try:
        first = process.stdout.readline() if process.stdout else ""
        warning = process.stderr.readline() if process.stderr else ""
    finally:
        process.terminate()
        process.wait(10)
    assert f":{port}/" in first
    assert "anyone on the network can read the campaign" in warning


def test_it_binds_this_machine_only_by_default(example: Path) -> None:
    with serving(example) as served:
        assert served.url.startswith("http://127.0.0.1:")
        listening = (
            subprocess.run(["ss", "-ltnH"], capture_output=True, text=True).stdout if sys.platform == "linux" else ""
        )
        port = served.url.rsplit(":", 1)[1]
        if listening:
            assert f"0.0.0.0:{port}" not in listening and f"127.0.0.1:{port}" in listening


def test_commit_makes_each_recording_a_commit_by_its_player(example: Path) -> None:
    repo = example.parents[1]
    git = ["git", "-C", str(repo), "-c", "user.name=setup", "-c", "user.email=setup@example.org"]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-qm", "the campaign"], check=True)
    token = invites.invite(example, "tim")
    painting = {"type": "painting", "player": "tim", "units": 1}
    with serving(example, "--commit") as served:
        answer = httpx.post(f"{served.url}/api/events", json=painting, headers={"authorization": f"Bearer {token}"})
    assert answer.status_code == 201, answer.text
    shown = subprocess.run([*git, "log", "-1", "--format=%an%n%s"], capture_output=True, text=True).stdout
    author, subject = shown.splitlines()[:2]
    assert author == "tim" and subject == answer.json()["told"]
    log = str(example / "events.yaml")
    assert subprocess.run([*git, "status", "--porcelain", "--", log], capture_output=True, text=True).stdout == ""
