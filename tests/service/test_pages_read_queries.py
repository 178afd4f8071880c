"""A game's pages read through its queries (issue 36, "Reads"): no module under
`rulesets/<game>/table/` imports the game's rules or the core's campaign state, nor reads a
campaign's `.state` or hands a template the state (`state=`); what a page shows of the
campaign it asks `Visit.read` (the same document as `--json`), and its templates get those
plain documents."""

from __future__ import annotations

import ast
from pathlib import Path

RULESETS = Path(__file__).resolve().parents[2] / "src" / "cok" / "rulesets"
#: The core's modules that hold or build a campaign's state.
CORE_STATE = ("cok.core.campaign", "cok.core.replay", "cok.core.fold", "cok.core.ledger", "cok.core.store")

#: Pages still reading the state for their forms (issue 36: each to become a query): none
#: left. The list is exact: a new import fails, and so does one that is gone but still listed.
NOT_YET: set[str] = set()


def _imports(module: Path) -> list[str]:
    """Every module a file imports (relative imports resolved against its package)."""
    package = ".".join(module.relative_to(RULESETS.parents[1]).with_suffix("").parts[:-1])
    found = []
    for node in ast.walk(ast.parse(module.read_text())):
        if isinstance(node, ast.Import):
            found += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = f"{parent}.{base}" if base else parent
            found.append(base)
    return found


def _forbidden(name: str) -> bool:
    parts = name.split(".")
    game_rules = len(parts) > 3 and parts[:2] == ["cok", "rulesets"] and parts[3] == "rules"
    return game_rules or name.startswith(CORE_STATE)


def test_no_page_imports_its_games_rules_or_the_cores_state() -> None:
    pages = sorted(RULESETS.glob("*/table/**/*.py"))
    assert pages
    found = set()
    for page in pages:
        for name in _imports(page):
            if _forbidden(name):
                found.add(f"{page.relative_to(RULESETS)}: {name}")
    assert found == NOT_YET


#: The page functions still reading the campaign's state behind the queries' back (issue 36),
#: each with why. The list is exact: a new reader fails, and so does one that no longer reads
#: but is still listed.
STATE_NOT_YET: dict[str, str] = {
    "no_true_king/table/__init__.py:_open_card": (
        "a conspiracy's own open loyalty card: a read is any link holder's (GET /api/<name>), and no"
        " read holds a loyalty card before the game is over"
    ),
}


def _reads_state(module: Path) -> list[str]:
    """The functions of a module (`name`, the innermost) that read an attribute named `state`
    (`campaign.state`) or hand a call the state by name (`render(…, state=state)`); `<module>`
    for a read outside any function."""
    found: list[str] = []

    def walk(node: ast.AST, where: str) -> None:
        for child in ast.iter_child_nodes(node):
            inside = child.name if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef) else where
            named = child.attr if isinstance(child, ast.Attribute) else getattr(child, "arg", None)
            if isinstance(child, ast.Attribute | ast.keyword) and named == "state":
                found.append(inside)
            walk(child, inside)

    walk(ast.parse(module.read_text()), "<module>")
    return sorted(set(found))


def test_no_page_reads_the_campaigns_state_but_through_its_games_reads() -> None:
    pages = sorted(RULESETS.glob("*/table/**/*.py"))
    assert pages
    found = {f"{page.relative_to(RULESETS)}:{name}" for page in pages for name in _reads_state(page)}
    assert found == set(STATE_NOT_YET)


def test_reading_the_state_is_found_where_a_page_does() -> None:
    """The check itself: `campaign.state` and a template handed `state=` are found, by function."""
    import tempfile

    text = (
        "def page(campaign, render):\n    s = campaign.state\n    return render('x', s=s)\n"
        "async def other(render, s):\n    return render('x', state=s)\n"
        "def clean(visit):\n    return visit.read('week')\n"
    )
    with tempfile.TemporaryDirectory() as folder:
        module = Path(folder) / "page.py"
        module.write_text(text)
        assert _reads_state(module) == ["other", "page"]
