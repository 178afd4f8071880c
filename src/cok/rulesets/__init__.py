"""The games `cok` keeps. Each is a package with a `RULESET` (see `cok.core.ruleset`)."""

from __future__ import annotations

from cok.core import ruleset as registry

BUILT_IN = {  # in the order the help and the README list them: the default first
    "clash-of-kings": "cok.rulesets.clash_of_kings",
    "mighty-kingdoms": "cok.rulesets.mighty_kingdoms",
    "no-true-king": "cok.rulesets.no_true_king",
}


def install() -> None:
    """Make the built-in games known to the core (their modules load on first use)."""
    for ruleset_id, module in BUILT_IN.items():
        if ruleset_id not in registry.known():
            registry.register(ruleset_id, module)
