"""The Clash of Kings commands (`cok`'s top-level ones): join, where, battle, paint, week,
locations, adjust and modes. Each recording command turns its options into a draft (the
event's fields as typed), which the service builds (`intents.py`), records and reports,
as it does for the server; then it renders. What it shows is asked of the rules (which
locations are free, who attacks) and of the views."""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING, Annotated

import typer

from cok.cli.options import (
    USUAL,
    DisplayNameOpt,
    JsonOpt,
    Manner,
    NoteOpt,
    PlayerIdArg,
    ReasonOpt,
    complete,
    emit_json,
    given,
    open_valid,
    player_id,
    reads,
    records,
    refusals,
    ruling,
)
from cok.cli.recording import record_drafts
from cok.core.dice import ROLL
from cok.service.drafts import Draft

if TYPE_CHECKING:
    from cok.core.campaign import Campaign
    from cok.rulesets.clash_of_kings.rules.state import State

app = typer.Typer()

RULESET = "clash-of-kings"

PLAYERS = complete("player")
LOCATIONS = complete("location")
FirstPlayer = Annotated[str, typer.Argument(metavar="P1", help="One player.", autocompletion=PLAYERS)]
SecondPlayer = Annotated[str, typer.Argument(metavar="P2", help="The other player.", autocompletion=PLAYERS)]
AttackerOpt = Annotated[
    str | None,
    typer.Option(
        "--attacker", metavar="P", help="The roll-off's winner, when the players rolled off.", autocompletion=PLAYERS
    ),
]
BrotherhoodOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--brotherhood",
        metavar="P",
        help="A player fighting as the Brotherhood Without Banners (repeatable).",
        autocompletion=PLAYERS,
    ),
]


def _open(campaign: str | None, no_cache: bool = False) -> Campaign:
    """The campaign, which must be a Clash of Kings one."""
    return open_valid(campaign, no_cache).require(RULESET, "see `cok --help`")


def _names(state: State) -> dict[str, str]:
    return {pid: p.name for pid, p in state.players.items()}


# ---------------------------------------------------------------- commands


@app.command()
@refusals
@records
def join(
    player: PlayerIdArg,
    faction: Annotated[
        str,
        typer.Option(
            "--faction",
            "-f",
            metavar="F",
            help="The player's faction, e.g. stark, martell.",
            autocompletion=complete("faction"),
        ),
    ],
    name: DisplayNameOpt = None,
    castle: Annotated[
        str | None,
        typer.Option(
            "--castle",
            metavar="CASTLE",
            help="Starting castle (default: the faction's home).",
            autocompletion=LOCATIONS,
        ),
    ] = None,
    territories: Annotated[
        tuple[str, str, str] | None,
        typer.Option("--territories", metavar="A B C", help="Three adjacent territories, when every castle is held."),
    ] = None,
    note: NoteOpt = None,
    how: Manner = USUAL,
) -> None:
    """Add a player, with a starting castle (or three territories once every castle is held).

    Example: cok join tim --faction martell --name Tim
    """
    opened = _open(how.campaign, how.no_cache)
    player_id(player)
    fields = {"player": player, "name": name, "faction": faction, "castle": castle, "note": note}
    typed = given({**fields, "territories": list(territories) if territories else None})
    record_drafts(opened, [Draft("join", typed)], **how.recording())


@app.command()
@refusals
@reads
def where(
    p1: FirstPlayer,
    p2: SecondPlayer,
    attacker: AttackerOpt = None,
    brotherhood: BrotherhoodOpt = None,
    how: Manner = USUAL,
) -> None:
    """Who chooses the battle's location, and the legal locations.

    Example: cok where tim matt
    """
    opened = _open(how.campaign, how.no_cache)
    if how.as_json:
        from cok.service.queries import read

        emit_json(read(opened, "where", players=[p1, p2], attacker=attacker, brotherhood=brotherhood or []))
        return
    state = opened.state
    from cok.rulesets.clash_of_kings.intents import plan

    found = plan(state, p1, p2, attacker, brotherhood or [])
    from cok.render.output import show
    from cok.rulesets.clash_of_kings.views import where_views

    show(*where_views(state, found, _names(state)))


def _pairs(given: list[str] | None, what: str) -> list[str] | None:
    """`P=N` values as typed, each checked for its shape (a command-line error, exit 2)."""
    from cok.rulesets.clash_of_kings.intents import pair

    for item in given or []:
        if pair(item) is None:
            raise typer.BadParameter(f"takes PLAYER=NUMBER, like --{what} tim=7 (got {item!r})", param_hint=f"--{what}")
    return given or None


