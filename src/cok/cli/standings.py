"""`cok standings`, the command run most often between games, and its shortcut past Typer.

Reading a command line with Typer costs more than the standings themselves: Typer and Click
load, and each option's value is parsed by a pydantic adapter built for it. So a plain
`cok standings` line — only `--color WHEN` before the command, only `-C/--campaign DIR`,
`--no-cache` and `--json` after it, each at most once — is read here, and runs the same
`show` as Typer's command (`cok.cli.shared`), with the same words and exit codes. Anything
else (help, a typo, a spelling only Click would judge) is left to Typer, which says what it
says; so is every command line while a shell asks for completions.
"""

from __future__ import annotations

import errno
import os
import sys
from collections.abc import Sequence
from contextlib import suppress
from typing import NoReturn

from cok.cli.basics import emit_json, open_valid, refusal
from cok.core.errors import Refused, RuleError

COMMAND = "standings"
#: Before the command: cok's own option with a value (the others, --version and --help, stop at once).
ROOT_VALUES = {"--color": "color"}
#: After it: the command's options with a value, and its flags (see `cok.cli.shared.standings`).
VALUES = {"-C": "campaign", "--campaign": "campaign"}
FLAGS = {"--no-cache": "no_cache", "--json": "as_json"}


def show(campaign: str | None, no_cache: bool, as_json: bool) -> None:
    """The players, ranked: a table, or one JSON document."""
    found = open_valid(campaign, no_cache)
    report = found.ruleset.standings(found, as_json)
    if as_json:
        emit_json(report.document)
        return
    from cok.render.output import show as show_views

    show_views(*report.lines)


def read(args: Sequence[str]) -> tuple[str | None, dict[str, str | bool]] | None:
    """The --color and the standings' options of a plain `cok standings` line; None for any
    other line."""
    if any(name.startswith("_") and name.endswith("_COMPLETE") for name in os.environ):
        return None  # a shell asking Click for completions
    if COMMAND not in args:
        return None
    if os.name == "nt" and any(magic in arg for arg in args for magic in "*?["):
        return None  # Click expands wildcards on Windows
    at = list(args).index(COMMAND)
    root = _options(args[:at], ROOT_VALUES, {})
    given = _options(args[at + 1 :], VALUES, FLAGS)
    if root is None or given is None:
        return None
    from cok.render.output import COLORS

    color = root.get("color")
    if color is not None and color not in COLORS:
        return None  # Typer's --color says which it knows
    return (None if color is None else str(color)), given


def _options(tokens: Sequence[str], values: dict[str, str], flags: dict[str, str]) -> dict[str, str | bool] | None:
    """The options as written (`--name VALUE`, `--name=VALUE`, `-n VALUE`, `--flag`), by
    parameter; None for anything else, a repeated option or a value that looks like an option."""
    given: dict[str, str | bool] = {}
    i = 0
    while i < len(tokens):
        token = tokens[i]
        name, equals, written = token.partition("=")
        value: str | bool
        if equals and name.startswith("--") and name in values:
            parameter, value = values[name], written
        elif token in values and i + 1 < len(tokens):
            i += 1
            parameter, value = values[token], tokens[i]
        elif token in flags:
            parameter, value = flags[token], True
        else:
            return None
        if parameter in given or value == "" or (isinstance(value, str) and value.startswith("-")):
            return None
        given[parameter] = value
        i += 1
    return given


def shortcut(args: Sequence[str]) -> bool:
    """Run a plain `cok standings` line (see the module) without Typer; False, having done
    nothing, for any other."""
    found = read(args)
    if found is None:
        return False
    color, given = found
    from cok.render.output import set_color

    set_color(color or "auto")
    try:
        try:
            show(
                campaign=str(given["campaign"]) if "campaign" in given else None,
                no_cache=bool(given.get("no_cache", False)),
                as_json=bool(given.get("as_json", False)),
            )
        except (Refused, RuleError) as error:  # as `cok.cli.options.refusals` says it
            from typer import echo

            for line in refusal(error):
                echo(line, err=True)
            sys.exit(1)
    except OSError as error:
        if error.errno != errno.EPIPE:
            raise
        _reader_gone()
    return True


def _reader_gone() -> NoReturn:
    """Whoever read the output went away (`cok standings | head -1`): exit 1 without a word,
    as Click does, and nothing left unwritten to fail again at exit."""
    nowhere = os.open(os.devnull, os.O_WRONLY)
    for stream in (sys.stdout, sys.stderr):
        with suppress(AttributeError, OSError, ValueError):  # no such stream, or not a file
            os.dup2(nowhere, stream.fileno())
    sys.exit(1)
