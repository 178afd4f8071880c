"""The `cok` command line: the shared commands, every game's own commands, and `main`.

Clash of Kings' commands are the top-level ones; a game with `command` set gets a group
(`cok mk …`). Commands import what they use when they run: `cok standings` on a cached
campaign never loads pydantic, PyYAML or the rules; and a plain `cok standings` or `cok check`
line is read without Typer at all (`cok.cli.shortcut` reads the line, `run_plain` runs it),
which costs more than the standings.
"""

from __future__ import annotations

import errno
import os
import sys
from contextlib import suppress
from typing import TYPE_CHECKING, Any, NoReturn

from cok.core import ruleset as registry
from cok.core.errors import Refused, RuleError
from cok.rulesets import install

if TYPE_CHECKING:
    import typer

install()


def build(only: str | None = None) -> typer.Typer:
    """The whole command line: the shared commands, then each game's. With `only` (the
    command a command line runs), a game's group is built only when it is that one: a game's
    commands are imported when they can run."""
    import typer
    from typer.core import TyperCommand

    from cok.cli.games import listed
    from cok.cli.root import SETTINGS, Command, root
    from cok.cli.shared import app as shared

    app = typer.Typer(
        name="cok",
        help=(
            f"A ledger for tabletop wargame campaigns: {listed()}.\n\n"
            "A campaign is plain YAML files: its settings, a map and an append-only event log. "
            "Every command replays the log through the game's rules.\n\n"
            "Examples:\n\n"
            "  cok standings\n\n"
            "  cok where tim matt\n\n"
            "  cok battle tim matt --at Starfall --winner tim\n\n"
            "  cok mk status\n\n"
            "  cok ntk status"
        ),
        **SETTINGS,
    )
    app.callback()(root)
    first, *rest = shared.registered_commands  # `init`, then a game night's commands, then the rest
    app.registered_commands.append(first)
    for ruleset_id in registry.known():
        game = registry.get(ruleset_id)
        group = game.command
        if group:
            if only is None or only == group:
                app.add_typer(game.commands(), name=group, help=f"{game.title}: its own commands.")
        else:
            app.registered_commands += game.commands().registered_commands
    app.registered_commands += rest
    from cok.cli.serving import app as serving  # `cok serve` and `cok invite`: the campaign at the table

    app.registered_commands += serving.registered_commands
    if only is None or only in ("tick", "deadline"):  # the campaign's own time (docs/deadlines.md)
        from cok.cli.deadlines import app as deadline
        from cok.cli.deadlines import ticking

        app.registered_commands += ticking.registered_commands
        app.add_typer(deadline, name="deadline", help="What is due and when; extend a deadline, bring a player back.")
    if only is None or only == "dice":  # `cok dice`: the campaign's fair dice (docs/dice.md)
        from cok.cli.dice import app as dice

        app.add_typer(dice, name="dice", help="The fair dice: every die cok rolled, verified or waiting.")
    if only is None or only == "notify":  # `cok notify …`: the club's chat
        from cok.cli.notify import app as notify

        app.add_typer(notify, name="notify", help="Post the campaign's news in the club's chat.")
    commands = list(app.registered_commands)
    for games in app.registered_groups:
        commands += games.typer_instance.registered_commands if games.typer_instance else []
    for info in commands:  # usage lines as Click writes them, and the options read as words listed
        if info.cls in (None, TyperCommand):
            info.cls = Command
    return app


_WHOLE: typer.Typer | None = None


def __getattr__(name: str) -> typer.Typer:
    """`cok.main.app`: the whole command line, built on first use (`main` builds less)."""
    global _WHOLE
    if name != "app":
        raise AttributeError(name)
    if _WHOLE is None:
        _WHOLE = build()
    return _WHOLE