@app.command()
@refusals
@records
def battle(
    p1: FirstPlayer,
    p2: SecondPlayer,
    at: Annotated[
        str, typer.Option("--at", metavar="LOCATION", help="Where the battle was fought.", autocompletion=LOCATIONS)
    ],
    winner: Annotated[
        str | None,
        typer.Option("--winner", metavar="P", help="Who won (else decided from --vp).", autocompletion=PLAYERS),
    ] = None,
    vp: Annotated[list[str] | None, typer.Option("--vp", metavar="P=N", help="Victory points, e.g. tim=7.")] = None,
    remaining: Annotated[
        list[str] | None, typer.Option("--remaining", metavar="P=N", help="Points left on the table (initial roster).")
    ] = None,
    attacker: AttackerOpt = None,
    roll_dice: Annotated[
        bool, typer.Option("--roll-dice", help="A roll-off: cok rolls it (fair dice, see docs/dice.md).")
    ] = False,
    mode: Annotated[
        str | None,
        typer.Option(
            "--mode", metavar="MODE", help="The game mode played (see `cok modes`).", autocompletion=complete("mode")
        ),
    ] = None,
    points: Annotated[int | None, typer.Option("--points", min=1, help="Army size; at most the week's limit.")] = None,
    week: Annotated[
        int | None, typer.Option("--week", min=1, help="The week it was fought (default: this week).")
    ] = None,
    brotherhood: BrotherhoodOpt = None,
    abandon: Annotated[
        str | None,
        typer.Option("--abandon", metavar="LOCATION", help="A location the winner abandons.", autocompletion=LOCATIONS),
    ] = None,
    no_occupy: Annotated[
        bool, typer.Option("--no-occupy", help="Under supply lines: the winner declines to occupy.")
    ] = False,
    override: Annotated[str | None, ruling("Organiser's ruling: any location.")] = None,
    again: Annotated[
        bool, typer.Option("--again", help="Record it although the same battle is already recorded.")
    ] = False,
    note: NoteOpt = None,
    how: Manner = USUAL,
) -> None:
    """Record a battle: who won, and what the winner occupies.

    Example: cok battle tim matt --at Starfall --vp tim=7 --vp matt=5
    """
    opened = _open(how.campaign, how.no_cache)
    fields = {
        "players": [p1, p2],
        "location": at,
        "week": week,
        "attacker": attacker,
        "winner": winner,
        "vp": _pairs(vp, "vp"),
        "remaining": _pairs(remaining, "remaining"),
        "mode": mode,
        "points": points,
        "brotherhood": brotherhood or None,
        "abandon": abandon,
        "occupy": False if no_occupy else None,
        "override": override,
        "note": note,
    }
    if roll_dice and attacker:
        raise typer.BadParameter("either name the roll-off's winner or --roll-dice, not both", param_hint="--roll-dice")
    rolled = {ROLL: True} if roll_dice else None
    drafts = [Draft("battle", given(fields))]
    record_drafts(opened, drafts, **how.recording(), again=again, answers=rolled)


@app.command()
@refusals
@records
def paint(
    player: Annotated[str, typer.Argument(help="The player who painted.", autocompletion=PLAYERS)],
    fully_painted: Annotated[
        bool, typer.Option("--fully-painted", help="Played this week with a fully painted army.")
    ] = False,
    units: Annotated[int, typer.Option("--units", min=0, help="New units painted and fielded this week.")] = 0,
    models: Annotated[int, typer.Option("--models", min=0, help="NCU / attachment models painted and fielded.")] = 0,
    commissioned: Annotated[
        str | None,
        typer.Option(
            "--commissioned", metavar="P", help="Fully painted a unit of this other player.", autocompletion=PLAYERS
        ),
    ] = None,
    week: Annotated[int | None, typer.Option("--week", min=1, help="The week (default: this week).")] = None,
    note: NoteOpt = None,
    how: Manner = USUAL,
) -> None:
    """Record a week's painting: the painting bonus.

    Example: cok paint tim --fully-painted --units 2
    """
    opened = _open(how.campaign, how.no_cache)
    fields = {"player": player, "week": week, "fully_painted": fully_painted, "units": units, "models": models}
    typed = given({**fields, "commissioned": commissioned, "note": note})
    record_drafts(opened, [Draft("painting", typed)], **how.recording())


