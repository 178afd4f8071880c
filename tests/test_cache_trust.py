"""The replay cache may make cok faster, never different: what a warm cache must not get wrong.

Every test drives the real command line in a separate process (`python -m cok … -C FOLDER`)
with its own COK_CACHE_DIR, and compares cached answers with `--no-cache` ones. Nothing here
imports cok: only the command line is taken as stable.
"""

from __future__ import annotations

import os
import pickle
import random
import re
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "campaigns" / "example"

#: A `week` event as `cok` would append it (same field order and indentation as the log).
NEW_WEEK = b"- type: week\n  limit: 99\n  id: 0badc0ffee00\n  at: '2026-10-08T10:30:00Z'\n  by: organiser\n"


def cok(folder: Path, *args: str, cache: Path, cached: bool = True) -> subprocess.CompletedProcess[str]:
    """`cok ARGS -C FOLDER` as a real process, with the replay cache in `cache`."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("COK_")}
    env["COK_CACHE_DIR"] = str(cache)
    command = [sys.executable, "-m", "cok", *args, "-C", str(folder), *([] if cached else ["--no-cache"])]
    return subprocess.run(command, env=env, cwd=folder.parent, capture_output=True, text=True, timeout=60, check=False)


def ok(run: subprocess.CompletedProcess[str]) -> str:
    """The stdout of a run that must succeed quietly (no traceback, no internal error)."""
    assert (run.returncode, run.stderr) == (0, ""), run
    return run.stdout


def outcome(run: subprocess.CompletedProcess[str]) -> tuple[int, str]:
    return run.returncode, run.stdout


def map_of(folder: Path) -> Path:
    """The map file a campaign folder names in its campaign.yaml."""
    return (folder / yaml.safe_load((folder / "campaign.yaml").read_text())["map"]).resolve()


def edit_in_place(path: Path, old: bytes, new: bytes) -> None:
    """Replace `old` by `new` (same length) inside the file, keeping its inode and mtime."""
    assert len(old) == len(new) and path.read_bytes().count(old) == 1
    before = path.stat()
    data = path.read_bytes().replace(old, new)
    with open(path, "r+b") as handle:
        handle.write(data)
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    after = path.stat()
    assert (after.st_size, after.st_mtime_ns, after.st_ino) == (before.st_size, before.st_mtime_ns, before.st_ino)


@pytest.fixture
def example(tmp_path: Path) -> Path:
    """A copy of the shipped example campaign (its map is its own)."""
    folder = tmp_path / EXAMPLE.relative_to(ROOT)
    shutil.copytree(EXAMPLE, folder)
    return folder


@pytest.fixture
def cache(tmp_path: Path) -> Path:
    return tmp_path / "cache"


def test_a_torn_append_with_its_journal_is_cut_off_before_a_cached_read(example: Path, cache: Path) -> None:
    log = example / "events.yaml"
    week = ok(cok(example, "week", "--json", cache=cache))
    ok(cok(example, "standings", cache=cache))
    old = log.read_bytes()
    # what `cok week --next --limit 99` killed in the middle of its append leaves behind
    (example / ".events.yaml.pending").write_bytes(b"cok-pending %d %d\n" % (len(old), len(NEW_WEEK)) + NEW_WEEK)
    with open(log, "ab") as handle:
        handle.write(NEW_WEEK[: len(NEW_WEEK) // 2])

    assert ok(cok(example, "week", "--json", cache=cache)) == week, "the cache served the torn event"
    assert cok(example, "check", cache=cache).returncode == 0
    assert log.read_bytes() == old, "the torn tail was not cut off"
    assert not (example / ".events.yaml.pending").exists()


@pytest.mark.parametrize(
    "tail",
    [b"- type: battle\n  players: [matt, ti", b"- type: battle\n  players: [matt, tim]\n"],
    ids=["invalid-yaml", "half-an-event"],
)
def test_a_torn_tail_without_journal_is_reported_never_served_from_the_cache(
    example: Path, cache: Path, tail: bytes
) -> None:
    ok(cok(example, "standings", cache=cache))
    with open(example / "events.yaml", "ab") as handle:
        handle.write(tail)

    check = cok(example, "check", cache=cache)
    assert check.returncode == 1 and re.search(r"events\.yaml:\d+: ", check.stderr), check
    standings = cok(example, "standings", cache=cache)
    assert (standings.returncode, standings.stdout) == (1, ""), standings


SHOWN = ("week", "standings")


@pytest.mark.parametrize(
    ("old", "new"),
    [(b"limit: 30", b"limit: 99"), (b"vp: {tim: 7, matt: 4}", b"vp: {tim: 4, matt: 7}")],
    ids=["points-limit", "battle-winner"],
)
def test_a_same_size_edit_with_the_old_mtime_is_not_served_stale(
    example: Path, cache: Path, old: bytes, new: bytes
) -> None:
    before = [ok(cok(example, command, "--json", cache=cache)) for command in SHOWN]
    edit_in_place(example / "events.yaml", old, new)

    uncached = [outcome(cok(example, command, "--json", cache=cache, cached=False)) for command in SHOWN]
    assert [shown for _, shown in uncached] != before, "the edit should change what is shown"
    assert [outcome(cok(example, command, "--json", cache=cache)) for command in SHOWN] == uncached


def test_a_map_symlink_pointed_at_another_map_is_noticed(example: Path, cache: Path) -> None:
    text = map_of(example).read_text()
    fort = "{name: Fist of the First Men, kind: fort,"
    assert text.count(fort) == 1
    (example / "mapA.yaml").write_text(text)
    (example / "mapB.yaml").write_text(text.replace(fort, "{name: Fist of the First Men, kind: village,"))
    settings = example / "campaign.yaml"
    settings.write_text(re.sub(r"(?m)^map:.*$", "map: live.yaml", settings.read_text(), count=1))
    (example / "live.yaml").symlink_to("mapA.yaml")
    before = ok(cok(example, "locations", "--json", cache=cache))
    ok(cok(example, "standings", "--json", cache=cache))

    (example / "live.yaml").unlink()
    (example / "live.yaml").symlink_to("mapB.yaml")

    uncached = ok(cok(example, "locations", "--json", cache=cache, cached=False))
    assert uncached != before
    assert ok(cok(example, "locations", "--json", cache=cache)) == uncached
    assert ok(cok(example, "standings", "--json", cache=cache)) == ok(
        cok(example, "standings", "--json", cache=cache, cached=False)
    )


FLIPS = 200  # each is a cok process of its own (~0.3 s), run a few at a time


@pytest.mark.slow
def test_a_single_bit_flip_anywhere_in_the_cache_never_changes_the_answer(
    example: Path, cache: Path, tmp_path: Path
) -> None:
    expected = ok(cok(example, "standings", "--json", cache=cache, cached=False))
    assert ok(cok(example, "standings", "--json", cache=cache)) == expected
    files = {path.relative_to(cache): path.read_bytes() for path in sorted(cache.rglob("*")) if path.is_file()}
    assert files, "a warm run left no cache to flip bits in"
    bits = [(name, bit) for name, content in files.items() for bit in range(len(content) * 8)]

    def flipped(n: int, name: Path, bit: int) -> str | None:
        """What is wrong with the standings read from a copy of the warm cache with one bit flipped."""
        own = tmp_path / "flips" / str(n)
        for other, content in files.items():
            (own / other).parent.mkdir(parents=True, exist_ok=True)
            (own / other).write_bytes(content)
        data = bytearray(files[name])
        data[bit // 8] ^= 1 << (bit % 8)
        (own / name).write_bytes(bytes(data))
        run = cok(example, "standings", "--json", cache=own)
        if (run.returncode, run.stdout) == (0, expected) and not re.search("internal error|Traceback", run.stderr):
            return None
        same = "the right" if run.stdout == expected else "WRONG"
        return f"{name} bit {bit}: exit {run.returncode}, {same} standings, stderr {run.stderr[:150]!r}"

    chosen = random.Random(20261008).sample(bits, FLIPS)
    with ThreadPoolExecutor(max_workers=min(4, os.cpu_count() or 1)) as pool:
        wrong = [found for found in pool.map(flipped, range(FLIPS), *zip(*chosen, strict=True)) if found]
    assert not wrong, f"{len(wrong)} of {FLIPS} flips changed the answer:\n" + "\n".join(wrong)


class Planted:
    """Unpickling this writes the marker file: what a planted cache file could do."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        return Path.write_text, (self.marker, "the cache ran code")


