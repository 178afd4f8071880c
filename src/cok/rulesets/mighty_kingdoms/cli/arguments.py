"""What the `cok mk` commands share: their arguments and options, opening the campaign,
recording a draft, and reading `A=B` pairs, unit lists and dice from the command line."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated, Any

import typer

from cok.cli.drafts import record_given
from cok.cli.options import USUAL, Manner, NoteOpt, complete, open_valid, records, refusals

if TYPE_CHECKING:
    from cok.core.campaign import Campaign


#: A tile such as `-6,3` on the command line is an argument, not an unknown option.
TILES_MAY_BE_NEGATIVE = {"ignore_unknown_options": True}

RULESET = "mighty-kingdoms"

Tile = Annotated[
    str, typer.Argument(metavar="TILE", help='A tile: its name or "q,r".', autocompletion=complete("tile"))
]
PlayerArg = Annotated[
    str, typer.Argument(metavar="PLAYER", help="A kingdom's player id or name.", autocompletion=complete("player"))
]
ArmyArg = Annotated[str, typer.Argument(metavar="ARMY", help="An army, like ana-2.", autocompletion=complete("army"))]
#: `--order bo ana cy`: the words after the option's first are the command's extra words.
LIST_WORDS = {"ignore_unknown_options": True, "allow_extra_args": True}


def _order(help: str) -> Any:
    """`--order P…`, kingdoms in an order, its words read with LIST_WORDS; its help the command's."""
    return typer.Option("--order", metavar="P…", help=help)


OrderOpt = Annotated[
    list[str] | None, _order("Players tied on armies, in the order their roll-off gave (--order bo ana cy).")
]
FoundingOrderOpt = Annotated[
    list[str] | None, _order("Every kingdom once, in the order they were founded, as a check (--order ana bo cy).")
]
RollDiceOpt = Annotated[bool, typer.Option("--roll-dice", help="Let the ledger roll the dice (they are recorded).")]
UnitOpt = Annotated[
    list[str] | None,
    typer.Option("--unit", metavar="NAME=US", help="Kings of War: a unit and its Unit Strength (repeat)."),
]


def open_mk(how: Manner) -> Campaign:
    return open_valid(how.campaign, how.no_cache).require(RULESET, "see `cok mk --help`")


record = record_given  # options → draft → the service (`intents.py` builds the event, the rules decide)


def closing(kind: str, summary: str) -> Callable[..., None]:
    """`reform` and `spring`, one command: the period closed and the next begun, in the order
    the roll-off gave (`--order`) or with the ledger rolling it (`--roll-dice`)."""

    def close(
        ctx: typer.Context,
        order: OrderOpt = None,
        roll_dice: RollDiceOpt = False,
        note: NoteOpt = None,
        how: Manner = USUAL,
    ) -> None:
        given = player_list(order, list(ctx.args))
        if roll_dice and given:
            raise typer.BadParameter(
                "either give the roll-off's order or --roll-dice, not both", param_hint="--roll-dice"
            )
        record(open_mk(how), kind, {"order": given, "note": note}, how, rolled_for_me(roll_dice))

    close.__name__ = close.__qualname__ = kind
    close.__doc__ = summary
    return refusals(records(close))


def rolled_for_me(roll_dice: bool) -> dict[str, Any]:
    """`--roll-dice`: the answer that asks the ledger to roll (`intents.ROLL`)."""
    from cok.rulesets.mighty_kingdoms.intents import ROLL

    return {ROLL: True} if roll_dice else {}


def player_list(given: list[str] | None, more: list[str] | None = None) -> list[str] | None:
    """Players as every list option takes them, separate words (`--order bo ana cy`, the words
    after the first being the command's extra words `more`), or repeated (`--order bo --order
    ana`); an older script's commas (`--order bo,ana,cy`) still work."""
    if more and not given:
        raise typer.BadParameter(f"unexpected {' '.join(more)!r}", param_hint="--order")
    if not given:
        return None
    return [p.strip() for item in [*given, *(more or [])] for p in item.split(",") if p.strip()]


def pair_list(given: list[str] | None, option: str, sep: str = "=") -> list[tuple[str, str]]:
    """`A=B` items in the order given; a malformed one is a bad option value (exit 2)."""
    found = []
    for item in given or []:
        left, ok, right = item.partition(sep)
        if not ok or not left.strip() or not right.strip():
            raise typer.BadParameter(
                f"takes LEFT{sep}RIGHT, like {example_of(option)} (got {item!r})", param_hint=option
            )
        found.append((left.strip(), right.strip()))
    return found


def pairs(given: list[str] | None, option: str, sep: str = "=") -> dict[str, str]:
    return dict(pair_list(given, option, sep))


def example_of(option: str) -> str:
    return {
        "--dice": "--dice ana-1=5",
        "--retreat": '--retreat bo-2="4,-5"',
        "--advance": "--advance ana-1=Kingsford",
        "--recall": "--recall ana=Kingsford",
        "--unit": "--unit Spearmen=2",
        "--allocate": "--allocate ana-1:bo-2",
        "--strength": "--strength ana-1:Spearmen=+1",
    }.get(option, option)


def unit_strengths(given: list[str] | None) -> dict[str, int] | None:
    if not given:
        return None
    units = {}
    for name, value in pairs(given, "--unit").items():
        if not value.lstrip("+-").isdigit():
            raise typer.BadParameter(f"a Unit Strength is a whole number (got {value!r})", param_hint="--unit")
        units[name] = int(value)
    return units


def two_dice(values: tuple[int, int] | None, option: str) -> list[int] | None:
    if values is None:
        return None
    if not all(1 <= v <= 6 for v in values):
        raise typer.BadParameter(f"dice show 1 to 6 (got {values[0]} {values[1]})", param_hint=option)
    return list(values)
