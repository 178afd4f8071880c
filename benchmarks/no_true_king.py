"""No True King's speed target (issue #12): every command on the No True King example within
1.2x of the same kind of command on the Clash of Kings example.

    python benchmarks/no_true_king.py            # print the figures
    python benchmarks/no_true_king.py --check    # exit 1 when a ratio is over 1.2

Each pair runs interleaved (A, B, A, B, …) and compares the median CPU time of the child
processes, so that the machine's moods hit both sides alike. Each side has its own cache
folder, warmed first. Run it with the Python of an installed cok.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
COK = str(Path(sys.executable).with_name("cok"))
COK_EXAMPLE = ROOT / "campaigns" / "example"
NTK_EXAMPLE = ROOT / "campaigns" / "no-true-king-example"
TARGET = 1.2

PAIRS: list[tuple[str, list[str], list[str]]] = [
    ("standings", ["standings"], ["standings"]),
    ("standings --json", ["standings", "--json"], ["standings", "--json"]),
    ("log", ["log"], ["log"]),
    ("log --json", ["log", "--json"], ["log", "--json"]),
    ("check", ["check"], ["check"]),
    ("check --no-cache", ["check", "--no-cache"], ["check", "--no-cache"]),
    ("map --svg", ["map", "--svg", "{tmp}/a.svg", "--force"], ["map", "--svg", "{tmp}/b.svg", "--force"]),
    ("site", ["site", "{tmp}/site-a"], ["site", "{tmp}/site-b"]),
    (
        "a recording refused (--dry-run)",
        ["battle", "tim", "matt", "--at", "Starfall", "--winner", "tim", "--dry-run"],
        ["ntk", "pass", "ana", "--dry-run"],
    ),
    # Each game's own command saying where it stands, both read by Typer: `cok standings` now
    # runs without Typer (cli/shortcut.py) for every game, No True King's included (row 1).
    ("where the game stands", ["where", "tim", "matt", "--json"], ["ntk", "status", "--json"]),
    (
        "void --dry-run (a replay)",
        ["void", "{cok_last}", "--reason", "x", "--dry-run"],
        ["void", "{ntk_last}", "--reason", "x", "--dry-run"],
    ),
]


def last_id(campaign: Path) -> str:
    """The id of the log's last event."""
    lines = [line for line in (campaign / "events.yaml").read_text().splitlines() if line.strip().startswith("id: ")]
    return lines[-1].split("id: ", 1)[1].strip()


def cpu(args: list[str], campaign: Path, env: dict[str, str]) -> float:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([COK, *args, "-C", str(campaign)], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--check", action="store_true", help="exit 1 when a ratio is over the target")
    parser.add_argument("--rounds", type=int, default=7)
    options = parser.parse_args()
    missed = []
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, COK_CACHE_DIR=f"{tmp}/cache", NO_COLOR="1", COK_DATA_DIR=f"{tmp}/data")
        print(f"{'command':26s} {'Clash of Kings':>15s} {'No True King':>13s}  ratio")
        for name, coK, ntk in PAIRS:
            names = {"tmp": tmp, "cok_last": last_id(COK_EXAMPLE), "ntk_last": last_id(NTK_EXAMPLE)}
            a = [w.format(**names) for w in coK]
            b = [w.format(**names) for w in ntk]
            cpu(a, COK_EXAMPLE, env), cpu(b, NTK_EXAMPLE, env)  # warm the caches
            xs, ys = [], []
            for _ in range(options.rounds):
                xs.append(cpu(a, COK_EXAMPLE, env))
                ys.append(cpu(b, NTK_EXAMPLE, env))
            x, y = statistics.median(xs), statistics.median(ys)
            ratio = y / x if x else float("inf")
            print(f"{name:26s} {x * 1000:12.0f} ms {y * 1000:10.0f} ms  {ratio:5.2f}")
            if ratio > TARGET:
                missed.append(name)
    if missed:
        print(f"over {TARGET}x: {', '.join(missed)}")
    return 1 if options.check and missed else 0


if __name__ == "__main__":
    sys.exit(main())
