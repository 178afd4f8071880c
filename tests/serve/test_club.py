"""Issue 38 (a club runs it for a season) and issue 34's slow clients: the addresses printed and
checked, links kept by the campaign's identity, a port in use and `--commit` without git said in
words, forwarded headers from an untrusted address warned of, slow clients cut off."""

from __future__ import annotations

import asyncio
import json
import re
import shutil
import socket
import subprocess
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest
import uvicorn

from cok.links import addresses, invites
from cok.serve import deadline
from cok.serve.app import create_app
from cok.serve.forwarded import Untrusted
from tests.conftest import Cok
from tests.serve.conftest import Table
from tests.serve.process import COK, free_port, serving


def test_invite_url_refuses_0_0_0_0_and_a_url_without_a_scheme(example: Path) -> None:
    for bad in ("http://0.0.0.0:8000", "192.168.1.20:8000", "club.example/cok"):
        run = Cok(example)("invite", "tim", "--url", bad)
        assert run.exit_code == 1 and "--url" in run.stderr, (bad, run.stderr)
    assert invites.links(example) == []  # nothing written


def test_invite_warns_that_127_0_0_1_opens_on_this_machine_alone(example: Path) -> None:
    run = Cok(example)("invite", "tim", "--url", "http://127.0.0.1:8000")
    assert run.exit_code == 0 and "this machine alone" in run.stderr


def test_the_campaign_remembers_its_public_url_once(example: Path) -> None:
    first = Cok(example)("invite", "tim", "--url", "https://club.example/cok/", "--json")
    assert json.loads(first.stdout)["url"].startswith("https://club.example/cok/join/")
    later = Cok(example)("invite", "matt", "--json")
    assert json.loads(later.stdout)["url"].startswith("https://club.example/cok/join/")
    assert addresses.remembered(example) == "https://club.example/cok"


def test_serve_on_every_address_prints_this_machines_network_addresses(example: Path) -> None:
    port = free_port()
    process = subprocess.Popen(
        [*COK, "serve", "-C", str(example), "--host", "0.0.0.0", "--port", str(port)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        first = process.stdout.readline() if process.stdout else ""
    finally:
        process.terminate()
        process.wait(10)
    assert "0.0.0.0" not in first
    assert any(f"http://{a}:{port}/" in first for a in addresses.network_addresses()) or "localhost" in first


def test_root_path_prints_an_address_that_works_and_redirects_the_bare_prefix(example: Path) -> None:
    with serving(example, "--root-path=/cok") as served:
        printed = served.process.stdout.readline() if served.process.stdout else ""
        shown = printed.split(" at ", 1)[1].split()[0]
        assert shown.endswith("/cok/")
        assert httpx.get(shown.replace("localhost", "127.0.0.1")).status_code == 200
        bare = httpx.get(served.url, follow_redirects=False)  # .../cok
        assert bare.status_code in (301, 308) and bare.headers["location"].endswith("/cok/")
        kept = httpx.get(f"{served.url}/api/standings")  # a proxy that keeps the prefix
        assert kept.status_code == 200


def test_the_server_says_at_start_how_many_links_it_knows_and_list_agrees(example: Path) -> None:
    invites.invite(example, "tim")
    invites.invite(example, "Ann", organiser=True)
    listed = Cok(example)("invite", "--list")
    assert "2 links known" in listed.stderr
    with serving(example) as served:
        served.process.terminate()
        out, _ = served.process.communicate(timeout=10)
    assert "2 links known" in out


def test_a_port_in_use_is_said_in_words_with_exit_1(example: Path) -> None:
    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))
        held.listen()
        port = held.getsockname()[1]
        run = subprocess.run(
            [*COK, "serve", "-C", str(example), "--port", str(port)], capture_output=True, text=True, timeout=60
        )
    assert run.returncode == 1
    assert "already in use" in run.stderr and "Errno" not in run.stderr and "Traceback" not in run.stderr


def test_commit_outside_a_git_repository_refuses_to_start_with_the_fix(example: Path) -> None:
    run = subprocess.run(
        [*COK, "serve", "-C", str(example), "--port", str(free_port()), "--commit"],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=example,
        env={"GIT_CEILING_DIRECTORIES": str(example.parent), **_env()},
    )
    assert run.returncode == 1 and "git init" in run.stderr, run.stderr


def _env() -> dict[str, str]:
    import os

    return dict(os.environ)


def test_forwarded_headers_from_an_untrusted_address_are_warned_of_once() -> None:
    said: list[str] = []

    async def app(scope: object, receive: object, send: object) -> None:
        return None

    guard = Untrusted(app, "127.0.0.1", said.append)  # type: ignore[arg-type]
    headers = [(b"x-forwarded-proto", b"https")]
    for client in ("192.0.2.7", "192.0.2.7", "127.0.0.1"):
        scope = {"type": "http", "client": (client, 5000), "headers": headers}
        asyncio.run(guard(scope, None, None))  # type: ignore[arg-type]
    assert len(said) == 1 and "192.0.2.7" in said[0] and "--forwarded-allow-ips 192.0.2.7" in said[0]
    asyncio.run(guard({"type": "http", "client": ("192.0.2.8", 1), "headers": []}, None, None))  # type: ignore[arg-type]
    assert len(said) == 1  # no forwarded headers, nothing to say


