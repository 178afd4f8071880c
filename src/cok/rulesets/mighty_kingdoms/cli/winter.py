"""The winter's commands (`cok mk winter`, `tithe`, `build`, `recruit`, `feed`, `deploy`,
`spring`) and the wizard's towers' (`quest`, `artefact`), registered on `cok mk`'s app: each
its options as a draft, recorded through the service (`intents.py` builds the event)."""

from __future__ import annotations

import typing
from typing import Annotated

import typer

from cok.cli.options import (
    USUAL,
    Manner,
    NoteOpt,
    chosen,
    complete,
    records,
    refusals,
    ruling,
)
from cok.rulesets.mighty_kingdoms.cli.arguments import (
    LIST_WORDS,
    TILES_MAY_BE_NEGATIVE,
    ArmyArg,
    PlayerArg,
    RollDiceOpt,
    Tile,
    UnitOpt,
    closing,
    open_mk,
    pairs,
    record,
    rolled_for_me,
    unit_strengths,
)


def register(app: typer.Typer) -> None:
    """Add the winter's commands to `cok mk`, in the order of the winter's steps."""
    for command in (winter, tithe, build, recruit, feed, deploy, spring, quest, artefact):
        settings = LIST_WORDS if command is spring else TILES_MAY_BE_NEGATIVE
        app.command(context_settings=settings)(command if command is spring else refusals(command))


@records
def winter(
    recall: Annotated[
        list[str] | None,
        typer.Option("--recall", metavar="P=TILE", help="A kingdom without a capital: where its armies go."),
    ] = None,
    note: NoteOpt = None,
    how: Manner = USUAL,
) -> None:
    """Start winter: armies recalled, resources gathered."""
    opened = open_mk(how)
    record(opened, "winter", {"recall": pairs(recall, "--recall"), "note": note}, how)


@records
def tithe(
    giver: Annotated[str, typer.Argument(metavar="FROM", help="The kingdom that gives.")],
    receiver: Annotated[str, typer.Argument(metavar="TO", help="The kingdom that receives.")],
    gold: Annotated[int, typer.Option("--gold", min=0, max=1, help="0 or 1 gold.")] = 0,
    food: Annotated[int, typer.Option("--food", min=0, max=1, help="0 or 1 food.")] = 0,
    note: NoteOpt = None,
    how: Manner = USUAL,
) -> None:
    """A tithe: up to 1 gold and up to 1 food to another kingdom."""
    opened = open_mk(how)
    fields = {"from": giver, "to": receiver, "gold": gold, "food": food, "note": note}
    record(opened, "tithe", fields, how)


@records
def build(
    player: PlayerArg,
    tile: Tile,
    settlement: Annotated[
        str,
        typer.Argument(
            metavar="SETTLEMENT", help="village, city, fortress or capital.", autocompletion=complete("settlement")
        ),
    ],
    note: NoteOpt = None,
    how: Manner = USUAL,
) -> None:
    """Build or upgrade a settlement on a tile the kingdom controls."""
    from cok.rulesets.mighty_kingdoms.events import Build

    settlement = chosen(settlement, typing.get_args(Build.model_fields["settlement"].annotation), "SETTLEMENT")
    opened = open_mk(how)
    fields = {"player": player, "tile": tile, "settlement": settlement, "note": note}
    record(opened, "build", fields, how)


@records
def recruit(
    player: PlayerArg,
    tile: Tile,
    disband: Annotated[
        str | None, typer.Option("--disband", metavar="ARMY", help="At the army limit: the army disbanded.")
    ] = None,
    army_list: Annotated[str | None, typer.Option("--list", help="Kings of War: the new army's list.")] = None,
    unit: UnitOpt = None,
    allied: Annotated[bool, typer.Option("--allied", help="Kings of War: an allied army.")] = False,
    note: NoteOpt = None,
    how: Manner = USUAL,
) -> None:
    """Recruit a new army at a fortress (1 gold)."""
    opened = open_mk(how)
    fields = {"player": player, "tile": tile, "disband": disband, "list": army_list, "units": unit_strengths(unit)}
    record(opened, "recruit", {**fields, "allied": allied, "note": note}, how)


@records
def feed(
    player: PlayerArg,
    unfed: Annotated[
        list[str] | None, typer.Option("--unfed", metavar="ARMY", help="An army not fed, removed (repeat).")
    ] = None,
    note: NoteOpt = None,
    how: Manner = USUAL,
) -> None:
    """Feed a kingdom's armies (1 food each); the unfed are removed, the rest of the stores lost."""
    opened = open_mk(how)
    record(
        opened,
        "feed",
        {"player": player, "unfed": list(unfed or []), "note": note},
        how,
    )


@records
def deploy(army: ArmyArg, tile: Tile, note: NoteOpt = None, how: Manner = USUAL) -> None:
    """Deploy an army on a settlement of its kingdom (village 1, city 2, capital or fortress 3)."""
    opened = open_mk(how)
    record(opened, "deploy", {"army": army, "tile": tile, "note": note}, how)


spring = closing("spring", "Close winter: the next year's month 1 begins.")


@records
def quest(
    player: PlayerArg,
    tower: Annotated[str, typer.Option("--tower", metavar="TILE", help="The wizard's tower.")],
    hero: Annotated[str, typer.Option("--hero", help="The hero unit.")],
    army: Annotated[str | None, typer.Option("--army", metavar="ARMY", help="The army the hero comes from.")] = None,
    roll: Annotated[int | None, typer.Option("--roll", min=1, max=6, help="The d6.")] = None,
    roll_dice: RollDiceOpt = False,
    points: Annotated[
        int,
        typer.Option(
            "--points", min=0, help="The hero's points on its list: the ledger adds 1 to the roll per full 100."
        ),
    ] = 0,
    artefact: Annotated[str | None, typer.Option("--artefact", help="On 4 or more: the artefact's name.")] = None,
    note: NoteOpt = None,
    how: Manner = USUAL,
) -> None:
    """Wizard's towers: a hero's quest in winter."""
    if roll_dice == (roll is not None):
        raise typer.BadParameter("give the d6 with --roll, or --roll-dice", param_hint="--roll")
    opened = open_mk(how)
    fields = {"player": player, "tower": tower, "army": army, "hero": hero, "roll": roll, "points": points}
    record(
        opened,
        "quest",
        {**fields, "artefact": artefact, "note": note},
        how,
        rolled_for_me(roll_dice),
    )


@records
def artefact(
    art: Annotated[str, typer.Argument(metavar="ART", help="The artefact, like art-2.")],
    to: Annotated[str, typer.Option("--to", metavar="P|pool", help="The kingdom it goes to, or pool.")],
    override: Annotated[str | None, ruling("The organiser's reason when the ledger sees no cause.")] = None,
    note: NoteOpt = None,
    how: Manner = USUAL,
) -> None:
    """Wizard's towers: an artefact changes hands, or is lost to the pool."""
    opened = open_mk(how)
    fields = {"artefact": art, "to": to, "override": override, "note": note}
    record(opened, "artefact", fields, how)
