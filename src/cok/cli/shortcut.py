"""Reading a `cok` command line before Typer does: the command word (so that only that
command's app is built), cok's own options wherever they were typed, and a plain line of
`cok standings` or `cok check`, the commands run most often (between games, and in every
pre-commit hook), which then runs without Typer at all.

Reading a command line with Typer costs more than the standings themselves: Typer and Click
load, and each option's value is parsed by a pydantic adapter built for it. So a plain line
of one of these commands — only `--color WHEN` before the command, only the command's own
options after it (`-C/--campaign DIR` and its flags), each at most once — is read here, and
`cok.main` runs the same function as Typer's command (`cok.cli.basics`), with the same words
and exit codes. Anything else (help, a typo, a spelling only Click would judge) is left to
Typer, which says what it says; so is every command line while a shell asks for completions.
This module reads and decides nothing else: it imports no command, no Typer and no campaign.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass

#: Before the command: cok's own option with a value (the others, --version and --help, stop at once).
ROOT_VALUES = {"--color": "color"}
CAMPAIGN = {"-C": "campaign", "--campaign": "campaign"}


def not_text(args: Sequence[str]) -> str | None:
    """A refusal of the first argument that is not UTF-8 text (Python keeps such a byte as a
    lone surrogate, which no log can hold): said before any command runs, so nothing is written."""
    for number, arg in enumerate(args, start=1):
        if any("\ud800" <= ch <= "\udfff" for ch in arg):
            try:
                shown = arg.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
            except UnicodeEncodeError:
                shown = arg.encode("utf-8", "backslashreplace").decode("utf-8")
            return (
                f"argument {number} ('{shown}') holds a byte that is not UTF-8 text; "
                "type it again in UTF-8 (nothing was done)"
            )
    return None


@dataclass(frozen=True)
class Command:
    """A command a plain line may run without Typer: its options with a value and its flags,
    each by the parameter it sets."""

    values: dict[str, str]
    flags: dict[str, str]


COMMANDS = {
    "standings": Command(CAMPAIGN, {"--no-cache": "no_cache", "--json": "as_json"}),
    "check": Command(CAMPAIGN, {"--all": "every", "--no-cache": "no_cache", "--json": "as_json"}),
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


def in_order(args: Sequence[str], groups: Sequence[str] = ()) -> list[str]:
    """The line as Typer reads it. cok's own option is taken after the command too (`cok
    where tim matt --color never`: Click reads it only before), and a campaign named before
    the command (`cok -C DIR battle …`, as git takes `-C`) after the command word (after a
    game's command word too, `cok -C DIR mk status`: `groups` are the games' words)."""
    moved: list[str] = []
    rest: list[str] = []
    campaign: list[str] = []
    i = 0
    while i < len(args):
        arg = args[i]
        if arg == "--":
            rest += args[i:]
            break
        if arg in ROOT_VALUES and i + 1 < len(args):
            moved += args[i : i + 2]
            i += 2
            continue
        if arg.partition("=")[0] in ROOT_VALUES and "=" in arg:
            moved.append(arg)
        elif not rest and not campaign and arg in CAMPAIGN and i + 1 < len(args):
            campaign = list(args[i : i + 2])
            i += 1
        elif not rest and not campaign and arg.partition("=")[0] == "--campaign" and "=" in arg:
            campaign = [arg]
        else:
            rest.append(arg)
        i += 1
    if campaign and rest and not rest[0].startswith("-"):
        at = 2 if rest[0] in groups and len(rest) > 1 and not rest[1].startswith("-") else 1
        rest[at:at] = campaign
    else:
        rest = campaign + rest
    return moved + rest


def command_word(args: Sequence[str]) -> str | None:
    """The command a line (in order: `in_order`) runs: its first word that is neither an
    option nor the value of cok's own option; None for none (`cok --help`)."""
    skip = False
    for arg in args:
        if arg == "--":
            return None
        if skip:
            skip = False
        elif arg in ROOT_VALUES:
            skip = True
        elif not arg.startswith("-"):
            return arg
    return None
