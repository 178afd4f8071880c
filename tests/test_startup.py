"""Start-up: a command line imports the commands of its own game only (#15)."""

from __future__ import annotations

import subprocess
import sys

from .conftest import EXAMPLE


def test_a_clash_of_kings_command_imports_no_other_games_commands() -> None:
    run = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "cok", "standings", "-C", str(EXAMPLE)],
        capture_output=True,
        text=True,
        check=True,
    )
    imported = {line.rsplit("|", 1)[-1].strip() for line in run.stderr.splitlines() if "|" in line}
    assert "cok.rulesets.clash_of_kings.cli" in imported
    assert not {"cok.rulesets.mighty_kingdoms.cli", "cok.rulesets.no_true_king.cli"} & imported


def test_a_games_group_builds_that_game_alone() -> None:
    run = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "cok", "mk", "--help"], capture_output=True, text=True, check=True
    )
    imported = {line.rsplit("|", 1)[-1].strip() for line in run.stderr.splitlines() if "|" in line}
    assert "cok.rulesets.mighty_kingdoms.cli" in imported and "cok.rulesets.no_true_king.cli" not in imported
    assert "kingdom" in run.stdout and "battles" in run.stdout
