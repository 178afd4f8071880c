"""The Mighty Kingdoms commands (`cok mk …`): setup, the summer months, and what the ledger
shows. Each recording command turns its options into a draft, which the service builds
(`intents.py`), records and reports, as it does for a phone; then it renders. The winter's
commands are in `cli/winter.py`. Recording commands take `--dry-run`; all take `--json`."""

from __future__ import annotations

import re
import typing
from typing import TYPE_CHECKING, Annotated, Any

import typer

from cok.cli.options import (
    USUAL,
    DisplayNameOpt,
    Manner,
    NoteOpt,
    PlayerIdArg,
    chosen,
    complete,
    player_id,
    reads,
    records,
    refusals,
    showing,
    shown,
)
from cok.core.errors import RuleError
from cok.rulesets.mighty_kingdoms.cli.arguments import (
    LIST_WORDS,
    TILES_MAY_BE_NEGATIVE,
    ArmyArg,
    FoundingOrderOpt,
    RollDiceOpt,
    Tile,
    UnitOpt,
    closing,
    example_of,
    open_mk,
    pair_list,
    pairs,
    player_list,
    record,
    rolled_for_me,
    two_dice,
    unit_strengths,
)

if TYPE_CHECKING:
    from cok.core.campaign import Campaign

app = typer.Typer(no_args_is_help=True)

# ---------------------------------------------------------------- setup


@app.command(context_settings=TILES_MAY_BE_NEGATIVE)
@refusals
@records
def kingdom(
    player: PlayerIdArg,
    race: Annotated[str, typer.Option("--race", help="The kingdom's main race (public).")],
    capital: Annotated[str, typer.Option("--capital", metavar="TILE", help="A free start tile.")],
    city: Annotated[str, typer.Option("--city", metavar="TILE", help="A neighbour of the capital.")],
    fortress: Annotated[str, typer.Option("--fortress", metavar="TILE", help="A neighbour of the capital.")],
    villages: Annotated[
        tuple[str, str], typer.Option("--villages", metavar="TILE TILE", help="Two neighbours of the capital.")
    ],
    army: Annotated[
        str, typer.Option("--army", metavar="TILE", help="Where the first army stands: a settlement of the kingdom.")
    ],
    name: DisplayNameOpt = None,
    army_list: Annotated[str | None, typer.Option("--list", help="Kings of War: the first army's list.")] = None,
    unit: UnitOpt = None,
    note: NoteOpt = None,
    how: Manner = USUAL,
) -> None:
    """Found a kingdom: capital, city, fortress, two villages and the first army.

    Example: cok mk kingdom ana --race elves --capital Emberhold --city 1,-4
    --fortress 2,-5 --villages 0,-4 0,-5 --army Emberhold
    """
    player_id(player)
    opened = open_mk(how)
    fields = {"player": player, "name": name, "race": race, "capital": capital, "city": city, "fortress": fortress}
    more = {"villages": list(villages), "army": army, "list": army_list, "units": unit_strengths(unit), "note": note}
    record(opened, "kingdom", {**fields, **more}, how)


@app.command(context_settings=LIST_WORDS)
@refusals
@records
def begin(ctx: typer.Context, order: FoundingOrderOpt = None, note: NoteOpt = None, how: Manner = USUAL) -> None:
    """Close setup: year 1, month 1 begins in the founding order."""
    opened = open_mk(how)
    given = player_list(order, list(ctx.args))
    record(opened, "begin", {"order": given, "note": note}, how)


# ---------------------------------------------------------------- summer


