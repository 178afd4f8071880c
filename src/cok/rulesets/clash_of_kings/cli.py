"""The Clash of Kings commands (`cok`'s top-level ones): join, where, battle, paint, week,
locations, adjust and modes. Each parses, asks the ledger, renders. No rules here."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

import typer

from cok.cli.options import (
    CampaignOpt,
    DryRunOpt,
    JsonOpt,
    NoCacheOpt,
    NoteOpt,
    ReasonOpt,
    complete,
    emit_json,
    open_valid,
    refusals,
)
from cok.cli.recording import record_and_show
from cok.core.errors import RuleError

if TYPE_CHECKING:
    from cok.core.campaign import Campaign
    from cok.core.events import EventBase
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


def _player(state: State, typed: str) -> str:
    from cok.rulesets.clash_of_kings.rules.start import find_player

    return find_player(state, typed)


def _names(state: State) -> dict[str, str]:
    return {pid: p.name for pid, p in state.players.items()}


# ---------------------------------------------------------------- commands


@app.command()
@refusals
def join(
    player: Annotated[str, typer.Argument(help="The player's id: lowercase letters, digits, '-' and '_'.")],
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
    name: Annotated[str | None, typer.Option("--name", help="Display name (default: the id).")] = None,
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
    campaign: CampaignOpt = None,
    no_cache: NoCacheOpt = False,
    dry_run: DryRunOpt = False,
    as_json: JsonOpt = False,
) -> None:
    """Add a player, with a starting castle (or three territories once every castle is held).

    Example: cok join tim --faction martell --name Tim
    """
    opened = _open(campaign, no_cache)
    state = opened.state
    if player != player.lower():
        raise typer.BadParameter(
            f"player ids are lowercase: use {player.lower()!r} (and --name {player!r})", param_hint="PLAYER"
        )

    from cok.rulesets.clash_of_kings.events import Join
    from cok.rulesets.clash_of_kings.rules.start import faction_id

    def build(answers: dict[str, Any]) -> EventBase:
        return Join(
            player=player,
            name=name,
            faction=faction_id(state, faction),
            castle=answers.get("castle") or (state.geo.find(castle) if castle else None),
            territories=[state.geo.find(t) for t in territories] if territories else None,
            note=note,
        )

    record_and_show(opened, build, dry_run=dry_run, as_json=as_json, no_cache=no_cache)


@app.command()
@refusals
def where(
    p1: FirstPlayer,
    p2: SecondPlayer,
    attacker: AttackerOpt = None,
    brotherhood: BrotherhoodOpt = None,
    campaign: CampaignOpt = None,
    no_cache: NoCacheOpt = False,
    as_json: JsonOpt = False,
) -> None:
    """Who chooses the battle's location, and the legal locations.

    Example: cok where tim matt
    """
    state = _open(campaign, no_cache).state
    a, b = _player(state, p1), _player(state, p2)
    if a == b:
        raise RuleError(f"a battle needs two different players, not {a} twice")
    bwb = [_player(state, p) for p in brotherhood or []]
    given = _player(state, attacker) if attacker else None
    from cok.rulesets.clash_of_kings.rules.where import where as find_where

    found = find_where(state, a, b, bwb, given)
    if as_json:
        from cok.rulesets.clash_of_kings.documents import where_doc

        emit_json(where_doc(state, found))
        return
    from cok.render.output import show
    from cok.rulesets.clash_of_kings.views import where_views

    show(*where_views(state, found, _names(state)))


def _scores(state: State, given: list[str] | None, what: str) -> dict[str, int] | None:
    if not given:
        return None
    scores: dict[str, int] = {}
    for item in given:
        who, sep, number = item.partition("=")
        if not sep or not number.strip().lstrip("-").isdigit():
            raise typer.BadParameter(f"takes PLAYER=NUMBER, like --{what} tim=7 (got {item!r})", param_hint=f"--{what}")
        scores[_player(state, who.strip())] = int(number)
    return scores


@app.command()
@refusals
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
    override: Annotated[
        str | None, typer.Option("--override", metavar="REASON", help="Organiser's ruling: any location.")
    ] = None,
    again: Annotated[
        bool, typer.Option("--again", help="Record it although the same battle is already recorded.")
    ] = False,
    note: NoteOpt = None,
    campaign: CampaignOpt = None,
    no_cache: NoCacheOpt = False,
    dry_run: DryRunOpt = False,
    as_json: JsonOpt = False,
) -> None:
    """Record a battle: who won, and what the winner occupies.

    Example: cok battle tim matt --at Starfall --vp tim=7 --vp matt=5
    """
    opened = _open(campaign, no_cache)
    state = opened.state
    a, b = _player(state, p1), _player(state, p2)

    from cok.rulesets.clash_of_kings.events import Battle
    from cok.rulesets.clash_of_kings.rules.battle import game_mode

    def build(answers: dict[str, Any]) -> EventBase:
        chosen = answers.get("abandon") or (state.geo.find(abandon) if abandon else None)
        return Battle(
            players=[a, b],
            location=state.geo.find(at),
            week=week,
            attacker=answers.get("attacker") or (_player(state, attacker) if attacker else None),
            winner=_player(state, winner) if winner else None,
            vp=_scores(state, vp, "vp"),
            remaining=answers.get("remaining") or _scores(state, remaining, "remaining"),
            mode=game_mode(state, mode) if mode else None,
            points=points,
            brotherhood=[_player(state, p) for p in brotherhood or []],
            abandon=chosen,
            occupy=answers.get("occupy", not no_occupy),
            override=override,
            note=note,
        )

    record_and_show(opened, build, dry_run=dry_run, as_json=as_json, no_cache=no_cache, again=again)


@app.command()
@refusals
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
    campaign: CampaignOpt = None,
    no_cache: NoCacheOpt = False,
    dry_run: DryRunOpt = False,
    as_json: JsonOpt = False,
) -> None:
    """Record a week's painting: the painting bonus.

    Example: cok paint tim --fully-painted --units 2
    """
    opened = _open(campaign, no_cache)
    state = opened.state
    who = _player(state, player)

    from cok.rulesets.clash_of_kings.events import Painting

    def build(_: dict[str, Any]) -> EventBase:
        return Painting(
            player=who,
            week=week,
            fully_painted=fully_painted,
            units=units,
            models=models,
            commissioned=_player(state, commissioned) if commissioned else None,
            note=note,
        )

    record_and_show(opened, build, dry_run=dry_run, as_json=as_json, no_cache=no_cache)


@app.command("week")
@refusals
def week_(
    next_: Annotated[bool, typer.Option("--next", help="Start the next week.")] = False,
    limit: Annotated[
        int | None, typer.Option("--limit", min=1, help="With --next: the new week's limit (default: + step).")
    ] = None,
    note: NoteOpt = None,
    campaign: CampaignOpt = None,
    no_cache: NoCacheOpt = False,
    dry_run: DryRunOpt = False,
    as_json: JsonOpt = False,
) -> None:
    """Show the week and its points limit; with --next, start the next week.

    Example: cok week --next --limit 26
    """
    if limit is not None and not next_:
        raise typer.BadParameter("--limit goes with --next", param_hint="--limit")
    opened = _open(campaign, no_cache)
    if next_:
        from cok.rulesets.clash_of_kings.events import Week

        record_and_show(
            opened, lambda _: Week(limit=limit, note=note), dry_run=dry_run, as_json=as_json, no_cache=no_cache
        )
        return
    state = opened.state
    if as_json:
        emit_json({"campaign": opened.name, "week": state.week, "points_limit": state.limit, "limits": state.limits})
        return
    from cok.render.output import show

    show(f"{opened.name}: week {state.week}, points limit {state.limit}")


@app.command()
@refusals
def locations(
    free: Annotated[bool, typer.Option("--free", help="Only unoccupied locations.")] = False,
    player: Annotated[
        str | None,
        typer.Option("--player", metavar="P", help="Only this player's locations.", autocompletion=PLAYERS),
    ] = None,
    campaign: CampaignOpt = None,
    no_cache: NoCacheOpt = False,
    as_json: JsonOpt = False,
) -> None:
    """The map's locations with kind, value, occupant and bonus.

    Example: cok locations --free
    """
    opened = _open(campaign, no_cache)
    state = opened.state
    names = list(state.geo.locations)
    title = state.geo.name
    if free:
        names = [n for n in names if n not in state.holder and not state.geo.locations[n].is_region]
        title += " — unoccupied"
    if player:
        pid = _player(state, player)
        names = [n for n in names if state.holder.get(n) == pid]
        title += f" — held by {state.players[pid].name}"
    if as_json:
        from cok.rulesets.clash_of_kings.documents import location_doc

        docs = []
        for n in names:
            loc = state.geo.locations[n]
            docs.append({**location_doc(state, n), "home": list(loc.home), "bonus": loc.bonus})
        emit_json({"locations": docs})
        return
    from cok.render.output import show
    from cok.rulesets.clash_of_kings.views import locations_grid

    show(locations_grid(state, names, title), page=True)


@app.command(context_settings={"ignore_unknown_options": True})
@refusals
def adjust(
    player: Annotated[str, typer.Argument(help="The player.", autocompletion=PLAYERS)],
    cp: Annotated[int, typer.Argument(metavar="CP", help="Bonus CP to add (negative to take away).")],
    reason: ReasonOpt,
    note: NoteOpt = None,
    campaign: CampaignOpt = None,
    no_cache: NoCacheOpt = False,
    dry_run: DryRunOpt = False,
    as_json: JsonOpt = False,
) -> None:
    """Correct a player's bonus CP (an organiser's ruling).

    Example: cok adjust tim -2 --reason "late army list"
    """
    from cok.rulesets.clash_of_kings.events import Adjust

    opened = _open(campaign, no_cache)
    who = _player(opened.state, player)
    adjusting = lambda _: Adjust(player=who, cp=cp, reason=reason, note=note)  # noqa: E731
    record_and_show(opened, adjusting, dry_run=dry_run, as_json=as_json, no_cache=no_cache)


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
    from cok.render.documents import plain
    from cok.render.output import show
    from cok.rulesets.clash_of_kings.modes import catalogue, find_mode
    from cok.rulesets.clash_of_kings.views import mode_lines, modes_grid

    known = catalogue()
    names = list(known)
    house: list[str] = []
    if campaign:
        allowed = _open(campaign).state.settings.modes
        names = [m for m in names if m in allowed]
        house = [m for m in allowed if m not in known]
    chosen = [known[find_mode(mode, names)]] if mode else [known[m] for m in names]
    if as_json:
        docs = [plain(m) for m in chosen]
        emit_json({"modes": docs, "house_modes": house} if mode is None else docs[0])
        return
    if mode:
        show(*mode_lines(chosen[0]))
    else:
        extra = [f"House modes this campaign allows: {', '.join(house)}"] if house else []
        show(modes_grid(chosen), *extra, "Show one in full: cok modes MODE")
