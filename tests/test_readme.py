"""The README's first screen runs as written: the game night on a copy of the example."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from cok.core import ruleset as registry

from .conftest import ROOT


def game_night() -> list[str]:
    text = (ROOT / "README.md").read_text()
    block = re.search(r"## A game night\n.*?```\n(.*?)```", text, re.S)
    assert block is not None
    return [line for line in block.group(1).splitlines() if line.strip()]


def test_every_command_of_the_game_night_runs_as_written(tmp_path: Path) -> None:
    shutil.copytree(ROOT / "campaigns", tmp_path / "campaigns")
    shim = tmp_path / "bin" / "cok"
    shim.parent.mkdir()
    shim.write_text(f'#!/bin/sh\nexec {shlex.quote(sys.executable)} -m cok "$@"\n')
    shim.chmod(0o755)
    env = {**os.environ, "PATH": f"{shim.parent}{os.pathsep}{os.environ['PATH']}"}
    script = "set -e\n" + "\n".join(game_night()) + "\n"
    run = subprocess.run(["bash", "-c", script], cwd=tmp_path, env=env, capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "occupies Ghost Hill" in run.stdout
    shipped = (ROOT / "campaigns" / "example" / "events.yaml").read_text()
    assert (tmp_path / "campaigns" / "example" / "events.yaml").read_text() == shipped
    assert (tmp_path / "play" / "tonight" / "events.yaml").read_text() != shipped


def test_every_command_of_the_mighty_kingdoms_block_runs_as_written(tmp_path: Path) -> None:
    text = (ROOT / "README.md").read_text()
    block = re.search(r"## Mighty Kingdoms\n.*?```\n(.*?)```", text, re.S)
    assert block is not None
    shutil.copytree(ROOT / "campaigns", tmp_path / "campaigns")
    shim = tmp_path / "bin" / "cok"
    shim.parent.mkdir()
    shim.write_text(f'#!/bin/sh\nexec {shlex.quote(sys.executable)} -m cok "$@"\n')
    shim.chmod(0o755)
    env = {**os.environ, "PATH": f"{shim.parent}{os.pathsep}{os.environ['PATH']}"}
    env.pop("COK_CAMPAIGN", None)
    run = subprocess.run(
        ["bash", "-c", "set -e\n" + block.group(1)], cwd=tmp_path, env=env, capture_output=True, text=True, check=False
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert "dag-1 is ordered to move" in run.stdout and "ranked by settlements" in run.stdout
    shipped = (ROOT / "campaigns" / "mighty-kingdoms" / "events.yaml").read_text()
    assert (tmp_path / "campaigns" / "mighty-kingdoms" / "events.yaml").read_text() == shipped


def test_the_no_true_king_example_commands_run_as_written() -> None:
    text = (ROOT / "README.md").read_text()
    block = re.search(r"## No True King\n.*?```\n(.*?)```", text, re.S)
    assert block is not None
    env = {k: v for k, v in os.environ.items() if k != "COK_CAMPAIGN"}
    script = "set -e\n" + block.group(1).replace("cok ", f"{shlex.quote(sys.executable)} -m cok ")
    run = subprocess.run(["bash", "-c", script], cwd=ROOT, env=env, capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "the game is over" in run.stdout and "lannister" in run.stdout


def test_the_readmes_table_of_each_games_commands_is_the_one_the_registry_gives(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from cok.main import commands_table
    from cok.rulesets import BUILT_IN

    monkeypatch.setattr(registry, "known", lambda: list(BUILT_IN))  # a test may have added its toy game
    text = (ROOT / "README.md").read_text()
    table = commands_table()
    assert table in text
    assert all(f"| {registry.get(game).title} |" in table for game in BUILT_IN)


def test_the_help_the_init_help_and_the_package_name_every_game() -> None:
    from .conftest import Cok

    said = Cok(ROOT)("--help").stdout + Cok(ROOT)("init", "--help").stdout
    description = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["description"]
    from cok.rulesets import BUILT_IN

    for game in BUILT_IN:  # the games cok ships (a test may have registered its toy game meanwhile)
        title = registry.get(game).title
        assert game in re.sub(r"-\n\s+", "-", said)
        assert title in " ".join(said.split()) and title in description
