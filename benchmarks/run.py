"""Measure cok's speed and memory targets (issue #15), for Clash of Kings and Mighty Kingdoms.

    python benchmarks/run.py                # the full suite: 10,000- and 100,000-event campaigns
    python benchmarks/run.py --quick        # small campaigns, one round: CI runs this so it cannot rot
    python benchmarks/run.py --check        # exit 1 when a target is missed
    python benchmarks/run.py --only where   # only the rows whose label holds "where" (any case)

Every figure is a ratio of two commands run side by side: the pair is interleaved over several
rounds (A, B, A, B, …) and the medians compared, so that the machine's moods hit both sides
alike. A memory figure is the largest peak (the child's max RSS) over the command's runs.

Each game runs the same rows against its own shipped example and its own generated campaigns
(GAMES below): Clash of Kings' rows are numbered 1–17, Mighty Kingdoms' are the same figures
numbered 20 higher (21–37). The numbers are stable: docs cite them. No True King's games are
small; its targets are measured by benchmarks/no_true_king.py.

Run it with the Python of an installed cok (`pip install .`): `cok` is the console script
beside `sys.executable`.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cached_property
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
SLOW_ROUNDS = 3  # rows that replay, parse or write a 100,000-event log, unless --rounds is given


@dataclass
class Result:
    number: int
    target: str
    a_label: str
    b_label: str
    a: float
    b: float
    limit: float | None  # None: a figure reported, with no target
    unit: str = "s"  # "s": a ratio of medians; "MB": a peak, judged alone; "files": a count of b

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
    """Seconds and peak memory (KiB) of one command, which must succeed. Its output goes to a
    pipe, read to the end (as `cok log | …` would be), so that a command's output is paid for."""
    buffer = memoryview(bytearray(1 << 16))
    start = time.perf_counter()
    with tempfile.TemporaryFile() as errors:  # a file, not a pipe: a long error never blocks
        proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=errors)
        assert proc.stdout is not None
        with proc.stdout:
            while proc.stdout.readinto(buffer):
                pass
        _, status, usage = os.wait4(proc.pid, 0)
        elapsed = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        if proc.returncode != 0:
            errors.seek(0)
            error = errors.read().decode(errors="replace")[-4000:]
            raise SystemExit(f"failed ({proc.returncode}): {' '.join(argv)}\n{error}")
    return elapsed, usage.ru_maxrss


def interleaved(a: Callable[[], float], b: Callable[[], float], rounds: int) -> tuple[float, float]:
    """Median seconds of A and of B, run alternately (each callable runs one command)."""
    times_a, times_b = [], []
    for _ in range(rounds):
        times_a.append(a())
        times_b.append(b())
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


def writable_copy(source: Path, into: Path) -> Path:
    target = into / source.name
    shutil.copytree(source, target)  # every shipped example holds its own map
    return target


def adjusts(cok: list[str], folder: Path, players: tuple[str, ...]) -> Iterator[list[str]]:
    """Clash of Kings appends: `adjust` of the first player, a counter in the reason."""
    for n in itertools.count():
        yield ["adjust", players[0], "1", "--reason", f"bench {n}"]


def waiting_armies(cok: list[str], folder: Path) -> list[list[str]]:
    """Orders that may be appended to a Mighty Kingdoms campaign: [army, order] for each army
    without one (defend when upright, else regroup)."""
    out = subprocess.run(
        [*cok, "mk", "armies", "--json", "-C", str(folder)], capture_output=True, text=True, check=True
    )
    armies = json.loads(out.stdout)["armies"]
    return [[a["id"], "defend" if a["upright"] else "regroup"] for a in armies if a["order"] is None]


def orders(cok: list[str], folder: Path, players: tuple[str, ...]) -> Iterator[list[str]]:
    """Mighty Kingdoms appends: `mk order` for each army still waiting for one. When every
    army has its order, the log is put back as it was (and the cache warmed again, untimed) so
    that the armies wait again: a campaign has only a handful of armies to order."""
    log = folder / "events.yaml"
    pristine = log.read_bytes()
    while True:
        waiting = waiting_armies(cok, folder)
        if not waiting:
            log.write_bytes(pristine)
            run([*cok, "standings", "-C", str(folder)])
            waiting = waiting_armies(cok, folder)
            if not waiting:
                raise SystemExit(f"no army waits for an order in {folder}: nothing to append")
        for army in waiting:
            yield ["mk", "order", *army]