def _only(name: str) -> typer.Typer:
    """The app with just one command: Typer builds every registered command's options from
    its signature at start-up, and a command line only ever runs one of them."""
    import typer

    from cok.cli.root import SETTINGS

    app = build(only=name)
    for info in app.registered_commands:
        command_name = info.name or (info.callback.__name__.replace("_", "-") if info.callback else "")
        if command_name == name:
            single = typer.Typer(**{k: getattr(app.info, k) for k in ("name", "help")}, **SETTINGS)
            single.registered_callback = app.registered_callback
            single.registered_commands = [info]
            return single
    for group in app.registered_groups:  # a game's group (`cok ntk …`): that group alone
        if group.name == name:
            single = typer.Typer(**{k: getattr(app.info, k) for k in ("name", "help")}, **SETTINGS)
            single.registered_callback = app.registered_callback
            single.registered_groups = [group]
            return single
    return app


def main() -> None:
    """The console script: never a traceback for the user (COK_DEBUG=1 shows one)."""
    from cok.cli import shortcut
    from cok.render.progress import install as show_progress

    garbled = shortcut.not_text(sys.argv[1:])
    if garbled is not None:
        _say(f"cok: {garbled}")
        sys.exit(1)
    if os.environ.get("COK_NOW"):  # the ledger's clock (docs/deadlines.md): a bad one said at once
        from cok.core.deadlines import BadNow, now

        try:
            now()
        except BadNow as error:
            _say(f"cok: {error}")
            sys.exit(1)
    args = sys.argv[1:] = shortcut.in_order(sys.argv[1:], _groups)
    show_progress(args)
    try:
        plain = shortcut.read(args)
        if plain is not None:  # a plain `cok standings` or `cok check` runs without Typer
            run_plain(*plain)
        else:
            word = shortcut.command_word(args)
            (_only(word) if word else build())()
    except (Refused, RuleError) as error:
        _say(f"cok: {error}")
        sys.exit(1)
    except KeyboardInterrupt:
        sys.exit(130)
    except OSError as error:  # the machine said no (a full disk, a permission, a missing folder)
        where = f" ({error.filename})" if error.filename else ""
        _say(f"cok: {error.strerror or error}{where}")
        sys.exit(1)
    except Exception as error:  # a bug: say so plainly, without a traceback
        if os.environ.get("COK_DEBUG"):
            raise
        _say(f"cok: internal error ({type(error).__name__}: {error}); please report it")
        sys.exit(1)


class _Groups:
    """The games' command words (`mk`, `ntk`), looked up only when a line needs them."""

    def __contains__(self, word: object) -> bool:
        return any(registry.get(ruleset_id).command == word for ruleset_id in registry.known())


_groups: Any = _Groups()


def run_plain(command: str, color: str | None, given: dict[str, str | bool]) -> None:
    """A plain line read by `cok.cli.shortcut`: the function Typer's command runs, with the
    same words and exit codes, and no Typer loaded on any of its paths."""
    from cok.cli.basics import refusal, say, show_problems, show_standings
    from cok.cli.shortcut import COMMANDS
    from cok.render.output import set_color

    set_color(color or "auto")
    parameters: dict[str, Any] = {p: False for p in COMMANDS[command].flags.values()} | {"campaign": None} | given
    try:
        try:
            if command == "standings":
                show_standings(**parameters)
            elif not show_problems(**parameters):
                sys.exit(1)
        except (Refused, RuleError) as error:  # as `cok.cli.options.refusals` says it
            for line in refusal(error):
                say(line)
            sys.exit(1)
    except OSError as error:
        if error.errno != errno.EPIPE:
            raise
        _reader_gone()


def _reader_gone() -> NoReturn:
    """Whoever read the output went away (`cok standings | head -1`): exit 1 without a word,
    as Click does, and nothing left unwritten to fail again at exit."""
    nowhere = os.open(os.devnull, os.O_WRONLY)
    for stream in (sys.stdout, sys.stderr):
        with suppress(AttributeError, OSError, ValueError):  # no such stream, or not a file
            os.dup2(nowhere, stream.fileno())
    sys.exit(1)


def _say(text: str) -> None:
    """A line on standard error, as Typer's commands write theirs."""
    from typer import echo

    echo(text, err=True)


def _names(app: typer.Typer) -> list[str]:
    found = []
    for info in app.registered_commands:
        if info.hidden:
            continue
        found.append(info.name or (info.callback.__name__.rstrip("_").replace("_", "-") if info.callback else ""))
    return found


def commands_table() -> str:
    """The README's table: which commands each game has (its own, then those every game has)."""
    from cok.cli.games import prefix
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
