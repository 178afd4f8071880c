"""The server knows no game, as the core knows none; and only `serve/warm.py` calls the
service layer, so that what the server asks of it is in one place."""

from __future__ import annotations

import ast
from pathlib import Path

SERVE = Path(__file__).resolve().parents[2] / "src" / "cok" / "serve"


def imported(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


def test_the_server_imports_no_game_and_no_command_line() -> None:
    for path in SERVE.rglob("*.py"):
        for name in imported(path):
            assert not name.startswith(("cok.rulesets", "cok.cli", "typer", "rich")), f"{path.name} imports {name}"


def test_only_the_warm_campaign_calls_the_service() -> None:
    callers = sorted(p.name for p in SERVE.rglob("*.py") if any(n.startswith("cok.service") for n in imported(p)))
    assert callers == ["warm.py"]