@dataclass(frozen=True)
class Game:
    """What differs between the games' rows: the rest is one loop over GAMES."""

    name: str
    tag: str  # before each row's label
    offset: int  # added to each row's number
    example: Path
    generated: str  # campaign(size, generated)
    players: dict[str, tuple[str, ...]]  # "example" / "generated": the players the commands name
    where: tuple[str, ...]  # who chooses the battle's location ({0}, {1}: the players)
    locations: tuple[str, ...]
    append: Callable[[list[str], Path, tuple[str, ...]], Iterator[list[str]]]  # the argument lists
    append_name: str


GAMES = (
    Game(
        name="Clash of Kings",
        tag="",
        offset=0,
        example=EXAMPLE,
        generated="",
        players={"example": ("tim", "matt"), "generated": ("player01", "player02")},
        where=("where", "{0}", "{1}"),
        locations=("locations",),
        append=adjusts,
        append_name="adjust",
    ),
    Game(
        name="Mighty Kingdoms",
        tag="MK ",
        offset=20,
        example=MK_EXAMPLE,
        generated="mk",
        players={"example": (), "generated": ()},
        where=("mk", "battles"),
        locations=("mk", "kingdoms"),
        append=orders,
        append_name="mk order",
    ),
)


def files_of(folder: Path) -> dict[str, tuple[int, int]]:
    """Each file below `folder`: (mtime_ns, inode), to tell which files a build rewrote."""
    found = {}
    for path in folder.rglob("*"):
        if path.is_file():
            info = path.stat()
            found[str(path.relative_to(folder))] = (info.st_mtime_ns, info.st_ino)
    return found


Pair = tuple[str, str, float, float]  # A's label, B's label, A's figure, B's figure


@dataclass
class Row:
    number: int  # stable: the docs cite rows by number
    label: str
    limit: float | None
    measure: Callable[[], Pair]
    unit: str = "s"


