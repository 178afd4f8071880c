"""What every command shares: the options, reporting refusals, printing JSON, and opening
the campaign the command is about (those two from `cok.cli.basics`, which needs no Typer)."""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable, Sequence
from typing import Annotated, Any, TypeVar

import typer

from cok.cli.basics import emit_json as emit_json
from cok.cli.basics import open_valid as open_valid
from cok.cli.basics import refusal
from cok.core.errors import Refused, RuleError
from cok.core.folders import find_campaign

CampaignOpt = Annotated[
    str | None,
    typer.Option(
        "--campaign",
        "-C",
        metavar="DIR",
        help="Campaign folder (default: $COK_CAMPAIGN, the nearest campaign.yaml, or the only one in campaigns/).",
    ),
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print one JSON document instead of tables.")]
DryRunOpt = Annotated[bool, typer.Option("--dry-run", help="Show what would change; write nothing.")]
NoCacheOpt = Annotated[
    bool, typer.Option("--no-cache", help="Replay the whole log, ignoring (and not writing) the replay cache.")
]
NoteOpt = Annotated[str | None, typer.Option("--note", help="Free text kept with the event.")]
ReasonOpt = Annotated[str, typer.Option("--reason", help="Why (required).")]
DisplayNameOpt = Annotated[str | None, typer.Option("--name", help="Display name (default: the id).")]
PlayerIdArg = Annotated[str, typer.Argument(help="The player's id: lowercase letters, digits, '-' and '_'.")]


def player_id(typed: str) -> str:
    """A new player's id as typed: lowercase, else a wrong command line (exit 2) saying the
    id and the display name to give instead."""
    if typed != typed.lower():
        raise typer.BadParameter(
            f"player ids are lowercase: use {typed.lower()!r} (and --name {typed!r})", param_hint="PLAYER"
        )
    return typed


def given(fields: dict[str, Any]) -> dict[str, Any]:
    """A draft's fields from a command's options: an option left out gives none."""
    return {key: value for key, value in fields.items() if value is not None}


F = TypeVar("F", bound=Callable[..., Any])


def refusals(command: F) -> F:
    """Report refused input as `file:line: message` on stderr with exit code 1."""

    @functools.wraps(command)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return command(*args, **kwargs)
        except (Refused, RuleError) as error:  # a RuleError: what the command line asked for
            for line in refusal(error):
                typer.echo(line, err=True)
            raise typer.Exit(1) from None

    return wrapper  # type: ignore[return-value]


def words(*options: tuple[str, str]) -> Callable[[F], F]:
    """The options a command reads from its own words (`--seats P…`, `--move FROM TO UNITS…`:
    several words each, which Click cannot take), as (`--name WORDS`, help): listed in the
    command's help with its other options (`cok.cli.root.Command`)."""

    def mark(command: F) -> F:
        command.words = options  # type: ignore[attr-defined]
        return command

    return mark


def said(command: Callable[..., Any]) -> set[str]:
    """The names (without dashes) of the options a command reads from its words."""
    import inspect

    declared: tuple[tuple[str, str], ...] = getattr(inspect.unwrap(command), "words", ())
    return {decl.split()[0].removeprefix("--") for decl, _ in declared}


def complete(kind: str) -> Callable[[typer.Context, str], list[str]]:
    """Shell completion of the campaign's names of a kind (players, locations…): the game
    offers them (`Ruleset.names`), the campaign is the one the command line names. Never an
    error: nothing to offer is no completion."""

    def offer(ctx: typer.Context, incomplete: str) -> list[str]:
        from cok.core.campaign import open_campaign
        from cok.core.names import normalize

        try:
            found = open_campaign(find_campaign(ctx.params.get("campaign")))
            offered = found.ruleset.names(found.state, kind)
        except Exception:  # a completion must never print a traceback into the shell
            return []
        typed = normalize(incomplete)
        return [name for name in offered if normalize(name).startswith(typed)]

    return offer


def chosen(typed: str, choices: Sequence[str], hint: str) -> str:
    """A value of a fixed set (an order, a settlement, a colour mode) as typed, in any case:
    anything else is a wrong command line (exit 2) saying what may be typed, with "did you
    mean", as a name gets (`core.names.choose`)."""
    from cok.core.names import choose

    try:
        return choose(typed, choices)
    except RuleError as error:
        raise typer.BadParameter(str(error), param_hint=hint) from None


def interactive() -> bool:
    """Whether someone is at a terminal to answer a question."""
    return sys.stdin.isatty()
