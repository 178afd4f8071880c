"""Measure one server holding a club's campaigns (issue 38): its peak memory (VmHWM) once every
page of each campaign has been served once, against a target of 300 MB.

    python benchmarks/club.py            # 10 campaigns: 4 Clash of Kings and 3 Mighty Kingdoms of
                                         # 2,000 events each (a long season), 3 No True King nights
    python benchmarks/club.py --quick    # 3 small campaigns: that it still runs
    python benchmarks/club.py --check    # exit 1 when the target is missed

Row 60 in docs/performance.md. Each campaign's pages are found as a phone finds them: from its
home page, every link under its path (the site's pages, the Activity page, the API's standings),
each fetched once.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from run import MK_EXAMPLE, ROOT, campaign, cok_command  # noqa: E402

TARGET_MB = 300.0
NTK_EXAMPLE = ROOT / "campaigns" / "no-true-king-example"
#: At most this many pages fetched per campaign (a 2,000-event campaign has a few hundred).
MOST_PAGES = 2000


def club(into: Path, size: int, counts: tuple[int, int, int]) -> Path:
    """A club's folder: Clash of Kings, Mighty Kingdoms and No True King campaigns, each a copy."""
    folder = into / "club"
    cok_n, mk_n, ntk_n = counts
    sources = [("cok", campaign(size)) for _ in range(cok_n)]
    sources += [("mk", campaign(size, "mk") if size > 300 else MK_EXAMPLE) for _ in range(mk_n)]
    sources += [("ntk", NTK_EXAMPLE) for _ in range(ntk_n)]
    for n, (game, source) in enumerate(sources, 1):
        shutil.copytree(source, folder / f"{game}-{n:02d}")
    return folder


def pages(client: httpx.Client, slug: str) -> int:
    """Every page under the campaign's path reachable from its home page, each fetched once."""
    seen: set[str] = set()
    queue = [f"/{slug}/", f"/{slug}/activity", f"/{slug}/api/standings"]
    while queue and len(seen) < MOST_PAGES:
        path = queue.pop()
        if path in seen:
            continue
        seen.add(path)
        answer = client.get(path)
        if answer.status_code != 200 or "html" not in answer.headers.get("content-type", ""):
            continue
        base = path.rsplit("/", 1)[0]
        for href in re.findall(r'href="([^"#?]+)"', answer.text):
            if href.startswith(("http:", "https:", "data:", "mailto:")) or href.endswith(".css"):
                continue
            full = href if href.startswith("/") else f"{base}/{href}"
            full = os.path.normpath(full) + ("/" if full.endswith("/") else "")
            if full.startswith(f"/{slug}/") and "/join/" not in full and full not in seen:
                queue.append(full)
    return len(seen)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="3 small campaigns: that it still runs")
    parser.add_argument("--check", action="store_true", help="exit 1 when the target is missed")
    args = parser.parse_args()
    size, counts = (300, (1, 1, 1)) if args.quick else (2_000, (4, 3, 3))
    with tempfile.TemporaryDirectory() as scratch_dir:
        scratch = Path(scratch_dir)
        env = {**os.environ, "COK_CACHE_DIR": str(scratch / "cache"), "COK_DATA_DIR": str(scratch / "data")}
        folder = club(scratch, size, counts)
        import socket

        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = int(s.getsockname()[1])
        process = subprocess.Popen(
            [*cok_command(), "serve", "-C", str(folder), "--port", str(port)],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        try:
            with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=600) as client:
                deadline = time.monotonic() + 120
                while True:
                    try:
                        if client.get("/").status_code == 200:
                            break
                    except httpx.HTTPError:
                        pass
                    if process.poll() is not None or time.monotonic() > deadline:
                        raise SystemExit(f"cok serve did not start: {process.stderr.read() if process.stderr else ''}")
                    time.sleep(0.2)
                start = time.perf_counter()
                served = sum(pages(client, p.name) for p in sorted(folder.iterdir()))
                took = time.perf_counter() - start
                assert client.get("/").status_code == 200
            peak = next(
                int(line.split()[1]) / 1024
                for line in Path(f"/proc/{process.pid}/status").read_text().splitlines()
                if line.startswith("VmHWM:")
            )
        finally:
            process.terminate()
            process.wait(30)
    ok = peak < TARGET_MB
    label = f"{sum(counts)} campaigns ({counts[0]} CoK, {counts[1]} MK of {size:,} events; {counts[2]} NTK)"
    print(f"{served} pages served in {took:.1f} s")
    print("| target | campaigns | peak | limit | |")
    print("|---|---|---|---|---|")
    verdict = "—" if args.quick else "ok" if ok else "MISSED"
    print(f"| 60. a club's server, every page once | {label} | {peak:.0f} MB | < {TARGET_MB:.0f} MB | {verdict} |")
    return 1 if args.check and not args.quick and not ok else 0


if __name__ == "__main__":
    raise SystemExit(main())