@app.command(context_settings=TILES_MAY_BE_NEGATIVE)
@refusals
@records
def order(
    army: ArmyArg,
    what: Annotated[
        str,
        typer.Argument(metavar="ORDER", help="move, defend, raze or regroup.", autocompletion=complete("order")),
    ],
    to: Annotated[str | None, typer.Argument(metavar="[TILE]", help="move: the adjacent tile.")] = None,
    to_option: Annotated[
        str | None, typer.Option("--to", metavar="TILE", help="move: the adjacent tile (as TILE).", hidden=True)
    ] = None,
    note: NoteOpt = None,
    how: Manner = USUAL,
) -> None:
    """Give an army its order for this month.

    Example: cok mk order ana-1 move Kingsford
    """
    from cok.rulesets.mighty_kingdoms.events import Order

    what = chosen(what, typing.get_args(Order.model_fields["order"].annotation), "ORDER")
    if to is not None and to_option is not None:
        raise typer.BadParameter("give the tile once: as TILE or with --to", param_hint="--to")
    opened = open_mk(how)
    fields = {"army": army, "order": what, "to": to or to_option, "note": note}
    record(opened, "order", fields, how)


@app.command(context_settings=TILES_MAY_BE_NEGATIVE)
@refusals
@records
def resolve(
    army: ArmyArg,
    roll: Annotated[
        tuple[int, int] | None, typer.Option("--roll", metavar="D D", help="Exploring: the 2D6 rolled.")
    ] = None,
    reroll: Annotated[
        tuple[int, int] | None, typer.Option("--reroll", metavar="D D", help="Wizard's towers: the 2D6 after a double.")
    ] = None,
    roll_dice: RollDiceOpt = False,
    note: NoteOpt = None,
    how: Manner = USUAL,
) -> None:
    """Resolve an army's order, in turn (the exploration roll when it moves into the unknown).

    Example: cok mk resolve ana-1 --roll 5 6
    """
    opened = open_mk(how)
    first, second = two_dice(roll, "--roll"), two_dice(reroll, "--reroll")
    if roll_dice and (roll is not None or reroll is not None):
        raise typer.BadParameter("either give the dice or --roll-dice, not both", param_hint="--roll-dice")
    fields = {"army": army, "roll": first, "reroll": second, "note": note}
    record(opened, "resolve", fields, how, rolled_for_me(roll_dice))


def _battles(opened: Campaign, doc: Any) -> None:
    from cok.render.output import show
    from cok.rulesets.mighty_kingdoms.views import battles_views

    show(*battles_views(opened.state, doc))


battles = app.command(context_settings=TILES_MAY_BE_NEGATIVE)(
    showing(
        "battles",
        "What must be fought: contested tiles, who chooses next, Defence, board size, benefit.",
        open_mk,
        _battles,
    )
)


