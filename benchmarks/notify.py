"""Row 52 of docs/performance.md (issue 37): posting to the club's chat never slows a recording.

    python benchmarks/notify.py            # 40 rounds one a second, then 40 back to back
    python benchmarks/notify.py --quick    # 6 rounds each: that it still runs (benchmarks/run.py --quick)
    python benchmarks/notify.py --check    # exit 1 when the target is missed

Two `cok serve` servers on copies of the shipped example, each with a data folder of its own:
one posts to three chat destinations (`cok notify add`), two fake chat services on 127.0.0.1
and one that is down (a port nothing listens on), the other to none. A battle is recorded on
each in turn (POST /api/events, interleaved), one a second as phones send them (row 50's
pace), and the medians are compared: the target is ≤ 1.1×. The same back to back (the
courier's work then overlaps the next recordings on the same cores) is reported. The posts
are sent by the server's courier process, off the campaign's lock; afterwards each fake must
have received each battle exactly once (the down one's posts wait in the outbox). No real chat service is ever reached.
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
    parser.add_argument("--control", action="store_true", help="no destinations on either side: the noise")
    args = parser.parse_args(argv)
    rounds = args.rounds or (6 if args.quick else 40)
    pace = 0.2 if args.quick else 1.0
    with tempfile.TemporaryDirectory() as scratch_name, chat_service() as (one, first), chat_service() as (two, second):
        scratch = Path(scratch_name)
        servers: dict[str, Server] = {}
        tokens: dict[str, str] = {}
        for side in ("chat", "none"):
            env = {**os.environ, "COK_DATA_DIR": str(scratch / side / "data"), "COK_CACHE_DIR": str(scratch / "cache")}
            folder = writable_copy(EXAMPLE, scratch / side)
            if side == "chat" and not args.control:
                for url in (one, two, down()):
                    cok(folder, env, "notify", "add", url)
            tokens[side] = json.loads(cok(folder, env, "invite", "--organiser", "bench", "--json"))["token"]
            servers[side] = Server(folder, env)
        times: dict[tuple[str, float], list[float]] = {}
        try:
            for side in servers.values():  # warm: the first recording after a start makes the state
                side.timed("GET", "/")
            n = 0
            for pause in (pace, 0.0):  # one a second (as the phones of row 50 send them), then back to back
                for _ in range(rounds):
                    for side in ("chat", "none") if n % 2 else ("none", "chat"):  # each first in turn
                        headers = {"authorization": f"Bearer {tokens[side]}"}  # again: the same battle once more
                        took = servers[side].timed("POST", "/api/events?again=1", json=battle(n), headers=headers)
                        times.setdefault((side, pause), []).append(took)
                        time.sleep(pause)
                    n += 1
            deadline = time.monotonic() + 30
            while min(len(first), len(second)) < n and time.monotonic() < deadline:
                time.sleep(0.1)
        finally:
            for server in servers.values():
                server.stop()
    each_once = len(first) == len(second) == n and len(set(first)) == n
    print(f"cok serve, the shipped example ({rounds} rounds each, interleaved; medians)")
    good = True
    for pause, label in ((pace, f"one every {pace:g} s"), (0.0, "back to back")):
        a, b = statistics.median(times["chat", pause]), statistics.median(times["none", pause])
        judged = pause > 0
        good &= not judged or a / b <= LIMIT
        said = (
            "(reported)"
            if not judged
            else "(quick: not judged)"
            if args.quick
            else "ok"
            if a / b <= LIMIT
            else "MISSED"
        )
        bound = f"(≤ {LIMIT}x) " if judged else ""
        print(
            f" 52  a recording (a battle), three chat destinations (one down) vs none, {label:<13} "
            f"{a * 1000:7.2f} / {b * 1000:6.2f} ms = {a / b:5.2f}x {bound}{said}"
        )
    if not args.control:
        posted = f"{len(first)} and {len(second)} of {n} battles"
        print(f"     posted by the courier meanwhile: {posted}, {'each once' if each_once else 'NOT each once'}")
    return 1 if args.check and not args.quick and not (good and (each_once or args.control)) else 0


if __name__ == "__main__":
    raise SystemExit(main())
