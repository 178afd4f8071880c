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


#: Page modules still reading the campaign's state behind the queries' back (issue 36), each
#: with why. The list is exact: a new reader fails, and so does one that no longer reads but
#: is still listed.
STATE_NOT_YET: dict[str, str] = {
    "no_true_king/table/__init__.py": "every page: its templates are given the state",
}


def _reads_state(module: Path) -> list[int]:
    """The lines where a module reads an attribute named `state` (`campaign.state`) or hands
    a call the state by name (`render(…, state=state)`)."""
    lines = []
    for node in ast.walk(ast.parse(module.read_text())):
        if isinstance(node, ast.Attribute) and node.attr == "state":
            lines.append(node.lineno)
        elif isinstance(node, ast.keyword) and node.arg == "state":
            lines.append(node.value.lineno)
    return sorted(lines)


def test_no_page_reads_the_campaigns_state_but_through_its_games_reads() -> None:
    pages = sorted(RULESETS.glob("*/table/**/*.py"))
    assert pages
    found = {str(page.relative_to(RULESETS)): _reads_state(page) for page in pages}
    assert {name for name, lines in found.items() if lines} == set(STATE_NOT_YET), found


def test_reading_the_state_is_found_where_a_page_does() -> None:
    """The check itself: `campaign.state` and a template handed `state=` are found."""
    import tempfile

    text = "def page(campaign, render):\n    s = campaign.state\n    return render('x', state=s)\n"
    with tempfile.TemporaryDirectory() as folder:
        module = Path(folder) / "page.py"
        module.write_text(text)
        assert _reads_state(module) == [2, 3]