class Bench:
    """One game's rows, and the campaigns and commands they measure, made when a row first
    needs them (so that `--only` pays for what it runs)."""

    def __init__(self, game: Game, cok: list[str], scratch: Path, sizes: tuple[int, int], rounds: int | None):
        self.game, self.cok = game, cok
        self.small_size, self.large_size = sizes
        self.scratch = scratch / (game.generated or "cok")
        self.scratch.mkdir()
        self.hello = scratch / "hello.py"
        self.fast_rounds = rounds or 7
        self.slow_rounds = rounds or SLOW_ROUNDS
        self.peaks: dict[str, list[int]] = {}  # a command's key: the peak (KiB) of each of its runs
        self.fresh = itertools.count()

    def rows(self, quick: bool) -> list[Row]:
        """The rows in the order they run: the memory rows last, as they take their peaks
        from the runs of the rows before them (a row of its own runs only when there were none)."""
        g, small, large = self.game, f"{self.small_size:,}", f"{self.large_size:,}"
        at = f"{large} events"
        where = "cok " + " ".join(g.where).format("P1", "P2")
        locations = "cok " + " ".join(g.locations)
        growth = self.large_size / self.small_size * 1.1 if quick else 11.0
        rows = [
            Row(1, "startup", 1.0, self.startup),
            Row(2, f"cold check --no-cache, {small} events / parse", 0.67, self.cold_check),
            Row(6, f"growth, cold check --no-cache {large} / {small} events", growth, self.growth),
            Row(3, f"warm standings, {at} / example", 1.5, self.versus_example(["standings"], "standings")),
            Row(4, f"append (cok {g.append_name}), {at} / example", 1.25, self.append),
            Row(7, f"where ({where}), {at} / example", 1.5, self.versus_example(g.where, "where")),
            Row(10, f"map --svg, {at} / example", 1.5, self.map_svg),
            Row(11, f"locations ({locations}), {at} / example", 1.5, self.versus_example(g.locations)),
            Row(8, f"log (to a pipe), {at} / parse of its log", 0.25, self.versus_parse(self.log)),
            Row(9, f"site (full build), {at} / parse of its log", 0.5, self.versus_parse(self.full_site)),
            Row(16, f"site rebuild after one new event / full build, {at}", None, self.rebuild_time),
            Row(17, f"site rebuild after one new event: files rewritten, {at}", None, self.rebuild_files, "files"),
            Row(5, f"memory, check --no-cache, {at}", 150, self.peak("check", self.cold_large), "MB"),
            Row(12, f"memory, where, {at}", 150, self.peak("where", self.where_large), "MB"),
            Row(13, f"memory, log, {at}", 150, self.peak("log", self.log), "MB"),
            Row(14, f"memory, site, {at}", 150, self.peak("site", self.full_site), "MB"),
            Row(15, f"memory, standings, {at}", 39, self.peak("standings", self.standings_large), "MB"),
        ]
        for row in rows:
            row.number += g.offset
            row.label = f"{row.number}. {g.tag}{row.label}"
        return rows

    # the campaigns
    @cached_property
    def example(self) -> Path:
        folder = writable_copy(self.game.example, self.scratch / "example")
        run([*self.cok, "standings", "-C", str(folder)])  # warm the cache
        return folder

    @cached_property
    def small(self) -> Path:  # only ever read with --no-cache
        return campaign(self.small_size, self.game.generated)

    @cached_property
    def large_copy(self) -> Path:  # for the rows that bypass the cache
        return writable_copy(campaign(self.large_size, self.game.generated), self.scratch / "large")

    @cached_property
    def large(self) -> Path:
        run([*self.cok, "standings", "-C", str(self.large_copy)])  # warm the cache: a full replay
        return self.large_copy

    def players(self, folder: Path) -> tuple[str, ...]:
        return self.game.players["example" if folder == self.example else "generated"]

    @cached_property
    def appends(self) -> dict[Path, Iterator[list[str]]]:
        return {
            folder: self.game.append(self.cok, folder, self.players(folder)) for folder in (self.large, self.example)
        }

    # one run of a command
    def command(self, argv: list[str], key: str | None = None) -> float:
        """Seconds of one run; its peak is kept under `key`."""
        seconds, kib = run(argv)
        if key:
            self.peaks.setdefault(key, []).append(kib)
        return seconds

    def cok_in(self, folder: Path, args: list[str] | tuple[str, ...], key: str | None = None) -> float:
        return self.command([*self.cok, *args, "-C", str(folder)], key)

    def parse(self, folder: Path) -> float:
        return self.command([sys.executable, "-c", LOAD_YAML, str(folder / "events.yaml")])

    def cold_large(self) -> float:
        return self.cok_in(self.large_copy, ["check", "--no-cache"], "check")

    def where_large(self) -> float:
        return self.cok_in(self.large, [a.format(*self.players(self.large)) for a in self.game.where], "where")

    def standings_large(self) -> float:
        return self.cok_in(self.large, ["standings"], "standings")

    def log(self) -> float:
        return self.cok_in(self.large, ["log"], "log")

    def full_site(self) -> float:
        """A full build of the large campaign's site into a fresh, empty folder."""
        out = self.scratch / f"site-{next(self.fresh)}"
        seconds = self.cok_in(self.large, ["site", str(out)], "site")
        shutil.rmtree(out)
        return seconds

    def append_to(self, folder: Path) -> float:
        return self.cok_in(folder, next(self.appends[folder]))

    # the rows
    def startup(self) -> Pair:
        self.hello.write_text(HELLO)
        a, b = interleaved(
            lambda: self.cok_in(self.example, ["standings"]),
            lambda: self.command([sys.executable, str(self.hello)]),
            self.fast_rounds,
        )
        return "cok standings (example)", "Typer hello app", a, b

    def cold_check(self) -> Pair:
        a, b = interleaved(
            lambda: self.cok_in(self.small, ["check", "--no-cache"]), lambda: self.parse(self.small), self.fast_rounds
        )
        return "cok check --no-cache", "PyYAML CSafeLoader", a, b

    def growth(self) -> Pair:
        a, b = interleaved(self.cold_large, lambda: self.cok_in(self.small, ["check", "--no-cache"]), self.slow_rounds)
        return f"{self.large_size:,} events", f"{self.small_size:,} events", a, b

    def versus_example(self, args: tuple[str, ...] | list[str], key: str | None = None) -> Callable[[], Pair]:
        """The command on the large campaign / the same on the example."""

        def measure() -> Pair:
            a, b = interleaved(
                lambda: self.cok_in(self.large, [x.format(*self.players(self.large)) for x in args], key),
                lambda: self.cok_in(self.example, [x.format(*self.players(self.example)) for x in args]),
                self.fast_rounds,
            )
            return f"{self.large_size:,} events", "example", a, b

        return measure

    def append(self) -> Pair:
        a, b = interleaved(lambda: self.append_to(self.large), lambda: self.append_to(self.example), self.fast_rounds)
        return f"{self.large_size:,} events", "example", a, b

    def map_svg(self) -> Pair:
        a, b = interleaved(
            lambda: self.cok_in(self.large, ["map", "--svg", str(self.scratch / "large.svg")]),
            lambda: self.cok_in(self.example, ["map", "--svg", str(self.scratch / "example.svg")]),
            self.fast_rounds,
        )
        return f"{self.large_size:,} events", "example", a, b

    def versus_parse(self, once: Callable[[], float]) -> Callable[[], Pair]:
        """The command on the large campaign / PyYAML's parse of the same log."""

        def measure() -> Pair:
            a, b = interleaved(once, lambda: self.parse(self.large), self.slow_rounds)
            return f"{self.large_size:,} events", "PyYAML CSafeLoader", a, b

        return measure

    @cached_property
    def rebuild(self) -> tuple[float, float, list[tuple[int, int]]]:
        """Medians of a site rebuilt after one new event (into the site built before it) and
        of a full build into an empty folder, both at the large size; and for each rebuild,
        (files rewritten or added, files in the site), told by their mtime_ns and inode."""
        out = self.scratch / "rebuilt-site"
        self.cok_in(self.large, ["site", str(out)])  # the site as it stood before the new event
        rewritten: list[tuple[int, int]] = []

        def rebuilt() -> float:
            self.append_to(self.large)
            before = files_of(out)
            seconds = self.cok_in(self.large, ["site", str(out)])
            after = files_of(out)
            rewritten.append((sum(before.get(name) != mark for name, mark in after.items()), len(after)))
            return seconds

        a, b = interleaved(rebuilt, self.full_site, self.slow_rounds)
        return a, b, rewritten

    def rebuild_time(self) -> Pair:
        a, b, _ = self.rebuild
        return "rebuild", "full build", a, b

    def rebuild_files(self) -> Pair:
        _, _, rewritten = self.rebuild
        count, total = (statistics.median_low(column) for column in zip(*rewritten, strict=True))
        return "files rewritten (median of the rounds)", "files in the site", count, total

    @cached_property
    def small_warm(self) -> Path:
        folder = writable_copy(campaign(self.small_size, self.game.generated), self.scratch / "small")
        run([*self.cok, "standings", "-C", str(folder)])  # warm the cache
        return folder

    def flat(self) -> list[tuple[str, float, float]]:
        """Memory stays flat as the log grows: for each command of the memory rows run, its
        peak (MB) at the small size (one run, cached but for check) and at the large."""
        small = self.small_warm
        players = self.game.players["generated"]
        commands = {
            "check": (["check", "--no-cache"], small),
            "where": ([a.format(*players) for a in self.game.where], small),
            "log": (["log"], small),
            "site": (["site", str(self.scratch / f"site-{next(self.fresh)}")], small),
            "standings": (["standings"], small),
        }
        found = []
        for key, (args, folder) in commands.items():
            if key in self.peaks:
                _, kib = run([*self.cok, *args, "-C", str(folder)])
                found.append((f"{self.game.tag}{key}", kib / 1024, max(self.peaks[key]) / 1024))
        return found

    def peak(self, key: str, once: Callable[[], float]) -> Callable[[], Pair]:
        """The largest peak (MB) of the command's runs so far; else of a few runs of its own."""

        def measure() -> Pair:
            if key not in self.peaks:
                for _ in range(self.slow_rounds):
                    once()
            return "peak", "", max(self.peaks[key]) / 1024, 1

        return measure


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


