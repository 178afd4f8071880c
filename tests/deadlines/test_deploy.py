"""deploy/cok-tick.service and cok-tick.timer (docs/hosting.md): systemd reads them, and the
tick they run is a command cok takes, which records a missed week through its options."""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

from tests.tools import missing

from ..conftest import Cok
from .conftest import LATE_ENOUGH, log

DEPLOY = Path(__file__).parents[2] / "deploy"


def test_systemd_reads_the_tick_service_and_its_timer(tmp_path: Path) -> None:
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        missing("systemd-analyze", "apt-get install systemd")
    for name in ("cok-tick.service", "cok-tick.timer"):
        (tmp_path / name).write_text((DEPLOY / name).read_text(encoding="utf-8").replace("/opt/cok", sys.prefix))
    checked = subprocess.run(
        [analyze, "verify", str(tmp_path / "cok-tick.timer"), str(tmp_path / "cok-tick.service")],
        capture_output=True,
        text=True,
        check=False,
    )
    said = [line for line in checked.stderr.splitlines() if str(tmp_path) in line]
    assert checked.returncode == 0 and not said, checked.stderr


def test_the_timer_wakes_every_five_minutes_and_catches_up_after_a_stop() -> None:
    timer = (DEPLOY / "cok-tick.timer").read_text(encoding="utf-8")
    assert "OnCalendar=*:0/5" in timer and "Persistent=true" in timer


def test_the_services_tick_records_a_missed_week_with_its_options(week: Path) -> None:
    unit = (DEPLOY / "cok-tick.service").read_text(encoding="utf-8")
    (line,) = re.findall(r"^ExecStart=/opt/cok/bin/cok (.*)$", unit, re.MULTILINE)
    words = [w if w != "/var/lib/cok/campaign" else str(week) for w in shlex.split(line)]
    assert "--commit" in words
    subprocess.run(["git", "init", "-q", str(week)], check=True)
    subprocess.run(["git", "-C", str(week), "add", "."], check=True)
    subprocess.run(
        ["git", "-C", str(week), "-c", "user.name=t", "-c", "user.email=t@x", "commit", "-qm", "start"], check=True
    )
    run = Cok(week)(*words, env={"COK_NOW": LATE_ENOUGH})
    assert run.exit_code == 0, run.stderr
    assert "default: deadline" in log(week)
    said = subprocess.run(["git", "-C", str(week), "log", "--format=%an %s"], capture_output=True, text=True).stdout
    assert said.splitlines()[0].startswith("ledger ")