@app.command("week")
@refusals
@records
def week_(
    next_: Annotated[bool, typer.Option("--next", help="Start the next week.")] = False,
    limit: Annotated[
        int | None, typer.Option("--limit", min=1, help="With --next: the new week's limit (default: + step).")
    ] = None,
    note: NoteOpt = None,
    how: Manner = USUAL,
) -> None:
    """Show the week and its points limit; with --next, start the next week.

    Example: cok week --next --limit 26
    """
    if limit is not None and not next_:
        raise typer.BadParameter("--limit goes with --next", param_hint="--limit")
    opened = _open(how.campaign, how.no_cache)
    if next_:
        drafts = [Draft("week", given({"limit": limit, "note": note}))]
        record_drafts(opened, drafts, **how.recording())
        return
    state = opened.state
    if how.as_json:
        from cok.service.queries import read

        emit_json(read(opened, "week"))
        return
    from cok.core.deadlines import now, when
    from cok.render.output import show
    from cok.service.deadlines import pending

    due = [d.due for d in pending(opened) if d.due is not None]
    said = f"; week {state.week + 1} is due {when(due[0], now(), due[0].tzinfo or dt.UTC)}" if due else ""
    show(f"{opened.name}: week {state.week}, points limit {state.limit}{said}")


@app.command()
@refusals
@reads
def locations(
    free: Annotated[bool, typer.Option("--free", help="Only unoccupied locations.")] = False,
    player: Annotated[
        str | None,
        typer.Option("--player", metavar="P", help="Only this player's locations.", autocompletion=PLAYERS),
    ] = None,
    how: Manner = USUAL,
) -> None:
    """The map's locations with kind, value, occupant and bonus.

    Example: cok locations --free
    """
    opened = _open(how.campaign, how.no_cache)
    if how.as_json:
        from cok.service.queries import read

        emit_json(read(opened, "locations", free=free, player=player))
        return
    state = opened.state
    from cok.rulesets.clash_of_kings.rules.locations import listed

    title = state.geo.name + (" — unoccupied" if free else "")
    pid = None
    if player:
        from cok.rulesets.clash_of_kings.intents import player as find_player

        pid = find_player(state, player)
        title += f" — held by {state.players[pid].name}"
    names = listed(state, free=free, held_by=pid)
    from cok.render.output import show
    from cok.rulesets.clash_of_kings.views import locations_grid

    show(locations_grid(state, names, title), page=True)


@app.command(context_settings={"ignore_unknown_options": True})
@refusals
@records
def adjust(
    player: Annotated[str, typer.Argument(help="The player.", autocompletion=PLAYERS)],
    cp: Annotated[int, typer.Argument(metavar="CP", help="Bonus CP to add (negative to take away).")],
    reason: ReasonOpt,
    note: NoteOpt = None,
    how: Manner = USUAL,
) -> None:
    """Correct a player's bonus CP (an organiser's ruling).

    Example: cok adjust tim -2 --reason "late army list"
    """
    opened = _open(how.campaign, how.no_cache)
    drafts = [Draft("adjust", given({"player": player, "cp": cp, "reason": reason, "note": note}))]
    record_drafts(opened, drafts, **how.recording())


@app.command()
@refusals
def modes(
    mode: Annotated[str | None, typer.Argument(metavar="MODE", help="One mode to show in full.")] = None,
    campaign: Annotated[
        str | None, typer.Option("--campaign", "-C", metavar="DIR", help="Only the modes this campaign allows.")
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """The battle game modes, or one mode's set-up, special rules and scoring.

    Example: cok modes a-clash-of-kings
    """
    from cok.render.output import show
    from cok.rulesets.clash_of_kings.modes import catalogue, find_mode
    from cok.rulesets.clash_of_kings.views import mode_lines, modes_grid

    if as_json:
        from cok.rulesets.clash_of_kings.queries import modes_doc
        from cok.service.queries import read

        emit_json(read(_open(campaign), "modes", mode=mode) if campaign else modes_doc(None, mode))
        return
    known = catalogue()
    names = list(known)
    house: list[str] = []
    if campaign:
        allowed = _open(campaign).state.settings.modes
        names = [m for m in names if m in allowed]
        house = [m for m in allowed if m not in known]
    chosen = [known[find_mode(mode, names)]] if mode else [known[m] for m in names]
    if mode:
        show(*mode_lines(chosen[0]))
    else:
        extra = [f"House modes this campaign allows: {', '.join(house)}"] if house else []
        show(modes_grid(chosen), *extra, "Show one in full: cok modes MODE")
