"""The games as the command line names them. Every list of games (`cok --help`, `cok init
--help`, the README's table of commands) is made from the registry, so a new game is never
left out of one."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cok.core import ruleset as registry
from cok.rulesets import install

if TYPE_CHECKING:
    import typer

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


def _names(app: typer.Typer) -> list[str]:
    found = []
    for info in app.registered_commands:
        if info.hidden:
            continue
        found.append(info.name or (info.callback.__name__.rstrip("_").replace("_", "-") if info.callback else ""))
    return found


def commands_table() -> str:
    """The README's table: which commands each game has (its own, then those every game has)."""
    from cok.cli.serving import app as serving
    from cok.cli.shared import app as shared

    rows = ["| game | `ruleset:` | its own commands |", "|---|---|---|"]
    for ruleset_id in registry.known():
        game = registry.get(ruleset_id)
        own = ", ".join(f"`{prefix(ruleset_id)} {name}`" for name in _names(game.commands()))
        rows.append(f"| {game.title} | `{ruleset_id}` | {own} |")
    every = ", ".join(f"`cok {name}`" for name in [*_names(shared), *_names(serving)])
    rows.append(f"| every game | | {every} |")
    return "\n".join(rows) + "\n"