@app.command(context_settings=TILES_MAY_BE_NEGATIVE)
@refusals
@records
def battle(
    tile: Tile,
    attacker: Annotated[str, typer.Option("--attacker", metavar="P", help="The player who chose this battle.")],
    defender: Annotated[str, typer.Option("--defender", metavar="P", help="The enemy chosen.")],
    result: Annotated[
        str | None, typer.Option("--result", metavar="P|draw", help="Kings of War: the winner, or draw.")
    ] = None,
    dice: Annotated[
        list[str] | None, typer.Option("--dice", metavar="ARMY=N", help="Simple: each upright army's d6 (repeat).")
    ] = None,
    allocate: Annotated[
        list[str] | None,
        typer.Option("--allocate", metavar="A:B", help="Simple: A's die allocated to army B, in order (repeat)."),
    ] = None,
    roll_dice: RollDiceOpt = False,
    retreat: Annotated[
        list[str] | None, typer.Option("--retreat", metavar="ARMY=TILE", help="Where a leaving army goes (repeat).")
    ] = None,
    advance: Annotated[
        str | None,
        typer.Option("--advance", metavar="ARMY=TILE", help="The winner moves one army to an adjacent tile."),
    ] = None,
    strength: Annotated[
        list[str] | None,
        typer.Option("--strength", metavar="ARMY:UNIT=±1", help="Kings of War: a Unit Strength change (repeat)."),
    ] = None,
    slaughter: Annotated[
        str | None, typer.Option("--slaughter", metavar="ARMY", help="Every enemy army on its side: the one removed.")
    ] = None,
    note: NoteOpt = None,
    how: Manner = USUAL,
) -> None:
    """Record a battle in a contested tile.

    Example: cok mk battle Kingsford --attacker ana --defender bo --dice ana-1=5
    --dice bo-2=3 --allocate ana-1:bo-2 --allocate bo-2:ana-1 --retreat bo-2=Mereside
    """
    opened = open_mk(how)
    rolled = {a: _number(v, "--dice") for a, v in pairs(dice, "--dice").items()} or None
    if roll_dice and rolled:
        raise typer.BadParameter("either give the dice or --roll-dice, not both", param_hint="--roll-dice")
    plan = [[a, b] for a, b in pair_list(allocate, "--allocate", ":")] or None  # in order: a die's army may repeat
    changes: dict[str, dict[str, int]] = {}
    for item in strength or []:
        army_unit, ok, value = item.rpartition("=")
        army_id, ok2, unit = army_unit.partition(":")
        if not (ok and ok2) or value.strip() not in ("+1", "1", "0", "-1"):
            raise typer.BadParameter(
                f"takes ARMY:UNIT=+1, =0 or =-1, like {example_of('--strength')} (got {item!r})",
                param_hint="--strength",
            )
        changes.setdefault(army_id.strip(), {})[unit.strip()] = int(value)
    fields = {"tile": tile, "attacker": attacker, "defender": defender, "result": result, "dice": rolled}
    moved = {"retreat": pairs(retreat, "--retreat"), "advance": pairs([advance] if advance else None, "--advance")}
    more = {"allocate": plan, **{k: v or None for k, v in moved.items()}, "strength": changes or None}
    given = {**fields, **more, "slaughter": slaughter, "note": note}
    try:
        record(opened, "battle", given, how, rolled_for_me(roll_dice))
    except RuleError as error:  # the rules' questions, as this command's options answer them
        said = re.sub(r"--allocate-(\d+) NAME", r"--allocate A:B (allocation \1)", str(error))
        raise RuleError(re.sub(r"--retreat-([\w-]+) NAME", r"--retreat \1=TILE", said)) from None


def _number(value: str, option: str) -> int:
    if not value.isdigit():
        raise typer.BadParameter(f"a die shows 1 to 6 (got {value!r})", param_hint=option)
    return int(value)


reform = app.command(context_settings=LIST_WORDS)(
    closing("reform", "Close the month: terrain, razes, control, Unit Strength, the new player order.")
)

from cok.rulesets.mighty_kingdoms.cli import winter  # noqa: E402 - its commands come next in --help

winter.register(app)


# ---------------------------------------------------------------- showing


def _status(opened: Campaign, doc: Any) -> None:
    from cok.render.output import show
    from cok.rulesets.mighty_kingdoms.views import status_views

    show(*status_views(opened.name, opened.state, doc))


def _kingdoms(opened: Campaign, doc: Any) -> None:
    from cok.render.output import show
    from cok.rulesets.mighty_kingdoms.views import kingdoms_grid

    show(kingdoms_grid(opened.name, opened.state, doc))


status = app.command(context_settings=TILES_MAY_BE_NEGATIVE)(
    showing("status", "Year, season, month, phase, player order, and what the ledger waits for.", open_mk, _status)
)
kingdoms = app.command(context_settings=TILES_MAY_BE_NEGATIVE)(
    showing("kingdoms", "Each kingdom: tiles, settlements, capital, armies, gold, food, artefacts.", open_mk, _kingdoms)
)


@app.command(context_settings=TILES_MAY_BE_NEGATIVE)
@refusals
@reads
def armies(
    player: Annotated[str | None, typer.Option("--player", metavar="P", help="Only this kingdom's armies.")] = None,
    how: Manner = USUAL,
) -> None:
    """Every army: tile, points, upright or on its side, this month's order."""
    opened = open_mk(how)
    if (doc := shown(opened, "armies", how, player=player)) is None:
        return
    from cok.render.output import show
    from cok.rulesets.mighty_kingdoms.views import armies_grid

    show(armies_grid(opened.state, doc))
