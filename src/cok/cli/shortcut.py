"""`cok standings` and `cok check`, the commands run most often (between games, and in every
pre-commit hook), and their shortcut past Typer.

Reading a command line with Typer costs more than the standings themselves: Typer and Click
load, and each option's value is parsed by a pydantic adapter built for it. So a plain line
of one of these commands — only `--color WHEN` before the command, only the command's own
options after it (`-C/--campaign DIR` and its flags), each at most once — is read here, and
runs the same function as Typer's command (`cok.cli.shared`), with the same words and exit
codes. Anything else (help, a typo, a spelling only Click would judge) is left to Typer,
which says what it says; so is every command line while a shell asks for completions.
"""

from __future__ import annotations

import errno
import os
import sys
from collections.abc import Callable, Sequence
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from cok.cli.basics import emit_json, open_valid, refusal
from cok.core.errors import Refused, RuleError

if TYPE_CHECKING:
    from cok.core.errors import Problem

#: Before the command: cok's own option with a value (the others, --version and --help, stop at once).
ROOT_VALUES = {"--color": "color"}
CAMPAIGN = {"-C": "campaign", "--campaign": "campaign"}


def show(campaign: str | None, no_cache: bool, as_json: bool) -> None:
    """`cok standings`: the players, ranked: a table, or one JSON document."""
    found = open_valid(campaign, no_cache)
    report = found.ruleset.standings(found)
    if as_json:
        emit_json(report.document)
        return
    from cok.render.output import show as show_views

    show_views(*report.lines)


def check(campaign: str | None, every: bool, no_cache: bool, as_json: bool) -> bool:
    """`cok check`: say every problem of the campaign (of every campaign below this folder,
    with `every`), silent when there is none; False when there is one."""
    from cok.core.campaign import open_campaign
    from cok.core.folders import find_campaign

    problems: list[Problem] = []
    for folder in every_campaign() if every else [None]:
        try:
            found = find_campaign(campaign) if folder is None else folder
            problems += open_campaign(found, use_cache=not no_cache).problems
        except Refused as refused:
            problems += refused.problems
    if as_json:
        from cok.render.documents import problems_doc

        emit_json(problems_doc(problems))
    elif problems:
        from typer import echo

        from cok.core.errors import told

        for line in told(problems):
            echo(line, err=True)
    return not problems


def every_campaign() -> list[Path]:
    """Every folder below the current one holding a campaign.yaml (hidden folders skipped)."""
    found = []
    for path in sorted(Path.cwd().rglob("campaign.yaml")):
        parts = path.relative_to(Path.cwd()).parts
        if not any(p.startswith(".") or p in ("node_modules", "site-packages") for p in parts[:-1]):
            found.append(path.parent)
    return found


def _checked(**given: Any) -> None:
    if not check(**given):
        sys.exit(1)


@dataclass(frozen=True)
class Command:
    """A command a plain line may run here: its options with a value, its flags (each by the
    parameter it sets), and what runs it."""

    values: dict[str, str]
    flags: dict[str, str]
    run: Callable[..., None]


COMMANDS = {
    "standings": Command(CAMPAIGN, {"--no-cache": "no_cache", "--json": "as_json"}, show),
    "check": Command(CAMPAIGN, {"--all": "every", "--no-cache": "no_cache", "--json": "as_json"}, _checked),
}


def read(args: Sequence[str]) -> tuple[str, str | None, dict[str, str | bool]] | None:
    """The command, the --color and the command's options of a plain line of one of
    COMMANDS; None for any other line."""
    if any(name.startswith("_") and name.endswith("_COMPLETE") for name in os.environ):
        return None  # a shell asking Click for completions
    at = next((i for i, arg in enumerate(args) if arg in COMMANDS), None)
    if at is None:
        return None
    if os.name == "nt" and any(magic in arg for arg in args for magic in "*?["):
        return None  # Click expands wildcards on Windows
    command = COMMANDS[args[at]]
    root = _options(args[:at], ROOT_VALUES, {})
    given = _options(args[at + 1 :], command.values, command.flags)
    if root is None or given is None:
        return None
    from cok.render.output import COLORS

    color = root.get("color")
    if color is not None and color not in COLORS:
        return None  # Typer's --color says which it knows
    return args[at], (None if color is None else str(color)), given


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
    """Run a plain line of one of COMMANDS (see the module) without Typer; False, having done
    nothing, for any other."""
    found = read(args)
    if found is None:
        return False
    name, color, given = found
    command = COMMANDS[name]
    from cok.render.output import set_color

    set_color(color or "auto")
    parameters = {p: False for p in command.flags.values()} | {"campaign": None} | given
    try:
        try:
            command.run(**parameters)
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