@contextmanager
def _in_thread(example: Path, http: object) -> Iterator[int]:
    port = free_port()
    config = uvicorn.Config(
        create_app(example),
        host="127.0.0.1",
        port=port,
        http=http,  # type: ignore[arg-type]
        limit_concurrency=deadline.CONNECTIONS,
        timeout_keep_alive=deadline.KEEP_ALIVE,
        log_level="error",
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        for _ in range(100):
            if server.started:
                break
            time.sleep(0.1)
        yield port
    finally:
        server.should_exit = True
        thread.join(10)


def _trickle(port: int, seconds: float) -> bool:
    """A client sending a header a byte at a time: whether the server closed it before `seconds`."""
    with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
        s.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nX-Slow: ")
        end = time.monotonic() + seconds
        try:
            while time.monotonic() < end:
                s.sendall(b"a")
                s.settimeout(0.25)
                try:
                    if s.recv(1024) == b"":
                        return True
                except TimeoutError:
                    pass
        except OSError:
            return True
    return False


def test_a_trickling_client_is_cut_off_and_twenty_phones_are_still_served(
    example: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """(With uvicorn's own h11 protocol in place of Deadline, none of the 30 is cut off.)"""
    monkeypatch.setattr(deadline, "REQUEST_WITHIN", 1.0)
    with _in_thread(example, deadline.Deadline) as port, ThreadPoolExecutor(60) as pool:
        slow = [pool.submit(_trickle, port, 4.0) for _ in range(30)]
        time.sleep(0.3)
        phones = [pool.submit(httpx.get, f"http://127.0.0.1:{port}/api/standings", timeout=10) for _ in range(20)]
        assert all(p.result().status_code == 200 for p in phones)
        cut = [s.result() for s in slow]
    assert all(cut)


def _decoded_terminal(drawn: str) -> list[list[bool]]:
    """The modules a terminal QR code shows (dark = True), read back from its half blocks."""
    top = {"█": False, "▀": False, "▄": True, " ": True}
    bottom = {"█": False, "▀": True, "▄": False, " ": True}
    rows: list[list[bool]] = []
    for line in drawn.splitlines():
        rows.append([top[c] for c in line])
        rows.append([bottom[c] for c in line])
    return rows


def test_invite_qr_shows_the_link_as_a_qr_code_and_writes_a_picture(example: Path, tmp_path: Path) -> None:
    import segno

    picture = tmp_path / "tim.png"
    run = Cok(example)("invite", "tim", "--url", "http://192.168.1.20:8000", "--qr", "--qr-file", str(picture))
    assert run.exit_code == 0, run.stderr
    link = next(line for line in run.stdout.splitlines() if "/join/" in line)
    drawn = "\n".join(line for line in run.stdout.splitlines() if set(line) <= set("█▀▄ ") and line)
    assert max(len(line) for line in drawn.splitlines()) <= 80
    modules = [[bool(m) for m in row] for row in segno.make(link, error="m", micro=False).matrix]
    shown = _decoded_terminal(drawn)
    border = 4
    inner = [row[border : border + len(modules)] for row in shown[border : border + len(modules)]]
    assert inner == modules
    assert picture.read_bytes().startswith(b"\x89PNG") and picture.stat().st_mode & 0o077 == 0
    if shutil.which("zbarimg"):
        read = subprocess.run(["zbarimg", "-q", "--raw", str(picture)], capture_output=True, text=True)
        assert read.stdout.strip() == link


def test_invite_qr_file_is_refused_inside_the_campaign_folder(example: Path) -> None:
    run = Cok(example)("invite", "tim", "--qr-file", str(example / "tim.png"))
    assert run.exit_code == 1 and not (example / "tim.png").exists()
    assert invites.links(example) == []


def test_the_organisers_page_makes_a_players_new_link_and_shows_it_as_a_qr_code(table: Table) -> None:
    csrf = table.sign_in(table.organiser)
    page = table.client.get("/links")
    assert page.status_code == 200 and "Make a new link" in page.text
    made = table.client.post("/links", data={"csrf": csrf, "player": "tim"})
    assert made.status_code == 200 and "<svg" in made.text and made.headers["cache-control"] == "no-store"
    link = re.search(r'<code class="link">([^<]+)</code>', made.text)
    assert link and "/join/" in link[1]
    token = link[1].rsplit("/", 1)[1]
    assert invites.Keys(table.folder).find(token) is not None and invites.Keys(table.folder).find(table.tim) is None
    unknown = table.client.post("/links", data={"csrf": csrf, "player": "nobody"})
    assert unknown.status_code == 422


def test_only_an_organiser_makes_links_on_the_page(table: Table) -> None:
    csrf = table.sign_in(table.tim)
    assert table.client.get("/links").status_code == 403
    assert table.client.post("/links", data={"csrf": csrf, "player": "matt"}).status_code == 403
    assert invites.Keys(table.folder).find(table.matt) is not None


def test_no_template_of_the_server_shadows_a_games_template() -> None:
    """The server's templates are looked up first: one named as a game's hides the game's page
    (a `join.html` here once made No True King's join page fail)."""
    source = Path(deadline.__file__).parents[1]
    served = {p.name for p in (source / "serve" / "templates").glob("*.html")}
    games = {p.name for p in (source / "rulesets").rglob("*.html")}
    assert not served & games, served & games
