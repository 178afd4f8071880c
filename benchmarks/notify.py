"""Row 52 of docs/performance.md (issue 37): posting to the club's chat never slows a recording.

    python benchmarks/notify.py            # 60 rounds
    python benchmarks/notify.py --quick    # 6 rounds: that it still runs (benchmarks/run.py --quick)
    python benchmarks/notify.py --check    # exit 1 when the target is missed

Two `cok serve` servers on copies of the shipped example, each with a data folder of its own:
one posts to three chat destinations (`cok notify add`), two fake chat services on 127.0.0.1
and one that is down (a port nothing listens on), the other to none. A battle is recorded on
each in turn (POST /api/events, interleaved), and the medians are compared: the target is
≤ 1.1×. The posts are sent by the server's courier thread, off the campaign's lock, while the
next recordings arrive; afterwards each fake must have received each battle exactly once, and
the down one's posts wait in the outbox. No real chat service is ever reached.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from run import EXAMPLE, cok_command, writable_copy  # noqa: E402

from serve import Server  # noqa: E402

LIMIT = 1.1


@contextmanager
def chat_service() -> Iterator[tuple[str, list[str]]]:
    """A fake chat service on 127.0.0.1 taking Apprise's json:// posts: its URL, the messages."""
    received: list[str] = []

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", "0"))) or b"{}")
            received.append(str(body.get("message", "")))
            self.send_response(200)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, format: str, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"json://127.0.0.1:{server.server_address[1]}/hook", received
    finally:
        server.shutdown()
        server.server_close()


def down() -> str:
    """A json:// destination on a port nothing listens on."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return f"json://127.0.0.1:{probe.getsockname()[1]}/hook"


def cok(folder: Path, env: dict[str, str], *args: str) -> str:
    done = subprocess.run([*cok_command(), *args, "-C", str(folder)], env=env, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"cok {' '.join(args)}: {done.stderr}")
    return done.stdout


def battle(n: int) -> dict[str, object]:
    """A battle the organiser records (posted to the chat as `battle`), a counter in it."""
    return {"type": "battle", "players": ["tim", "matt"], "location": "Ghost Hill", "winner": "tim", "attacker": "tim",
            "override": f"bench {n}"}  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--check", action="store_true")
    parser.add_argument("--rounds", type=int)
    parser.add_argument("--pause", type=float, default=0.0, help="seconds between recordings (default none)")
    parser.add_argument("--control", action="store_true", help="no destinations on either side: the noise")
    args = parser.parse_args(argv)
    rounds = args.rounds or (6 if args.quick else 60)
    with tempfile.TemporaryDirectory() as scratch_name, chat_service() as (one, first), chat_service() as (two, second):
        scratch = Path(scratch_name)
        servers: dict[str, Server] = {}
        tokens: dict[str, str] = {}
        folders: dict[str, Path] = {}
        for side in ("chat", "none"):
            env = {**os.environ, "COK_DATA_DIR": str(scratch / side / "data"), "COK_CACHE_DIR": str(scratch / "cache")}
            folders[side] = folder = writable_copy(EXAMPLE, scratch / side)
            if side == "chat" and not args.control:
                for url in (one, two, down()):
                    cok(folder, env, "notify", "add", url)
            tokens[side] = json.loads(cok(folder, env, "invite", "--organiser", "bench", "--json"))["token"]
            servers[side] = Server(folder, env)
        times: dict[str, list[float]] = {"chat": [], "none": []}
        try:
            for side in servers.values():  # warm: the first recording after a start makes the state
                side.timed("GET", "/")
            for n in range(rounds):
                for side in ("chat", "none") if n % 2 else ("none", "chat"):  # each first in turn
                    headers = {"authorization": f"Bearer {tokens[side]}"}  # again: the same battle once more
                    post = ("POST", "/api/events?again=1")
                    times[side].append(servers[side].timed(*post, json=battle(n), headers=headers))
                    time.sleep(args.pause)
            deadline = time.monotonic() + 30
            while min(len(first), len(second)) < rounds and time.monotonic() < deadline:
                time.sleep(0.1)
        finally:
            for server in servers.values():
                server.stop()
    a, b = statistics.median(times["chat"]), statistics.median(times["none"])
    ratio = a / b
    good = ratio <= LIMIT
    each_once = len(first) == len(second) == rounds and len(set(first)) == rounds
    print(f"cok serve, the shipped example ({rounds} rounds, interleaved; medians)")
    said = "(quick: too few rounds to judge)" if args.quick else ("ok" if good else "MISSED")
    print(
        f" 52  a recording (a battle) with three chat destinations, one down, vs none "
        f"{a * 1000:8.2f} / {b * 1000:7.2f} ms = {ratio:5.2f}x (≤ {LIMIT}x) {said}"
    )
    if not args.control:
        posted = f"{len(first)} and {len(second)} of {rounds} battles"
        print(f"     posted by the courier meanwhile: {posted}, {'each once' if each_once else 'NOT each once'}")
    return 1 if args.check and not args.quick and not (good and (each_once or args.control)) else 0


if __name__ == "__main__":
    raise SystemExit(main())
