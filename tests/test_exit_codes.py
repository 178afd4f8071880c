"""Exit codes mean what they say: once an event is in the log the command succeeds, even
when its summary cannot be printed (real processes: /dev/full, a closed stdout, a reader
that is gone)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import Cok

COK = [sys.executable, "-m", "cok"]


@pytest.fixture
def joined(campaign: Path) -> Path:
    assert Cok(campaign)("join", "tim", "--faction", "martell").exit_code == 0
    return campaign


def env() -> dict[str, str]:
    return {**os.environ, "COK_CACHE_DIR": os.environ["COK_CACHE_DIR"]}


def adjusts(campaign: Path) -> int:
    return (campaign / "events.yaml").read_text().count("type: adjust")


@pytest.mark.parametrize("json", [False, True])
def test_a_recorded_event_whose_summary_cannot_be_written_to_a_full_disk_exits_0(joined: Path, json: bool) -> None:
    with open("/dev/full", "w") as full:
        args = [*COK, "adjust", "tim", "1", "--reason", "x", "-C", str(joined), *(["--json"] if json else [])]
        run = subprocess.run(args, stdout=full, stderr=subprocess.PIPE, text=True, env=env(), check=False)
    assert (run.returncode, adjusts(joined)) == (0, 1), run.stderr
    assert "but its summary could not be printed" in run.stderr
    assert "Traceback" not in run.stderr


def test_a_recorded_event_with_stdout_closed_exits_0(joined: Path) -> None:
    command = " ".join([*COK, "adjust", "tim", "1", "--reason", "x", "-C", str(joined)]) + " >&-"
    run = subprocess.run(["bash", "-c", command], stderr=subprocess.PIPE, text=True, env=env(), check=False)
    assert (run.returncode, adjusts(joined)) == (0, 1), run.stderr
    assert "Traceback" not in run.stderr


def test_a_recorded_event_piped_into_a_reader_that_is_gone_exits_0(joined: Path) -> None:
    args = [*COK, "adjust", "tim", "1", "--reason", "x", "--json", "-C", str(joined)]
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env())
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()  # the reader exits before cok writes its summary
    err = proc.stderr.read()
    assert (proc.wait(), adjusts(joined)) == (0, 1), err
    assert "Traceback" not in err


def test_an_unknown_ruleset_exits_1_saying_which_it_may_be_and_creates_nothing(tmp_path: Path) -> None:
    run = Cok(tmp_path)("init", "mk2", "--ruleset", "mighty")
    assert run.exit_code == 1
    assert run.stderr.startswith("--ruleset: ") and "did you mean 'mighty-kingdoms'?" in run.stderr
    assert not (tmp_path / "mk2").exists()


@pytest.mark.parametrize(
    ("args", "named"),
    [
        (("--color", "nevr", "standings"), "--color"),
        (("schema", "evnts"), "KIND"),
        (("mk", "order", "dag-1", "razee"), "ORDER"),
        (("mk", "build", "dag", "1,-4", "fortres"), "SETTLEMENT"),
        (("battle", "tim", "matt", "--at", "Tarth", "--vp", "tim"), "--vp"),
        (("week", "--limit", "10"), "--limit"),
    ],
)
def test_a_bad_option_value_is_a_usage_error_exit_2_in_one_style(args: tuple[str, ...], named: str) -> None:
    from .conftest import EXAMPLE

    run = Cok(EXAMPLE.parent / ("mighty-kingdoms" if args[0] == "mk" else "example"))(*args)
    assert run.exit_code == 2, run.stderr
    assert f"cok {args[0] if args[0] != '--color' else ''}".strip() in run.stderr and named in run.stderr
    assert not run.stderr.startswith("cok: ")  # a usage error, not a refusal
