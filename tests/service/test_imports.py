"""The service knows no interface: it imports no Typer, Rich, command line, server or
renderer, so that every interface can call it (issue #24)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

SERVICE = Path(__file__).resolve().parents[2] / "src" / "cok" / "service"
FORBIDDEN = ("typer", "rich", "click", "cok.cli", "cok.serve", "cok.render", "cok.main")


def test_no_module_of_the_service_imports_an_interface() -> None:
    found = []
    for module in sorted(SERVICE.glob("*.py")):
        for node in ast.walk(ast.parse(module.read_text())):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
            if isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            found += [f"{module.name}: {n}" for n in names if n == "rich" or n.startswith(FORBIDDEN)]
    assert found == []


def test_importing_the_whole_service_loads_no_interface() -> None:
    modules = ", ".join(f"cok.service.{m.stem}" for m in sorted(SERVICE.glob("*.py")) if m.stem != "__init__")
    code = (
        f"import sys, {modules}; "
        "print(sorted({m.split('.')[0] if not m.startswith('cok.') else '.'.join(m.split('.')[:2]) "
        "for m in sys.modules} & {'typer', 'rich', 'click', 'cok.cli', 'cok.serve', 'cok.render'}))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_the_core_never_imports_the_service() -> None:
    core = SERVICE.parent / "core"
    found = []
    for module in sorted(core.glob("*.py")):
        for node in ast.walk(ast.parse(module.read_text())):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("cok.service"):
                found.append(module.name)
            if isinstance(node, ast.Import) and any(a.name.startswith("cok.service") for a in node.names):
                found.append(module.name)
    assert found == []


def test_a_games_rules_and_intents_import_no_interface_and_no_service() -> None:
    rulesets = SERVICE.parent / "rulesets"
    pure = [*rulesets.glob("*/rules/*.py"), *rulesets.glob("*/intents.py")]
    assert any(p.name == "intents.py" for p in pure)
    found = []
    for module in pure:
        for node in ast.walk(ast.parse(module.read_text())):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
            if isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            found += [f"{module}: {n}" for n in names if n.startswith((*FORBIDDEN, "cok.service"))]
    assert found == []
