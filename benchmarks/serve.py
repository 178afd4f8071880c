"""Measure `cok serve`'s targets (issue #24) against real servers, as ratios in one run:

    python benchmarks/serve.py            # a 100,000-event campaign against the shipped example
    python benchmarks/serve.py --quick    # a 2,000-event one, few rounds: that it still runs
    python benchmarks/serve.py --check    # exit 1 when a target is missed

Rows (numbered after benchmarks/run.py's): 41 a page read (the home page), 42 an API read
(/api/standings), 43 a recording (POST /api/events): each the median over interleaved rounds
on two servers, the large campaign's over the example's; 44 twenty recordings sent at once to
the large campaign: how many landed exactly once; 45 the large campaign's server's peak
memory (VmHWM, the server starts nothing else) after all of the above.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from run import EXAMPLE, campaign, cok_command, writable_copy  # noqa: E402


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


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--check", action="store_true")
    parser.add_argument("--rounds", type=int)
    args = parser.parse_args()
    size = 2_000 if args.quick else 100_000
    rounds = args.rounds or (5 if args.quick else 40)
    source = campaign(size)
    with tempfile.TemporaryDirectory() as scratch_name:
        scratch = Path(scratch_name)
        env = {**os.environ, "COK_DATA_DIR": str(scratch / "data"), "COK_CACHE_DIR": str(scratch / "cache")}
        os.environ.update({k: env[k] for k in ("COK_DATA_DIR", "COK_CACHE_DIR")})
        small = writable_copy(EXAMPLE, scratch / "small")
        large = writable_copy(source, scratch / "large")
        from cok.serve import invites

        players = ["tim"]  # the example's
        servers = {folder: Server(folder, env) for folder in (small, large)}
        s, big = servers[small], servers[large]
        token = {s: invites.invite(small, "bench", organiser=True), big: invites.invite(large, "bench", organiser=True)}
        large_player = big.client.get("/api/standings").json()["players"][0]["id"]
        for server in (s, big):  # warm: the first read after a start makes the pages
            server.timed("GET", "/")
            server.timed("GET", "/api/standings")
        rows = []
        page = interleaved(big, s, rounds, "GET", "/")
        rows.append((41, f"page read (home) at {size // 1000}k vs the example", page, 1.2))
        api = interleaved(big, s, rounds, "GET", "/api/standings")
        rows.append((42, f"API read (/api/standings) at {size // 1000}k vs the example", api, 1.2))
        times: dict[Server, list[float]] = {s: [], big: []}
        for n in range(max(3, rounds // 3)):
            for server, pid in ((big, large_player), (s, players[0])):
                event = {"type": "adjust", "player": pid, "cp": 1, "reason": f"bench {n}"}
                times[server].append(
                    server.timed(
                        "POST", "/api/events", json=event, headers={"authorization": f"Bearer {token[server]}"}
                    )
                )
        recording = (statistics.median(times[big]), statistics.median(times[s]))
        fresh: dict[Server, list[float]] = {s: [], big: []}
        for n in range(3):  # the first read after a write makes the page again
            for server, pid in ((big, large_player), (s, players[0])):
                event = {"type": "adjust", "player": pid, "cp": 1, "reason": f"fresh {n}"}
                server.timed("POST", "/api/events", json=event, headers={"authorization": f"Bearer {token[server]}"})
                fresh[server].append(server.timed("GET", "/"))
        after_write = (statistics.median(fresh[big]), statistics.median(fresh[s]))
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
        peak = big.peak_mb()
        for server in servers.values():
            server.stop()
    ok = True
    print(f"cok serve, {size:,} events vs the shipped example ({rounds} rounds; medians)")
    for number, label, (a, b), limit in rows:
        ratio = a / b
        good = ratio <= limit
        ok &= good
        said = "ok" if good else "MISSED"
        print(f"{number:>3}  {label:<54} {a * 1000:8.2f} / {b * 1000:7.2f} ms = {ratio:5.2f}x (≤ {limit}x) {said}")
    a, b = after_write
    label = "the home page just after a recording (no target)"
    print(f" 46  {label:<54} {a * 1000:8.2f} / {b * 1000:7.2f} ms = {a / b:5.2f}x")
    all_landed = landed == 20 and codes.count(201) == 20
    ok &= all_landed
    said = "ok" if all_landed else "MISSED"
    print(
        f" 44  20 recordings at once at {size // 1000}k: {codes.count(201)} answered 201, {landed} landed once {said}"
    )
    ok &= peak < 300
    said = "ok" if peak < 300 else "MISSED"
    print(f" 45  the server's peak memory at {size // 1000}k: {peak:.0f} MB (target < 300 MB) {said}")
    return 0 if ok or not args.check else 1


if __name__ == "__main__":
    raise SystemExit(main())
