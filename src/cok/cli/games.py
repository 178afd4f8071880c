"""The games as the command line names them. Every list of games (`cok --help`, `cok init
--help`, the README's table of commands in `cok.main`) is made from the registry, so a new game is never
left out of one."""

from __future__ import annotations

from cok.core import ruleset as registry
from cok.rulesets import install

install()


def prefix(ruleset_id: str) -> str:
    """How a game's own commands start: `cok` for the default game's, `cok mk` for a group's."""
    group = registry.get(ruleset_id).command
    return f"cok {group}" if group else "cok"


def listed() -> str:
    """`Clash of Kings (cok …), Mighty Kingdoms (cok mk …) and …`: each game and its commands."""
    named = [f"{registry.get(g).title} ({prefix(g)} …)" for g in registry.known()]
    return named[0] if len(named) == 1 else ", ".join(named[:-1]) + " and " + named[-1]


def ids() -> str:
    """`clash-of-kings (default), mighty-kingdoms, no-true-king`: what `--ruleset` takes."""
    return ", ".join(g + (" (default)" if g == registry.DEFAULT else "") for g in registry.known())
