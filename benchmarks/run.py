"""Measure cok's speed and memory targets, each as a ratio of two commands run side by side.

    python benchmarks/run.py            # the full suite: 10,000- and 100,000-event campaigns
    python benchmarks/run.py --quick    # small campaigns, one round: CI runs this so it cannot rot
    python benchmarks/run.py --check    # exit 1 when a target is missed

Each pair of commands is interleaved over several rounds (A, B, A, B, …) and the medians
compared, so that the machine's moods hit both sides alike. Run it with the Python of an
installed cok (`pip install .`): `cok` is the console script beside `sys.executable`.
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
EXAMPLE = ROOT / "campaigns" / "example"
MK_EXAMPLE = ROOT / "campaigns" / "mighty-kingdoms"
DATA = HERE / "data"
HELLO = """import typer

app = typer.Typer()


@app.command()
def hello(name: str = "world") -> None:
    print(f"hello {name}")


if __name__ == "__main__":
    app()
"""
LOAD_YAML = "import sys, yaml; yaml.load(open(sys.argv[1], encoding='utf-8'), Loader=yaml.CSafeLoader)"


@dataclass
class Result:
    target: str
    a_label: str
    b_label: str
    a: float
    b: float
    limit: float | None  # None: a figure reported, with no target
    unit: str = "s"

    @property
    def ratio(self) -> float:
        return self.a / self.b if self.b else float("inf")

    @property
    def ok(self) -> bool:
        if self.limit is None:
            return True
        return self.ratio <= self.limit if self.unit == "s" else self.a <= self.limit


def cok_command() -> list[str]:
    script = Path(sys.executable).with_name("cok")
    return [str(script)] if script.exists() else [sys.executable, "-m", "cok"]


def run(argv: list[str]) -> tuple[float, int]:
    """Seconds and peak memory (KiB) of one command, which must succeed."""
    start = time.perf_counter()
    with tempfile.TemporaryFile() as errors:  # a file, not a pipe: a long error never blocks
        proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=errors)
        _, status, usage = os.wait4(proc.pid, 0)
        elapsed = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        if proc.returncode != 0:
            errors.seek(0)
            error = errors.read().decode(errors="replace")[-4000:]
            raise SystemExit(f"failed ({proc.returncode}): {' '.join(argv)}\n{error}")
    return elapsed, usage.ru_maxrss


def interleaved(a: Callable[[], list[str]], b: Callable[[], list[str]], rounds: int) -> tuple[float, float]:
    """Median seconds of A and of B, run alternately."""
    times_a, times_b = [], []
    for _ in range(rounds):
        times_a.append(run(a())[0])
        times_b.append(run(b())[0])
    return statistics.median(times_a), statistics.median(times_b)


def campaign(size: int, game: str = "") -> Path:
    """A generated campaign of `size` events, of Clash of Kings or (`game="mk"`) Mighty
    Kingdoms (made once per cok version, kept in benchmarks/data/: a new version's rules may
    refuse an older campaign)."""
    import importlib

    from cok import __version__

    folder = DATA / __version__ / (f"{game}-{size}" if game else f"{size}")
    if not (folder / "events.yaml").exists():
        sys.path.insert(0, str(HERE))
        generator = importlib.import_module(f"generate_{game}" if game else "generate")
        print(f"generating a {size}-event {game or 'cok'} campaign …", file=sys.stderr)
        generator.generate(size, folder)
    return folder


def waiting_armies(cok: list[str], folder: Path) -> list[list[str]]:
    """Orders that may be appended to a Mighty Kingdoms campaign: [army, order] for each army
    without one (defend when upright, else regroup)."""
    import json

    out = subprocess.run(
        [*cok, "mk", "armies", "--json", "-C", str(folder)], capture_output=True, text=True, check=True
    )
    armies = json.loads(out.stdout)["armies"]
    return [[a["id"], "defend" if a["upright"] else "regroup"] for a in armies if a["order"] is None]


def mighty_kingdoms(cok: list[str], scratch: Path, small: int, large: int, rounds: int) -> list[Result]:
    """The same targets for a Mighty Kingdoms campaign, against its own example."""
    results = []
    example = writable_copy(MK_EXAMPLE, scratch / "mk-ex")
    small_c = campaign(small, "mk")
    large_c = writable_copy(campaign(large, "mk"), scratch / "mk-large")
    run([*cok, "standings", "-C", str(example)])
    run([*cok, "standings", "-C", str(large_c)])
    events = str(small_c / "events.yaml")
    a, b = interleaved(
        lambda: [*cok, "check", "--no-cache", "-C", str(small_c)],
        lambda: [sys.executable, "-c", LOAD_YAML, events],
        rounds,
    )
    results.append(
        Result(f"12. MK cold replay, {small:,} events", "cok check --no-cache", "PyYAML CSafeLoader", a, b, 1.3)
    )
    small_cold = a
    a, b = interleaved(
        lambda: [*cok, "standings", "-C", str(large_c)], lambda: [*cok, "standings", "-C", str(example)], rounds
    )
    results.append(Result(f"13. MK warm standings, {large:,} events", f"{large:,} events", "example", a, b, 1.5))
    large_armies, example_armies = iter(waiting_armies(cok, large_c)), iter(waiting_armies(cok, example))
    appends = min(rounds, 5)
    a, b = interleaved(
        lambda: [*cok, "mk", "order", *next(large_armies), "-C", str(large_c)],
        lambda: [*cok, "mk", "order", *next(example_armies), "-C", str(example)],
        appends,
    )
    results.append(Result(f"14. MK append (order), {large:,} events", f"{large:,} events", "example", a, b, 2.0))
    a, b = interleaved(
        lambda: [*cok, "mk", "status", "-C", str(large_c)], lambda: [*cok, "mk", "status", "-C", str(example)], rounds
    )
    results.append(Result(f"17. MK warm status, {large:,} events", f"{large:,} events", "example", a, b, 1.5))
    for n, (label, args_) in enumerate(
        (
            ("log", ["log"]),
            ("site", ["site", str(scratch / "mk-site")]),
            ("map", ["map", "--svg", str(scratch / "mk.svg")]),
        ),
        start=18,
    ):
        a, b = interleaved(
            lambda args_=args_: [*cok, *args_, "-C", str(large_c)],
            lambda args_=args_: [*cok, *args_, "-C", str(example)],
            max(1, min(rounds, 3)),
        )
        results.append(Result(f"{n}. MK warm {label}, {large:,} events", f"{large:,} events", "example", a, b, None))
    cold = [run([*cok, "check", "--no-cache", "-C", str(large_c)]) for _ in range(max(1, min(rounds, 3)))]
    large_cold = statistics.median(t for t, _ in cold)
    results.append(
        Result(
            f"15. MK memory, check --no-cache, {large:,} events",
            "peak",
            "",
            max(m for _, m in cold) / 1024,
            1,
            400,
            "MB",
        )
    )
    results.append(
        Result(
            f"16. MK growth, cold replay {large:,} / {small:,}",
            f"{large:,}",
            f"{small:,}",
            large_cold,
            small_cold,
            11.0,
        )
    )
    return results


def writable_copy(source: Path, into: Path) -> Path:
    target = into / source.name
    shutil.copytree(source, target)
    settings = target / "campaign.yaml"
    text = settings.read_text(encoding="utf-8")
    if "../../maps/" in text:  # the example refers to the shipped map
        settings.write_text(text.replace("../../maps/", f"{ROOT / 'maps'}/"), encoding="utf-8")
    return target


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return (
        f"{cpu}, {os.cpu_count()} cores, Python {platform.python_version()}, {platform.system()} {platform.release()}"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="small campaigns, one round (for CI)")
    parser.add_argument("--check", action="store_true", help="exit 1 when a target is missed")
    parser.add_argument("--rounds", type=int, default=None, help="rounds per pair (default 7; quick: 1)")
    args = parser.parse_args()
    small, large = (300, 1_000) if args.quick else (10_000, 100_000)
    rounds = args.rounds or (1 if args.quick else 7)
    cok = cok_command()

    with tempfile.TemporaryDirectory() as scratch_dir:
        scratch = Path(scratch_dir)
        os.environ["COK_CACHE_DIR"] = str(scratch / "cache")
        hello = scratch / "hello.py"
        hello.write_text(HELLO)
        example = writable_copy(EXAMPLE, scratch / "ex")
        small_c = campaign(small)
        large_c = writable_copy(campaign(large), scratch / "large")
        results = []

        run([*cok, "standings", "-C", str(example)])  # warm the caches
        run([*cok, "standings", "-C", str(large_c)])

        a, b = interleaved(
            lambda: [*cok, "standings", "-C", str(example)], lambda: [sys.executable, str(hello)], rounds
        )
        results.append(Result("1. startup", "cok standings (example)", "Typer hello app", a, b, 1.25))

        events = str(small_c / "events.yaml")
        a, b = interleaved(
            lambda: [*cok, "check", "--no-cache", "-C", str(small_c)],
            lambda: [sys.executable, "-c", LOAD_YAML, events],
            rounds,
        )
        results.append(
            Result(f"2. cold replay, {small:,} events", "cok check --no-cache", "PyYAML CSafeLoader", a, b, 1.3)
        )
        small_cold = a

        a, b = interleaved(
            lambda: [*cok, "standings", "-C", str(large_c)], lambda: [*cok, "standings", "-C", str(example)], rounds
        )
        results.append(Result(f"3. warm standings, {large:,} events", f"{large:,} events", "example", a, b, 1.5))

        counter = iter(range(10**9))
        a, b = interleaved(
            lambda: [*cok, "adjust", "player00", "1", "--reason", f"bench {next(counter)}", "-C", str(large_c)],
            lambda: [*cok, "adjust", "tim", "1", "--reason", f"bench {next(counter)}", "-C", str(example)],
            rounds,
        )
        results.append(Result(f"4. append, {large:,} events", f"{large:,} events", "example", a, b, 2.0))

        a, b = interleaved(
            lambda: [*cok, "where", "player01", "player02", "-C", str(large_c)],
            lambda: [*cok, "where", "tim", "matt", "-C", str(example)],
            rounds,
        )
        results.append(Result(f"7. warm where, {large:,} events", f"{large:,} events", "example", a, b, 1.5))
        for n, (label, args_) in enumerate(
            (
                ("log", ["log"]),
                ("site", ["site", str(scratch / "site")]),
                ("map", ["map", "--svg", str(scratch / "m.svg")]),
            ),
            start=8,
        ):
            a, b = interleaved(
                lambda args_=args_: [*cok, *args_, "-C", str(large_c)],
                lambda args_=args_: [*cok, *args_, "-C", str(example)],
                max(1, min(rounds, 3)),
            )
            results.append(Result(f"{n}. warm {label}, {large:,} events", f"{large:,} events", "example", a, b, None))

        cold = [run([*cok, "check", "--no-cache", "-C", str(large_c)]) for _ in range(max(1, min(rounds, 3)))]
        large_cold = statistics.median(t for t, _ in cold)
        peak_mb = max(m for _, m in cold) / 1024
        results.append(Result(f"5. memory, check --no-cache, {large:,} events", "peak", "", peak_mb, 1, 400, "MB"))
        results.append(
            Result(
                f"6. growth, cold replay {large:,} / {small:,}",
                f"{large:,}",
                f"{small:,}",
                large_cold,
                small_cold,
                11.0 if not args.quick else large / small * 1.1,
            )
        )

        results += mighty_kingdoms(cok, scratch, small, large, rounds)
        if args.quick:
            for r in results:
                if r.target.startswith("16."):
                    r.limit = large / small * 1.1

    print(f"machine: {machine()}")
    print(
        f"rounds: {rounds}, medians" + (" (quick mode: campaigns too small to judge the targets)" if args.quick else "")
    )
    print()
    print("| target | A | B | median A | median B | ratio | limit | |")
    print("|---|---|---|---|---|---|---|---|")
    for r in sorted(results, key=lambda r: int(r.target.split(".")[0])):
        verdict = "—" if args.quick or r.limit is None else "ok" if r.ok else "MISSED"
        if r.unit == "MB":
            print(f"| {r.target} | {r.a_label} | | {r.a:.0f} MB | | | < {r.limit:.0f} MB | {verdict} |")
        else:
            print(
                f"| {r.target} | {r.a_label} | {r.b_label} | {r.a:.3f} s | {r.b:.3f} s | {r.ratio:.2f} "
                f"| {'(reported)' if r.limit is None else f'≤ {r.limit:g}'} | {verdict} |"
            )
    return 1 if args.check and not args.quick and not all(r.ok for r in results) else 0


if __name__ == "__main__":
    raise SystemExit(main())
