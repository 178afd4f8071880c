"""Measure `cok serve`'s targets (issue #24) against real servers, as ratios in one run:

    python benchmarks/serve.py            # a 100,000-event campaign against the shipped example
    python benchmarks/serve.py --quick    # a 2,000-event one, few rounds: that it still runs
    python benchmarks/serve.py --check    # exit 1 when a target is missed

Rows (numbered after benchmarks/run.py's): 41 a page read (the home page), 42 an API read
(/api/standings), 43 a recording (POST /api/events): each the median over interleaved rounds
on two servers, the large campaign's over the example's; 44 twenty recordings sent at once to
the large campaign: how many landed exactly once; 45 the large campaign's server's peak
memory (VmHWM, the server starts nothing else) after all of the above.

Issue 37 (the first page after a recording): 46–49 the home page, the standings
(/api/standings), a player's page and the log's newest page, each read just after a
recording, 100,000 events over the example (Clash of Kings); 56–59 the same for Mighty
Kingdoms (a kingdom's page for a player's); 50 twenty phones polling /api/version every 3 s
and reloading their page when it changes, while a recording arrives every second for a
minute: the polls' median against the same phones on the idle server, and every recording
landed once; 51 the home page just after a void (which may cost a pass over the whole
history; reported), and the void itself and the server's peak memory after the voids
(`--only void`); 52 (a recording with chat destinations) is benchmarks/notify.py's. 61, 62 and 64: No
True King's home page, standings and log's newest page (its site has no player's page) just
after a recording (an agent placed), on the campaign of `generate_ntk.py` (one game made
heavy by placements voided at once: no game of its rules is longer than a few hundred
events) against the same game without them (the shipped example is a game over).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from run import EXAMPLE, MK_EXAMPLE, campaign, cok_command, waiting_armies, writable_copy  # noqa: E402


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    def __init__(self, folder: Path, env: dict[str, str]) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process = subprocess.Popen(
            [*cok_command(), "serve", "-C", str(folder), "--port", str(self.port)],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        self.client = httpx.Client(base_url=self.url, timeout=600)
        deadline = time.monotonic() + 600
        while True:
            try:
                if self.client.get("/api/standings").status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(
                    f"cok serve did not start: {self.process.stderr.read() if self.process.stderr else ''}"
                )
            time.sleep(0.2)

    def timed(self, method: str, path: str, **kw: object) -> float:
        start = time.perf_counter()
        answer = self.client.request(method, path, **kw)  # type: ignore[arg-type]
        elapsed = time.perf_counter() - start
        if answer.status_code >= 300:
            raise SystemExit(f"{method} {path}: {answer.status_code} {answer.text[:400]}")
        return elapsed

    def peak_mb(self) -> float:
        for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
        return float("nan")

    def post(self, event: dict[str, object], token: str) -> float:
        return self.timed("POST", "/api/events", json=event, headers={"authorization": f"Bearer {token}"})

    def stop(self) -> None:
        self.client.close()
        self.process.terminate()
        self.process.wait(30)


def interleaved(
    a: Server,
    b: Server,
    rounds: int,
    method: str,
    path: str,
    body: object = None,
    token: dict[Server, str] | None = None,
) -> tuple[float, float]:
    times: dict[Server, list[float]] = {a: [], b: []}
    for n in range(rounds):
        for server in (a, b):
            kw: dict[str, object] = {}
            if body is not None and token is not None:
                kw = {"json": {**body, "reason": f"bench {n}"}, "headers": {"authorization": f"Bearer {token[server]}"}}  # type: ignore[dict-item]
            times[server].append(server.timed(method, path, **kw))
    return statistics.median(times[a]), statistics.median(times[b])


def after_recording(
    pairs: list[tuple[Server, Callable[[int], dict[str, object]], str, dict[str, str]]], paths: list[str], rounds: int
) -> dict[str, tuple[float, float]]:
    """For each path, the median time of its first read just after a recording, on each
    server of the pair (interleaved): (large, example). `pairs`: the server, the recording
    it takes (by number), its token and its own paths (a player's page names its player)."""
    times: dict[str, list[list[float]]] = {path: [[], []] for path in paths}
    n = 0
    for _ in range(rounds):
        for path in paths:
            for side, (server, event, token, own) in enumerate(pairs):
                server.post(event(n), token)
                times[path][side].append(server.timed("GET", own.get(path, path)))
            n += 1
    return {path: (statistics.median(a), statistics.median(b)) for path, (a, b) in times.items()}


def phones(
    server: Server,
    pages: list[str],
    seconds: float,
    token: str | None,
    event: Callable[[int], dict[str, object]] | None,
) -> tuple[list[float], int, int]:
    """Twenty phones with a page open, polling /api/version every 3 s (as live.js does) and
    reloading their page when the version changed; meanwhile, with `event`, a recording
    every second. The polls' times, the reloads, and the recordings answered 201."""
    stop = time.monotonic() + seconds
    polls: list[float] = []
    reloads = [0]
    lock = threading.Lock()

    def phone(k: int) -> None:
        page = pages[k % len(pages)]
        with httpx.Client(base_url=server.url, timeout=600) as client:
            seen = client.get("/api/version").json()["version"]
            time.sleep(3 * k / 20)  # phones opened at different moments
            while time.monotonic() < stop:
                start = time.perf_counter()
                now = client.get("/api/version", headers={"cache-control": "no-store"}).json()["version"]
                took = time.perf_counter() - start
                with lock:
                    polls.append(took)
                if now != seen:
                    seen = now
                    client.get(page)
                    with lock:
                        reloads[0] += 1
                time.sleep(max(0.0, 3 - took))

    landed = 0
    with ThreadPoolExecutor(21) as pool:
        running = [pool.submit(phone, k) for k in range(20)]
        n = 0
        while event is not None and token is not None and time.monotonic() < stop - 0.5:
            start = time.monotonic()
            with httpx.Client(base_url=server.url, timeout=600) as client:
                answer = client.post("/api/events", json=event(n), headers={"authorization": f"Bearer {token}"})
            landed += answer.status_code == 201
            n += 1
            time.sleep(max(0.0, 1 - (time.monotonic() - start)))
        for done in running:
            done.result()
    return polls, reloads[0], landed


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--check", action="store_true")
    parser.add_argument("--rounds", type=int)
    parser.add_argument("--only", choices=["reads", "after", "phones", "void", "mk", "ntk"], action="append")
    args = parser.parse_args()
    size = 2_000 if args.quick else 100_000
    rounds = args.rounds or (5 if args.quick else 40)
    after_rounds = max(3, rounds // 4)
    minute = 10.0 if args.quick else 60.0
    only = set(args.only or ["reads", "after", "phones", "void", "mk", "ntk"])
    source = campaign(size)
    rows: list[tuple[int, str, tuple[float, float], float | None]] = []
    notes: list[str] = []
    ok = True
    with tempfile.TemporaryDirectory() as scratch_name:
        scratch = Path(scratch_name)
        env = {**os.environ, "COK_DATA_DIR": str(scratch / "data"), "COK_CACHE_DIR": str(scratch / "cache")}
        os.environ.update({k: env[k] for k in ("COK_DATA_DIR", "COK_CACHE_DIR")})
        small = writable_copy(EXAMPLE, scratch / "small")
        large = writable_copy(source, scratch / "large")
        from cok.links import invites

        players = ["tim"]  # the example's
        servers = {folder: Server(folder, env) for folder in (small, large)}
        s, big = servers[small], servers[large]
        token = {s: invites.invite(small, "bench", organiser=True), big: invites.invite(large, "bench", organiser=True)}
        large_player = big.client.get("/api/standings").json()["players"][0]["id"]
        for server in (s, big):  # warm: the first read after a start makes the pages
            server.timed("GET", "/")
            server.timed("GET", "/api/standings")

        def adjust(pid: str, why: str) -> Callable[[int], dict[str, object]]:
            return lambda n: {"type": "adjust", "player": pid, "cp": 1, "reason": f"{why} {n}"}

        if "reads" in only:
            page = interleaved(big, s, rounds, "GET", "/")
            rows.append((41, f"page read (home) at {size // 1000}k vs the example", page, 1.2))
            api = interleaved(big, s, rounds, "GET", "/api/standings")
            rows.append((42, f"API read (/api/standings) at {size // 1000}k vs the example", api, 1.2))
            times: dict[Server, list[float]] = {s: [], big: []}
            for n in range(max(3, rounds // 3)):
                for server, pid in ((big, large_player), (s, players[0])):
                    times[server].append(server.post(adjust(pid, "bench")(n), token[server]))
            recording = (statistics.median(times[big]), statistics.median(times[s]))
            rows.append((43, f"a recording (POST /api/events) at {size // 1000}k vs the example", recording, 1.5))

            def send(n: int) -> int:
                event = {"type": "adjust", "player": large_player, "cp": 1, "reason": f"at once {n}"}
                with httpx.Client(base_url=big.url, timeout=600) as client:
                    return client.post(
                        "/api/events", json=event, headers={"authorization": f"Bearer {token[big]}"}
                    ).status_code

            with ThreadPoolExecutor(20) as pool:
                codes = list(pool.map(send, range(20)))
            log = (large / "events.yaml").read_text()
            landed = sum(1 for n in range(20) if log.count(f"reason: at once {n}\n") == 1)
            all_landed = landed == 20 and codes.count(201) == 20
            ok &= all_landed
            notes.append(
                f" 44  20 recordings at once at {size // 1000}k: {codes.count(201)} answered 201, "
                f"{landed} landed once {'ok' if all_landed else 'MISSED'}"
            )
        if "after" in only:
            paths = ["/", "/api/standings", "/players/P.html", "/log.html"]
            found = after_recording(
                [
                    (
                        big,
                        adjust(large_player, "fresh"),
                        token[big],
                        {"/players/P.html": f"/players/{large_player}.html"},
                    ),
                    (s, adjust(players[0], "fresh"), token[s], {"/players/P.html": f"/players/{players[0]}.html"}),
                ],
                paths,
                after_rounds,
            )
            what = ["the home page", "the standings (/api/standings)", "a player's page", "the log's newest page"]
            for number, path, words in zip((46, 47, 48, 49), paths, what, strict=True):
                rows.append(
                    (number, f"{words} just after a recording, {size // 1000}k vs the example", found[path], 1.5)
                )
        if "phones" in only:
            pages = ["/", f"/players/{large_player}.html", "/log.html"]
            idle, _, _ = phones(big, pages, minute, None, None)
            busy, reloads, answered = phones(big, pages, minute, token[big], adjust(large_player, "phones"))
            log = (large / "events.yaml").read_text()
            sent = answered
            once = sum(1 for n in range(int(minute) + 1) if log.count(f"reason: phones {n}\n") == 1)
            many = sum(1 for n in range(int(minute) + 1) if log.count(f"reason: phones {n}\n") > 1)
            rows.append(
                (
                    50,
                    f"20 phones polling at {size // 1000}k: a poll while recording vs idle (median)",
                    (statistics.median(busy), statistics.median(idle)),
                    1.5,
                )
            )
            q = statistics.quantiles
            notes.append(
                f" 50  polls: {len(busy)} while recording, {len(idle)} idle; p95 {q(busy, n=20)[-1] * 1000:.1f} / "
                f"{q(idle, n=20)[-1] * 1000:.1f} ms, slowest {max(busy) * 1000:.1f} / {max(idle) * 1000:.1f} ms; "
                f"{reloads} page reloads; {sent} recordings answered 201, {once} landed once, {many} more than once"
            )
            ok &= once == sent and many == 0
        peak = big.peak_mb()  # before the void below: a void replays the whole log (the service's cost)
        if "void" in only:
            fresh_void: dict[Server, list[float]] = {s: [], big: []}
            voiding: dict[Server, list[float]] = {s: [], big: []}
            for n in range(max(2, after_rounds // 2)):
                for server, pid in ((big, large_player), (s, players[0])):
                    server.post(adjust(pid, "to void")(n), token[server])
                    last = void_target(large if server is big else small, f"to void {n}")
                    voiding[server].append(
                        server.post({"type": "void", "target": last, "reason": f"bench void {n}"}, token[server])
                    )
                    fresh_void[server].append(server.timed("GET", "/"))
            rows.append(
                (
                    51,
                    f"the home page just after a void, {size // 1000}k vs the example",
                    (statistics.median(fresh_void[big]), statistics.median(fresh_void[s])),
                    None,
                )
            )
            notes.append(
                f" 51  a void itself (POST /api/events): {statistics.median(voiding[big]):.2f} s at {size // 1000}k, "
                f"{statistics.median(voiding[s]) * 1000:.1f} ms on the example; the large server's peak memory "
                f"after the voids: {big.peak_mb():.0f} MB (reported)"
            )
        for server in servers.values():
            server.stop()
        if "mk" in only:
            mk_rows = mighty_kingdoms(size, after_rounds, scratch, env)
            rows += mk_rows
        if "ntk" in only:
            rows += no_true_king(size, after_rounds, scratch, env)
    print(
        f"cok serve, {size:,} events vs the shipped example "
        f"({rounds} rounds, {after_rounds} after a recording; medians)"
    )
    for number, label, (a, b), limit in rows:
        ratio = a / b
        good = limit is None or ratio <= limit
        ok &= good
        said = "(reported)" if limit is None else ("ok" if good else "MISSED")
        bound = "" if limit is None else f"(≤ {limit}x) "
        print(f"{number:>3}  {label:<72} {a * 1000:8.2f} / {b * 1000:7.2f} ms = {ratio:5.2f}x {bound}{said}")
    for note in notes:
        print(note)
    print(" 52  a recording with three chat destinations, one down: benchmarks/notify.py")
    ok &= peak < 300
    said = "ok" if peak < 300 else "MISSED"
    print(f" 45  the server's peak memory at {size // 1000}k: {peak:.0f} MB (target < 300 MB) {said}")
    return 0 if ok or not args.check else 1


def void_target(folder: Path, reason: str) -> str:
    """The id of the event recorded with this reason (the log's last such)."""
    text = (folder / "events.yaml").read_text()
    block = text[text.rindex(f"reason: {reason}\n") :].split("\n- ", 1)[0]
    block = text[: text.rindex(f"reason: {reason}\n")].rsplit("\n- ", 1)[1] + block
    for line in block.splitlines():
        if line.strip().startswith("id:"):
            return line.split(":", 1)[1].strip().strip("'\"")
    raise SystemExit(f"no id for the event '{reason}'")


def mighty_kingdoms(
    size: int, rounds: int, scratch: Path, env: dict[str, str]
) -> list[tuple[int, str, tuple[float, float], float | None]]:
    """Rows 56–59: Mighty Kingdoms' pages just after a recording (an army's order), at
    `size` events against the shipped example. A campaign has only a handful of armies to
    order: when none waits, the log is put back as it was (untimed) and they wait again."""
    from cok.links import invites

    folders = [
        writable_copy(campaign(size, "mk"), scratch / "mk-large"),
        writable_copy(MK_EXAMPLE, scratch / "mk-small"),
    ]
    pristine = {f: (f / "events.yaml").read_bytes() for f in folders}
    servers = [Server(f, env) for f in folders]
    tokens = [invites.invite(f, "bench", organiser=True) for f in folders]
    kingdoms = [server.client.get("/api/standings").json() for server in servers]
    firsts = [_first_kingdom(k) for k in kingdoms]
    waiting: list[list[list[str]]] = [[], []]
    for server in servers:
        server.timed("GET", "/")

    def order(side: int) -> Callable[[int], dict[str, object]]:
        def made(n: int) -> dict[str, object]:
            if not waiting[side]:
                folder = folders[side]
                put_back(servers[side], folder, pristine[folder])
                waiting[side] = waiting_armies(cok_command(), folder)
                if len(waiting[side]) > 1:  # the first recording after an open: untimed (`settled`)
                    army, what = waiting[side].pop(0)
                    settled(servers[side], {"type": "order", "army": army, "order": what}, tokens[side])
            army, what = waiting[side].pop(0)
            return {"type": "order", "army": army, "order": what}

        return made

    paths = ["/", "/api/standings", "/kingdoms/K.html", "/log.html"]
    pairs = [
        (servers[side], order(side), tokens[side], {"/kingdoms/K.html": f"/kingdoms/{firsts[side]}.html"})
        for side in (0, 1)
    ]
    found = after_recording(pairs, paths, rounds)  # type: ignore[arg-type]
    for server in servers:
        server.stop()
    what = ["the home page", "the standings (/api/standings)", "a kingdom's page", "the log's newest page"]
    return [
        (number, f"MK {words} just after a recording, {size // 1000}k vs the example", found[path], 1.5)
        for number, path, words in zip((56, 57, 58, 59), paths, what, strict=True)
    ]


def no_true_king(
    size: int, rounds: int, scratch: Path, env: dict[str, str]
) -> list[tuple[int, str, tuple[float, float], float | None]]:
    """Rows 61, 62, 64: No True King's pages just after a recording (an agent placed), at
    `size` events against the same game without its voided placements (its own ~100 events:
    the shipped example is a game over, nothing may be recorded after it, and a game cut
    elsewhere has another board to draw). Each side records the game's next placements;
    when they run out, the log is put back as it was (untimed)."""
    import json

    from generate_ntk import next_path

    from cok.links import invites

    source = campaign(size, "ntk")
    large = writable_copy(source, scratch / "ntk-large")
    unpadded = campaign(0, "ntk")
    small = writable_copy(unpadded, scratch / "ntk-small")
    following = [json.loads(next_path(f).read_text(encoding="utf-8")) for f in (source, unpadded)]
    folders = [large, small]
    pristine = {f: (f / "events.yaml").read_bytes() for f in folders}
    servers = [Server(f, env) for f in folders]
    tokens = [invites.invite(f, "bench", organiser=True) for f in folders]
    waiting: list[list[dict[str, object]]] = [[], []]
    for server in servers:
        server.timed("GET", "/")

    def place(side: int) -> Callable[[int], dict[str, object]]:
        def made(n: int) -> dict[str, object]:
            if not waiting[side]:
                folder = folders[side]
                put_back(servers[side], folder, pristine[folder])
                waiting[side] = list(following[side])
                if len(waiting[side]) > 1:  # the first recording after an open: untimed (`settled`)
                    settled(servers[side], waiting[side].pop(0), tokens[side])
            return waiting[side].pop(0)

        return made

    paths = ["/", "/api/standings", "/log.html"]
    pairs = [(servers[side], place(side), tokens[side], {}) for side in (0, 1)]
    found = after_recording(pairs, paths, rounds)  # type: ignore[arg-type]
    for server in servers:
        server.stop()
    what = ["the home page", "the standings (/api/standings)", "the log's newest page"]
    return [
        (number, f"NTK {words} just after a recording, {size // 1000}k vs the game alone", found[path], 1.5)
        for number, path, words in zip((61, 62, 64), paths, what, strict=True)
    ]


def put_back(server: Server, folder: Path, pristine: bytes) -> None:
    """The log as it was before the rows' recordings (when they ran out), and the server's
    pages read once, untimed, as it opens the campaign again."""
    if (folder / "events.yaml").read_bytes() != pristine:
        (folder / "events.yaml").write_bytes(pristine)
    server.timed("GET", "/")
    server.timed("GET", "/log.html")


def settled(server: Server, event: dict[str, object], token: str) -> None:
    """A recording and a page read, untimed, on a server that has just opened its campaign
    again (the log put back as it was): the first recording after an open reads the
    campaign's ids from the cache (~170 ms at 100,000 events, once per open, as after a
    server's start), which is not what rows 56–64 measure (every page after each recording)."""
    server.post(event, token)
    server.timed("GET", "/")


def _first_kingdom(standings: dict[str, object]) -> str:
    rows = standings.get("kingdoms") or standings.get("players") or []
    assert isinstance(rows, list) and rows, standings
    first = rows[0]
    assert isinstance(first, dict)
    return str(first.get("id") or first.get("player"))


if __name__ == "__main__":
    raise SystemExit(main())
