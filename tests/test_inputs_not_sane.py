"""Input that is not a file, or not sane: refused with a message (and `file:line` where
there is a line), promptly, never an internal error — in real processes where it matters."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from cok.core.append import journal_path, lock_path

from .conftest import Cok

COK = [sys.executable, "-m", "cok"]


def run_cok(campaign: Path, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*COK, *args, "-C", str(campaign)],
        capture_output=True,
        text=True,
        timeout=30,
        env=env or dict(os.environ),
        stdin=subprocess.DEVNULL,
        check=False,
    )


def test_an_event_log_that_is_a_fifo_is_refused_not_waited_on(campaign: Path) -> None:
    log = campaign / "events.yaml"
    log.unlink()
    os.mkfifo(log)
    for args in (("check",), ("week", "--next")):
        run = run_cok(campaign, *args)
        assert run.returncode == 1
        assert "event log is not a regular file" in run.stderr


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom"])
def test_an_event_log_linked_to_a_device_is_refused_before_reading(campaign: Path, device: str) -> None:
    log = campaign / "events.yaml"
    log.unlink()
    log.symlink_to(device)
    run = run_cok(campaign, "check")
    assert run.returncode == 1
    assert "not a regular file" in run.stderr


def test_a_log_over_64_mib_is_refused_before_it_is_read(campaign: Path) -> None:
    with open(campaign / "events.yaml", "wb") as handle:
        handle.truncate(65 * 2**20)  # sparse: no disk used, but its size says it all
    run = run_cok(campaign, "check")
    assert run.returncode == 1
    assert "larger than 64 MiB" in run.stderr


def test_a_symlinked_log_is_locked_and_journaled_beside_its_target(tmp_path: Path) -> None:
    target = tmp_path / "shared" / "events.yaml"
    target.parent.mkdir()
    target.write_text("")
    link = tmp_path / "campaign" / "events.yaml"
    link.parent.mkdir()
    link.symlink_to(target)
    assert lock_path(link) == lock_path(target) == target.parent / ".events.yaml.lock"
    assert journal_path(link) == journal_path(target)


@pytest.mark.parametrize(
    ("line", "said"),
    [
        ("note: 2026-02-30", "2026-02-30 is not a valid date"),
        ("at: 2026-10-07 25:00:00", "is not a valid date"),
        ("limit: " + "9" * 5000, "is too large a number"),
        ("limit: 0x" + "f" * 4000, "is too large a number"),
    ],
)
def test_impossible_dates_and_huge_numbers_are_refused_with_their_line(campaign: Path, line: str, said: str) -> None:
    (campaign / "events.yaml").write_text(f"- type: week\n  {line}\n")
    for args in (("check",), ("standings",)):
        run = Cok(campaign)(*args)
        assert run.exit_code == 1
        assert "events.yaml:2: " in run.stderr and said in run.stderr
        assert "internal error" not in run.stderr


def test_without_a_home_folder_or_a_user_name_commands_run_without_the_cache(campaign: Path, tmp_path: Path) -> None:
    here = tmp_path / "elsewhere"  # where the commands run: nothing may be written there
    here.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("HOME", "COK_CACHE_DIR", "XDG_CACHE_HOME", "USER")}
    env["LOGNAME"] = ""
    code = (
        "import pwd, sys, runpy\n"
        "def nobody(*a): raise KeyError('getpwuid(): uid not found')\n"
        "pwd.getpwuid = nobody\n"
        "sys.argv = ['cok', *sys.argv[1:]]\n"
        "runpy.run_module('cok', run_name='__main__')\n"
    )
    for args in (("join", "tim", "--faction", "martell"), ("standings",), ("week",), ("check",)):
        run = subprocess.run(
            [sys.executable, "-c", code, *args, "-C", str(campaign)],
            capture_output=True,
            text=True,
            env=env,
            check=False,
            cwd=here,
        )
        assert run.returncode == 0, run.stderr
        assert "internal error" not in run.stderr
    assert list(here.iterdir()) == []


def test_what_the_machine_refuses_is_said_plainly_never_as_an_internal_error(tmp_path: Path) -> None:
    afile = tmp_path / "afile"
    afile.write_text("")
    run = subprocess.run([*COK, "init", str(afile / "campaign")], capture_output=True, text=True, check=False)
    assert run.returncode == 1
    assert "internal error" not in run.stderr and "Traceback" not in run.stderr
    assert "Not a directory" in run.stderr and str(afile) in run.stderr


def test_without_a_home_folder_secrets_are_refused_a_place_not_kept_where_the_command_runs(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import platformdirs

    from cok.core.errors import Refused
    from cok.core.folders import data_dir

    monkeypatch.delenv("COK_DATA_DIR", raising=False)
    monkeypatch.setattr(platformdirs, "user_data_dir", lambda *args, **kwargs: "~/.local/share/cok")
    with pytest.raises(Refused, match="COK_DATA_DIR"):
        data_dir()
