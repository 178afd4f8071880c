"""The core knows no game: it imports none, refuses an unknown one, and runs the toy game
through every shared command."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

from cok.core import ruleset as registry

from ..conftest import Cok

CORE = Path(__file__).resolve().parents[2] / "src" / "cok" / "core"

registry.register("toy", "tests.core.toy")


def test_no_module_of_the_core_imports_a_game_the_cli_or_the_renderers() -> None:
    found = []
    for module in sorted(CORE.glob("*.py")):
        for node in ast.walk(ast.parse(module.read_text())):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
            if isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            found += [f"{module.name}: {n}" for n in names if n.startswith(("cok.rulesets", "cok.cli", "cok.render"))]
    assert found == []


def test_importing_the_whole_core_loads_no_game() -> None:
    modules = ", ".join(f"cok.core.{m.stem}" for m in sorted(CORE.glob("*.py")) if m.stem != "__init__")
    code = f"import sys, {modules}; print([m for m in sys.modules if m.startswith('cok.rulesets')])"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


@pytest.fixture
def toy(tmp_path: Path) -> Path:
    folder = tmp_path / "toy"
    folder.mkdir()
    (folder / "board.yaml").write_text("name: Toy board\ncap: 5\n")
    (folder / "campaign.yaml").write_text("name: Toy\nruleset: toy\nmap: board.yaml\n")
    (folder / "events.yaml").write_text(
        "- type: join\n  player: ann\n  id: j1\n- type: join\n  player: bob\n  id: j2\n"
        "- type: score\n  player: ann\n  points: 4\n  id: s1\n"
    )
    return folder


def test_an_unknown_ruleset_is_refused_with_its_line_and_the_known_ones(toy: Path) -> None:
    (toy / "campaign.yaml").write_text("name: Toy\nruleset: toi\nmap: board.yaml\n")
    run = Cok(toy)("standings")
    assert run.exit_code == 1
    assert "campaign.yaml:2: unknown ruleset 'toi' (did you mean 'toy'?)" in run.stderr
    assert "clash-of-kings" in run.stderr
    assert "Traceback" not in run.stderr


def test_a_campaign_without_a_ruleset_plays_clash_of_kings(campaign: Path) -> None:
    assert "ruleset" not in (campaign / "campaign.yaml").read_text()
    assert Cok(campaign)("week").stdout.startswith("Test: week 1, points limit 20")


def test_init_creates_a_campaign_of_the_given_ruleset(tmp_path: Path) -> None:
    run = Cok(tmp_path)("init", "new", "--ruleset", "toy")
    assert run.exit_code == 0, run.stderr
    assert "ruleset: toy" in (tmp_path / "new" / "campaign.yaml").read_text()
    assert (tmp_path / "new" / "map.yaml").read_text().endswith("name: Toy board\ncap: 5\n")
    schema = json.loads((tmp_path / "new" / ".schemas" / "events.schema.json").read_text())
    assert schema["title"] == "Toy event log"
    assert Cok(tmp_path / "new")("check").exit_code == 0


def test_init_refuses_an_unknown_ruleset_and_creates_nothing(tmp_path: Path) -> None:
    run = Cok(tmp_path)("init", "new", "--ruleset", "chess")
    assert run.exit_code == 1
    assert "unknown ruleset 'chess'" in run.stderr
    assert not (tmp_path / "new").exists()


def test_the_shared_commands_work_for_another_game(toy: Path, tmp_path: Path) -> None:
    cok = Cok(toy)
    assert json.loads(cok("standings", "--json").stdout) == {"players": {"ann": 4, "bob": 0}}
    assert [e["summary"] for e in json.loads(cok("log", "--json").stdout)["events"]] == [
        "ann joins",
        "bob joins",
        "ann scores 4",
    ]
    assert cok("void", "s1", "--reason", "miscounted").exit_code == 0
    assert json.loads(cok("standings", "--json").stdout) == {"players": {"ann": 0, "bob": 0}}
    assert cok("log").stdout.splitlines()[-1].endswith("voided s1: miscounted")
    assert cok("check").exit_code == 0
    assert cok("site", str(tmp_path / "site")).exit_code == 0
    assert (tmp_path / "site" / "index.html").read_text().endswith("\n<h1>Toy</h1>")
    assert cok("map", "--svg", str(tmp_path / "board.svg")).exit_code == 0
    assert "Toy board" in (tmp_path / "board.svg").read_text()


def test_a_rule_of_another_game_is_reported_with_its_line(toy: Path) -> None:
    with open(toy / "events.yaml", "a") as handle:
        handle.write("- type: score\n  player: bob\n  points: 9\n")
    run = Cok(toy)("check")
    assert run.exit_code == 1
    assert run.stderr.strip().endswith("events.yaml:11: score bob: at most 5 points a score")


def test_a_clash_of_kings_command_refuses_another_games_campaign(toy: Path) -> None:
    run = Cok(toy)("week", "--next")
    assert run.exit_code == 1
    assert "this campaign plays Toy (toy), not clash-of-kings" in run.stderr
    assert "week" not in (toy / "events.yaml").read_text()
