"""Issue 36, "A plain server": the server's code read as Starlette's own examples are written
(no function over 60 lines, sync work sent to the thread pool one way), no import circle inside
`cok.serve`, and the personal links the application's, not the web server's."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "src" / "cok"
SERVE = SRC / "serve"
LONGEST = 60


def _functions(path: Path) -> Iterator[tuple[str, int]]:
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            assert node.end_lineno is not None
            yield f"{path.relative_to(SRC)}:{node.lineno} {node.name}", node.end_lineno - node.lineno + 1


def test_no_function_of_the_server_is_over_60_lines() -> None:
    long = {name: lines for path in SERVE.rglob("*.py") for name, lines in _functions(path) if lines > LONGEST}
    assert long == {}


def _imports(path: Path) -> set[str]:
    """Every module of cok.serve this file imports, anywhere in it (a function's own import and
    one made only for the type checker count: a circle is a circle)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module == "cok.serve":
            found.update(f"cok.serve.{a.name}" for a in node.names)
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("cok.serve."):
            found.add(str(node.module))
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.startswith("cok.serve."))
    return found


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected parts of more than one module, or a module importing itself (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        for other in sorted(graph.get(module, ())):
            if other not in index:
                visit(other)
                low[module] = min(low[module], low[other])
            elif other in stack:
                low[module] = min(low[module], index[other])
        if low[module] == index[module]:
            part = []
            while True:
                top = stack.pop()
                part.append(top)
                if top == module:
                    break
            if len(part) > 1 or module in graph.get(module, ()):
                found.append(sorted(part))

    for module in sorted(graph):
        if module not in index:
            visit(module)
    return found


def _serve_graph() -> dict[str, set[str]]:
    graph = {}
    for path in SERVE.rglob("*.py"):
        parts = path.relative_to(SRC.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        graph[name] = _imports(path)
    return graph


def test_no_module_of_the_server_imports_another_in_a_circle() -> None:
    assert _circles(_serve_graph()) == []


def _cok_graph() -> dict[str, set[str]]:
    """Every module of cok and the modules of cok it imports, anywhere in it (`from a.b import
    c` names the module a.b.c when there is one, else a.b)."""
    modules: dict[str, Path] = {}
    for path in SRC.rglob("*.py"):
        parts = path.relative_to(SRC.parent).with_suffix("").parts
        modules[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("cok"):
                module = str(node.module)
                found.update(f"{module}.{a.name}" if f"{module}.{a.name}" in modules else module for a in node.names)
            elif isinstance(node, ast.Import):
                found.update(a.name for a in node.names if a.name in modules)
        graph[name] = found & set(modules)
    return graph


def test_no_module_of_cok_imports_another_in_a_circle() -> None:
    """A circle anywhere (a game's reads and its site made one once) is found, not only in the server."""
    graph = _cok_graph()
    assert len(graph) > 150 and graph["cok.serve.app"]
    assert _circles(graph) == []


def test_the_circle_finder_finds_a_circle() -> None:
    """The check above can fail: a circle of three, and one module importing itself, are found."""
    assert _circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _circles({"a": {"a"}}) == [["a"]]


def test_sync_work_goes_to_the_thread_pool_one_way() -> None:
    """One helper runs the campaign's blocking calls off the event loop; no route wraps a call
    in a lambda for Starlette's `run_in_threadpool` itself."""
    pages = list((SRC / "rulesets").glob("*/table/**/*.py"))
    assert pages  # the games' pages are where a route's work is written too
    found = [p for p in [*SERVE.rglob("*.py"), *pages] if "run_in_threadpool" in p.read_text(encoding="utf-8")]
    assert sorted(p.name for p in found) == ["threads.py"]


def _serve_imports(path: Path) -> list[tuple[str, str]]:
    """(the function importing it, or "" at the module's level; the module) for every import of
    cok.serve in this file."""
    found = []
    tree = ast.parse(path.read_text(encoding="utf-8"))
    owners: dict[ast.AST, str] = {}
    for node in ast.walk(tree):  # outer functions first: an import is owned by the outermost
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for inner in ast.walk(node):
                owners.setdefault(inner, node.name)
    for node in ast.walk(tree):
        names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
        if isinstance(node, ast.ImportFrom):
            names = [node.module or ""]
        found += [(owners.get(node, ""), n) for n in names if n == "cok.serve" or n.startswith("cok.serve.")]
    return found


def test_the_command_line_and_the_chat_never_import_the_server() -> None:
    """`cok invite`, `cok notify` and every other command work without the web server: only the
    command that starts it (`cok serve`: the function `serve` of cli/serving.py, and the two steps
    only it takes, finding a club's folder and making a campaign's app) imports it."""
    starts = {"serve", "_club_folder", "_campaign_app"}
    found = []
    for path in [*(SRC / "cli").rglob("*.py"), *(SRC / "notify").rglob("*.py")]:
        for owner, module in _serve_imports(path):
            if path.name != "serving.py" or owner not in starts:
                found.append(f"{path.relative_to(SRC)} ({owner or 'module'}): {module}")
    assert found == []


def test_the_personal_links_import_no_server_and_no_command_line() -> None:
    found = []
    for path in (SRC / "links").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
            if isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            found += [f"{path.name}: {n}" for n in names if n.startswith(("cok.serve", "cok.cli", "starlette"))]
    assert list((SRC / "links").glob("*.py")) and found == []


def test_cok_invite_loads_no_module_of_the_server(example: Path, tmp_path: Path) -> None:
    """Run as a user runs it: `cok invite tim`, then `--list` and `--revoke`, and not one module of
    cok.serve (nor Starlette) is loaded."""
    code = (
        "import sys\n"
        "from cok.main import main\n"
        "folder = sys.argv[1]\n"
        "for args in (['invite', 'tim', '--url', 'http://192.168.1.20:8000', '--qr'], ['invite', '--list'],"
        " ['invite', '--revoke', 'tim']):\n"
        "    sys.argv = ['cok', *args, '-C', folder]\n"
        "    try:\n"
        "        main()\n"
        "    except SystemExit as ended:\n"
        "        assert ended.code in (0, None), ended.code\n"
        "print(sorted(m for m in sys.modules if m.startswith(('cok.serve', 'starlette'))))\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", code, str(example)],
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "COK_DATA_DIR": str(tmp_path)},
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip().splitlines()[-1] == "[]"


def test_each_app_reaches_its_own_campaign_when_several_are_mounted(example: Path, tmp_path: Path) -> None:
    """Every route finds the campaign it serves through its own app (`request.app.state`), not
    through a closure or a module global: two campaigns mounted in one process each answer with
    their own, and a link of one signs nobody in to the other."""
    import warnings

    from starlette.applications import Starlette
    from starlette.routing import Mount

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient

    from cok.links import invites
    from cok.serve.app import create_app
    from tests.service.conftest import shipped

    kingdoms = shipped(tmp_path, "mighty-kingdoms")
    club = Starlette(routes=[Mount("/a", app=create_app(example)), Mount("/b", app=create_app(kingdoms))])
    token = invites.invite(example, "Ann", organiser=True)
    with TestClient(club) as client:
        a, b = client.get("/a/api/standings").json(), client.get("/b/api/standings").json()
        assert a != b and a == client.get("/a/api/standings").json()
        assert client.get(f"/b/join/{token}", follow_redirects=False).status_code == 401
        joined = client.get(f"/a/join/{token}", follow_redirects=False)
        assert joined.status_code == 303 and joined.headers["location"] == "/a/"
        assert "path=/a/" in joined.headers["set-cookie"].lower()
        assert client.get("/a/void").status_code == 200 and client.get("/b/void").status_code == 401
