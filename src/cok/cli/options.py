"""What every command shares: the options, reporting refusals, printing JSON, and opening
the campaign the command is about (those two from `cok.cli.basics`, which needs no Typer)."""

from __future__ import annotations

import functools
import inspect
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any, TypedDict, TypeVar

import typer

from cok.cli.basics import emit_json as emit_json
from cok.cli.basics import open_valid as open_valid
from cok.cli.basics import refusal
from cok.core.errors import Refused, RuleError
from cok.core.folders import find_campaign

if TYPE_CHECKING:
    from cok.core.campaign import Campaign


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


def ruling(help: str) -> Any:
    """`--override REASON`: an organiser records what the rules would refuse, saying why (the
    event keeps the reason); `help` says what it sets aside for this command."""
    return typer.Option("--override", metavar="REASON", help=help)


F = TypeVar("F", bound=Callable[..., Any])


@dataclass(frozen=True)
class Manner:
    """How a command is to run, as the options every command ends with say: on which campaign
    (`-C`), replaying the whole log (`--no-cache`), writing nothing (`--dry-run`), as JSON
    (`--json`). Declared once here; `records` and `reads` give a command these options."""

    campaign: str | None = None
    no_cache: bool = False
    dry_run: bool = False
    as_json: bool = False

    def recording(self) -> Recording:
        """What a recording (`cok.cli.recording.record_drafts`) takes of it."""
        return Recording(dry_run=self.dry_run, as_json=self.as_json, no_cache=self.no_cache)


class Recording(TypedDict):
    dry_run: bool
    as_json: bool
    no_cache: bool


USUAL = Manner()  # what a command's `how` stands for in its signature: `records` or `reads` replaces it

#: Each option of a `Manner`, as the command's --help lists it, and its default.
MANNER: dict[str, tuple[Any, Any]] = {
    "campaign": (CampaignOpt, None),
    "no_cache": (NoCacheOpt, False),
    "dry_run": (DryRunOpt, False),
    "as_json": (JsonOpt, False),
}


def _ending(*options: str) -> Callable[[F], F]:
    """The command's `how: Manner` parameter becomes these options, last in its signature (so
    last in its --help, as they always were), gathered back into a `Manner` when it runs."""

    def decorate(command: F) -> F:
        signature = inspect.signature(command, eval_str=True)
        own = [p for p in signature.parameters.values() if p.name != "how"]
        ending = [
            inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=MANNER[name][1], annotation=MANNER[name][0])
            for name in options
        ]

        @functools.wraps(command)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            how = Manner(**{name: kwargs.pop(name) for name in options})
            return command(*args, how=how, **kwargs)

        parameters = [*own, *ending]
        wrapper.__signature__ = signature.replace(parameters=parameters)  # type: ignore[attr-defined]
        wrapper.__annotations__ = {p.name: p.annotation for p in parameters} | {"return": signature.return_annotation}
        return wrapper  # type: ignore[return-value]

    return decorate


#: A command that records: `-C`, `--no-cache`, `--dry-run`, `--json`.
records = _ending("campaign", "no_cache", "dry_run", "as_json")
#: A command that shows: `-C`, `--no-cache`, `--json`.
reads = _ending("campaign", "no_cache", "as_json")
#: A command about the campaign's own files, not its replay (its links, chat, seeds): `-C`, `--json`.
tells = _ending("campaign", "as_json")


def shown(opened: Campaign, name: str, how: Manner, **args: Any) -> Any:
    """The game's read `name` (its `queries`): printed as the one JSON document with `--json`
    (then None: nothing more to show), else the document for the command's table."""
    from cok.service.queries import read

    doc = read(opened, name, **args)
    if how.as_json:
        emit_json(doc)
        return None
    return doc


def showing(
    name: str, summary: str, opening: Callable[[Manner], Campaign], table: Callable[[Campaign, Any], None]
) -> Callable[..., None]:
    """A command that shows the game's read `name` (`-C`, `--no-cache`, `--json`): the
    document with `--json`, else its table (`table`, which imports its views when it runs)."""

    def show(how: Manner = USUAL) -> None:
        opened = opening(how)
        if (doc := shown(opened, name, how)) is not None:
            table(opened, doc)

    show.__name__ = show.__qualname__ = name
    show.__doc__ = summary
    return refusals(reads(show))


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
