"""axe-core, the engine browsers' own accessibility audits use, run in a page Playwright shows:
the serious and critical violations of the WCAG 2.0 and 2.1 A and AA rules, each in a
sentence (issue #49). The engine is the `axe.min.js` that `axe-playwright-python` ships in its
wheel: nothing is fetched when a test runs."""

from __future__ import annotations

from pathlib import Path
from typing import Any

#: The rules checked: WCAG 2.0 and 2.1, levels A and AA.
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
#: The impacts that fail a page.
SERIOUS = ("serious", "critical")


def engine() -> str:
    """axe-core's own script, from the installed package (a missing one is a failure to say so)."""
    import axe_playwright_python

    return (Path(axe_playwright_python.__file__).parent / "axe.min.js").read_text(encoding="utf-8")


def violations(page: Any) -> list[str]:
    """Each serious or critical violation on the page shown: its rule and where, in a sentence."""
    page.evaluate(engine())
    results = page.evaluate(
        "(tags) => axe.run(document, {runOnly: {type: 'tag', values: tags}, resultTypes: ['violations']})", TAGS
    )
    found = []
    for rule in results["violations"]:
        for node in rule["nodes"]:
            if node.get("impact") in SERIOUS:
                where = " ".join(str(t) for t in node["target"])
                found.append(f"{rule['id']}: {where}: {node.get('failureSummary', '').splitlines()[-1].strip()}")
    return found