def line(r: Result, judged: bool) -> str:
    verdict = "—" if not judged or r.limit is None else "ok" if r.ok else "MISSED"
    if r.unit == "MB":
        return f"| {r.target} | {r.a_label} | | {r.a:.0f} MB | | | ≤ {r.limit:.0f} MB | {verdict} |"
    if r.unit == "files":
        return f"| {r.target} | {r.a_label} | {r.b_label} | {r.a:.0f} | {r.b:.0f} | | (reported) | {verdict} |"
    limit = "(reported)" if r.limit is None else f"≤ {r.limit:.3g}"
    return (
        f"| {r.target} | {r.a_label} | {r.b_label} | {r.a:.3f} s | {r.b:.3f} s | {r.ratio:.2f} | {limit} | {verdict} |"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="small campaigns, one round (for CI): nothing judged")
    parser.add_argument("--check", action="store_true", help="exit 1 when a target is missed")
    parser.add_argument(
        "--rounds",
        type=int,
        default=None,
        help=f"rounds per pair (default 7, and {SLOW_ROUNDS} for the rows of 100,000-event replays, parses, "
        "logs and sites; quick: 1)",
    )
    parser.add_argument("--only", metavar="PATTERN", help="run only the rows whose label contains PATTERN (any case)")
    args = parser.parse_args()
    sizes = (300, 1_000) if args.quick else (10_000, 100_000)
    rounds = 1 if args.quick and args.rounds is None else args.rounds
    cok = cok_command()

    results = []
    peaks: list[tuple[str, float, float]] = []  # (command, MB at the small size, MB at the large)
    load_before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as scratch_dir:
        scratch = Path(scratch_dir)
        os.environ["COK_CACHE_DIR"] = str(scratch / "cache")
        for game in GAMES:
            bench = Bench(game, cok, scratch, sizes, rounds)
            for row in bench.rows(args.quick):
                if args.only and args.only.lower() not in row.label.lower():
                    continue
                print(f"{row.label} …", file=sys.stderr, flush=True)
                a_label, b_label, a, b = row.measure()
                results.append(Result(row.number, row.label, a_label, b_label, a, b, row.limit, row.unit))
            peaks += bench.flat()

    if not results:
        raise SystemExit(f"no row's label contains {args.only!r}")
    print(f"machine: {machine()}")
    print(f"load average (1 min): {load_before:.2f} at the start, {os.getloadavg()[0]:.2f} at the end")
    if rounds:
        quick = " (quick mode: campaigns too small to judge the targets)" if args.quick else ""
        print(f"rounds: {rounds}, medians{quick}")
    else:
        print(f"rounds: 7 ({SLOW_ROUNDS} for the rows of 100,000-event replays, parses, logs and sites), medians")
    print("No True King's targets (every command within 1.2× of Clash of Kings): python benchmarks/no_true_king.py")
    print("A club's server, 10 campaigns (row 60, peak memory < 300 MB): python benchmarks/club.py")
    print()
    print("| target | A | B | median A | median B | ratio | limit | |")
    print("|---|---|---|---|---|---|---|---|")
    for r in sorted(results, key=lambda r: r.number):
        print(line(r, judged=not args.quick))
    if peaks:
        small, large = (f"{size:,} events" for size in sizes)
        print()
        print(f"| peak memory | {small} | {large} |")
        print("|---|---|---|")
        for command, at_small, at_large in peaks:
            print(f"| {command} | {at_small:.0f} MB | {at_large:.0f} MB |")
    if args.quick and not args.only:  # `cok serve`'s rows too, on small campaigns (so that they cannot rot)
        subprocess.run([sys.executable, str(HERE / "serve.py"), "--quick"], check=True)
    # row 52, chat destinations: its own process, as serve.py's rows are
    subprocess.run([sys.executable, str(HERE / "notify.py"), *(["--quick"] if args.quick else [])], check=True)
    # rows 65 and 66, deadlines: the server's alarm, in-process
    subprocess.run([sys.executable, str(HERE / "deadlines.py"), *(["--quick"] if args.quick else [])], check=True)
    return 1 if args.check and not args.quick and not all(r.ok for r in results) else 0


if __name__ == "__main__":
    raise SystemExit(main())