def test_a_planted_pickle_in_the_cache_is_never_run(example: Path, cache: Path, tmp_path: Path) -> None:
    expected = ok(cok(example, "standings", "--json", cache=cache, cached=False))
    ok(cok(example, "standings", "--json", cache=cache))
    marker = tmp_path / "planted-code-ran"
    files = [path for path in cache.rglob("*") if path.is_file()]
    assert files, "a warm run left no cache to plant a pickle in"
    for path in files:
        path.write_bytes(pickle.dumps(Planted(marker)))

    run = cok(example, "standings", "--json", cache=cache)
    assert not marker.exists(), "loading the cache ran code planted in it"
    assert ok(run) == expected


@pytest.mark.parametrize("where", ["under-a-file", "a-file", "read-only-folder"])
def test_a_cache_that_cannot_be_written_is_silently_not_used(example: Path, tmp_path: Path, where: str) -> None:
    afile = tmp_path / "afile"
    afile.write_text("not a folder\n")
    cache = {"under-a-file": afile / "cache", "a-file": afile, "read-only-folder": tmp_path / "readonly"}[where]
    if where == "read-only-folder":  # (root may write there anyway: then it is an ordinary cache)
        cache.mkdir()
        cache.chmod(0o555)
    expected = ok(cok(example, "standings", cache=tmp_path / "other", cached=False))
    for _ in range(2):  # cold, then as warm as it can get
        assert ok(cok(example, "standings", cache=cache)) == expected
