"""The `cok` command line. Each command parses, calls the ledger, renders. No rules here."""

from __future__ import annotations

import functools
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import typer

from cok import __version__
from cok.errors import Problem, Refused, RuleError
from cok.folders import find_campaign
from cok.names import did_you_mean, normalize

if TYPE_CHECKING:
    from cok.cache import Snapshot
    from cok.campaign import Campaign
    from cok.events import Event
    from cok.ledger import Recording
    from cok.rules.choices import ChoiceNeeded
    from cok.rules.state import State

# Commands import what they use when they run: `cok standings` on a cached campaign never
# loads pydantic's event models, PyYAML or the rules, so it starts as fast as Typer allows.

_APP_SETTINGS: dict[str, Any] = {
    "no_args_is_help": True,
    "add_completion": False,
    "pretty_exceptions_enable": False,
    "rich_markup_mode": None,
    "context_settings": {"help_option_names": ["-h", "--help"]},
}
app = typer.Typer(
    name="cok",
    help=(
        "A campaign ledger for Clash of Kings map campaigns (A Song of Ice and Fire: TMG).\n\n"
        "The campaign is two YAML files: a map and an append-only event log. Every command "
        "replays the log through the rules.\n\n"
        "Examples:\n\n"
        "  cok standings\n\n"
        "  cok where tim matt\n\n"
        "  cok battle tim matt --at Starfall --winner tim"
    ),
    **_APP_SETTINGS,
)

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
FirstPlayer = Annotated[str, typer.Argument(metavar="P1", help="One player.")]
SecondPlayer = Annotated[str, typer.Argument(metavar="P2", help="The other player.")]
AttackerOpt = Annotated[
    str | None, typer.Option("--attacker", metavar="P", help="The roll-off's winner, when the players rolled off.")
]
BrotherhoodOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--brotherhood", metavar="P", help="A player fighting as the Brotherhood Without Banners (repeatable)."
    ),
]

F = TypeVar("F", bound=Callable[..., Any])


def refusals(command: F) -> F:
    """Report refused input as `file:line: message` on stderr with exit code 1."""

    @functools.wraps(command)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return command(*args, **kwargs)
        except Refused as refused:
            for problem in refused.problems:
                typer.echo(str(problem), err=True)
            raise typer.Exit(1) from None
        except RuleError as error:
            typer.echo(f"cok: {error}", err=True)
            raise typer.Exit(1) from None

    return wrapper  # type: ignore[return-value]


def _open(campaign: str | None) -> Campaign:
    from cok.campaign import load_campaign

    return load_campaign(find_campaign(campaign))


def _snapshot(campaign: str | None, no_cache: bool = False) -> Snapshot:
    """The campaign's replayed state (cached when possible), refusing an invalid log."""
    from cok.cache import open_snapshot

    snapshot = open_snapshot(find_campaign(campaign), use_cache=not no_cache)
    if snapshot.problems:
        raise Refused(snapshot.problems)
    return snapshot


def _player(state: State, typed: str) -> str:
    """A player's id from their id or display name, typed in any case."""
    key = normalize(typed)
    for pid, player in state.players.items():
        if key in (normalize(pid), normalize(player.name)):
            return pid
    raise RuleError(f"unknown player {typed!r}{did_you_mean(typed, state.players)}")


def _emit_json(document: Any) -> None:
    from cok.render.documents import dumps

    sys.stdout.write(dumps(document) + "\n")


def _names(state: State) -> dict[str, str]:
    return {pid: p.name for pid, p in state.players.items()}


FLAGS = {"attacker": "--attacker", "abandon": "--abandon"}


def _ask(need: ChoiceNeeded) -> tuple[str, Any]:
    """Ask at the terminal for the choice the rules need."""
    choices = list(need.options) + (["decline"] if need.decline else [])
    typer.echo(str(need), err=True)
    by_key = {normalize(c): c for c in choices}
    while True:
        typed = typer.prompt(f"{need.field} ({' / '.join(choices)})", err=True)
        answer = by_key.get(normalize(typed))
        if answer is not None:
            break
        typer.echo(f"choose one of: {', '.join(choices)}", err=True)
    if answer == "decline":
        return "occupy", False
    return need.field, answer


def _interactive() -> bool:
    """Whether someone is at a terminal to answer a question."""
    return sys.stdin.isatty()


def _record(
    snapshot: Snapshot,
    build: Callable[[dict[str, Any]], Event],
    *,
    dry_run: bool,
    as_json: bool,
    no_cache: bool = False,
) -> Recording:
    """Record an event, asking at a terminal for any choice the rules need."""
    from cok.ledger import record
    from cok.rules.choices import ChoiceNeeded

    answers: dict[str, Any] = {}
    while True:
        try:
            rec = record(snapshot, build(answers), dry_run=dry_run, use_cache=not no_cache)
            break
        except ChoiceNeeded as need:
            if not _interactive() or as_json:
                flag = FLAGS.get(need.field, f"--{need.field}")
                how = " or ".join(f"{flag} {o!r}" if " " in o else f"{flag} {o}" for o in need.options)
                if need.decline:
                    how += (" or " if how else "") + "--no-occupy"
                raise RuleError(f"{need} — choose with {how}") from None
            field, value = _ask(need)
            answers[field] = value
    _report(rec, as_json)
    return rec


def _report(rec: Recording, as_json: bool) -> None:
    from cok.render import documents
    from cok.render.words import Teller, signed

    state = rec.state
    teller = Teller(state)
    summary = teller.tell(rec.outcome)
    after = {p: state.total_cp(p) for p in state.players}
    changes = {p: (rec.before.get(p, 0), cp) for p, cp in after.items() if rec.before.get(p, 0) != cp}
    if as_json:
        _emit_json(
            {
                "written": rec.written,
                "event": rec.event.model_dump(mode="json", exclude_none=True),
                "outcome": {"type": type(rec.outcome).__name__.lower(), **documents.plain(rec.outcome)},
                "summary": summary,
                "cp": {p: {"before": b, "after": a} for p, (b, a) in changes.items()},
            }
        )
        return
    from cok.render.output import show
    from cok.render.views import Line

    show(
        summary,
        *(
            f"  {teller.who(pid)}: {before} → {now} CP ({signed(now - before)})"
            for pid, (before, now) in changes.items()
        ),
        Line.of(f"recorded as {rec.event.id}", "dim") if rec.written else Line.of("dry run: nothing written", "yellow"),
    )


# ---------------------------------------------------------------- commands


@app.command()
@refusals
def init(
    folder: Annotated[Path, typer.Argument(metavar="DIR", help="The campaign folder to create.")],
    map_path: Annotated[
        Path | None, typer.Option("--map", metavar="PATH", help="Map file (default: a copy of Westeros).")
    ] = None,
    name: Annotated[str | None, typer.Option("--name", help="The campaign's name.")] = None,
) -> None:
    """Create a campaign folder with campaign.yaml and an empty events.yaml.

    Example: cok init campaigns/summer --name "The Summer War"
    """
    from cok.merge import git_setup
    from cok.render.output import show
    from cok.setup import init_campaign

    title, entry = init_campaign(folder, map_path, name)
    said = [f"Created {title!r} in {folder} (map: {entry})."]
    repo = git_setup(folder)
    if repo is not None:
        said.append(f"Registered the cok merge driver for events.yaml in the git repository {repo}.")
    show(*said, f"Next: cok join PLAYER --faction FACTION -C {folder}")


@app.command()
@refusals
def join(
    player: Annotated[str, typer.Argument(help="The player's id: lowercase letters, digits, '-' and '_'.")],
    faction: Annotated[
        str, typer.Option("--faction", "-f", metavar="F", help="The player's faction, e.g. stark, martell.")
    ],
    name: Annotated[str | None, typer.Option("--name", help="Display name (default: the id).")] = None,
    castle: Annotated[
        str | None, typer.Option("--castle", metavar="CASTLE", help="Starting castle (default: the faction's home).")
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
    snap = _snapshot(campaign, no_cache)
    state = snap.state
    if player != player.lower():
        raise RuleError(f"player ids are lowercase: use {player.lower()!r} (and --name {player!r})")

    from cok.events import Join
    from cok.rules.start import faction_id

    def build(_: dict[str, Any]) -> Event:
        return Join(
            player=player,
            name=name,
            faction=faction_id(state, faction),
            castle=state.geo.find(castle) if castle else None,
            territories=[state.geo.find(t) for t in territories] if territories else None,
            note=note,
        )

    _record(snap, _validated(build), dry_run=dry_run, as_json=as_json, no_cache=no_cache)


def _validated(build: Callable[[dict[str, Any]], Event]) -> Callable[[dict[str, Any]], Event]:
    """Turn a pydantic error from command-line values into a plain refusal."""
    from pydantic import ValidationError

    from cok.events import EVENT_TYPES, EventBase
    from cok.validation import describe

    def wrapped(answers: dict[str, Any]) -> Event:
        try:
            return build(answers)
        except ValidationError as exc:
            model = {m.__name__: m for m in EVENT_TYPES.values()}.get(exc.title, EventBase)
            raise RuleError("; ".join(describe(exc, model))) from None

    return wrapped


@app.command()
@refusals
def where(
    p1: FirstPlayer,
    p2: SecondPlayer,
    attacker: AttackerOpt = None,
    brotherhood: BrotherhoodOpt = None,
    campaign: CampaignOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Who chooses the battle's location, and the legal locations.

    Example: cok where tim matt
    """
    state = _open(campaign).valid().state
    a, b = _player(state, p1), _player(state, p2)
    if a == b:
        raise RuleError(f"a battle needs two different players, not {a} twice")
    bwb = [_player(state, p) for p in brotherhood or []]
    given = _player(state, attacker) if attacker else None
    from cok.rules.where import where as find_where

    found = find_where(state, a, b, bwb, given)
    if as_json:
        from cok.render.documents import where_doc

        _emit_json(where_doc(state, found))
        return
    from cok.render.output import show
    from cok.render.views import where_views

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
    at: Annotated[str, typer.Option("--at", metavar="LOCATION", help="Where the battle was fought.")],
    winner: Annotated[
        str | None, typer.Option("--winner", metavar="P", help="Who won (else decided from --vp).")
    ] = None,
    vp: Annotated[list[str] | None, typer.Option("--vp", metavar="P=N", help="Victory points, e.g. tim=7.")] = None,
    remaining: Annotated[
        list[str] | None, typer.Option("--remaining", metavar="P=N", help="Points left on the table (initial roster).")
    ] = None,
    attacker: AttackerOpt = None,
    mode: Annotated[
        str | None, typer.Option("--mode", metavar="MODE", help="The game mode played (see `cok modes`).")
    ] = None,
    points: Annotated[int | None, typer.Option("--points", help="Army size; at most the week's limit.")] = None,
    week: Annotated[int | None, typer.Option("--week", help="The week it was fought (default: this week).")] = None,
    brotherhood: BrotherhoodOpt = None,
    abandon: Annotated[
        str | None, typer.Option("--abandon", metavar="LOCATION", help="A location the winner abandons.")
    ] = None,
    no_occupy: Annotated[
        bool, typer.Option("--no-occupy", help="Under supply lines: the winner declines to occupy.")
    ] = False,
    override: Annotated[
        str | None, typer.Option("--override", metavar="REASON", help="Organiser's ruling: any location.")
    ] = None,
    note: NoteOpt = None,
    campaign: CampaignOpt = None,
    no_cache: NoCacheOpt = False,
    dry_run: DryRunOpt = False,
    as_json: JsonOpt = False,
) -> None:
    """Record a battle: who won, and what the winner occupies.

    Example: cok battle tim matt --at Starfall --vp tim=7 --vp matt=5
    """
    snap = _snapshot(campaign, no_cache)
    state = snap.state
    a, b = _player(state, p1), _player(state, p2)

    from cok.events import Battle
    from cok.rules.battle import game_mode

    def build(answers: dict[str, Any]) -> Event:
        chosen = answers.get("abandon") or (state.geo.find(abandon) if abandon else None)
        return Battle(
            players=[a, b],
            location=state.geo.find(at),
            week=week,
            attacker=answers.get("attacker") or (_player(state, attacker) if attacker else None),
            winner=_player(state, winner) if winner else None,
            vp=_scores(state, vp, "vp"),
            remaining=_scores(state, remaining, "remaining"),
            mode=game_mode(state, mode) if mode else None,
            points=points,
            brotherhood=[_player(state, p) for p in brotherhood or []],
            abandon=chosen,
            occupy=answers.get("occupy", not no_occupy),
            override=override,
            note=note,
        )

    _record(snap, _validated(build), dry_run=dry_run, as_json=as_json, no_cache=no_cache)


@app.command()
@refusals
def paint(
    player: Annotated[str, typer.Argument(help="The player who painted.")],
    fully_painted: Annotated[
        bool, typer.Option("--fully-painted", help="Played this week with a fully painted army.")
    ] = False,
    units: Annotated[int, typer.Option("--units", min=0, help="New units painted and fielded this week.")] = 0,
    models: Annotated[int, typer.Option("--models", min=0, help="NCU / attachment models painted and fielded.")] = 0,
    commissioned: Annotated[
        str | None, typer.Option("--commissioned", metavar="P", help="Fully painted a unit of this other player.")
    ] = None,
    week: Annotated[int | None, typer.Option("--week", help="The week (default: this week).")] = None,
    note: NoteOpt = None,
    campaign: CampaignOpt = None,
    no_cache: NoCacheOpt = False,
    dry_run: DryRunOpt = False,
    as_json: JsonOpt = False,
) -> None:
    """Record a week's painting: the painting bonus.

    Example: cok paint tim --fully-painted --units 2
    """
    snap = _snapshot(campaign, no_cache)
    state = snap.state
    who = _player(state, player)

    from cok.events import Painting

    def build(_: dict[str, Any]) -> Event:
        return Painting(
            player=who,
            week=week,
            fully_painted=fully_painted,
            units=units,
            models=models,
            commissioned=_player(state, commissioned) if commissioned else None,
            note=note,
        )

    _record(snap, _validated(build), dry_run=dry_run, as_json=as_json, no_cache=no_cache)


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
    snap = _snapshot(campaign, no_cache)
    if next_:
        from cok.events import Week

        _record(snap, lambda _: Week(limit=limit, note=note), dry_run=dry_run, as_json=as_json, no_cache=no_cache)
        return
    state = snap.state
    if as_json:
        _emit_json({"campaign": snap.name, "week": state.week, "points_limit": state.limit, "limits": state.limits})
        return
    from cok.render.output import show

    show(f"{snap.name}: week {state.week}, points limit {state.limit}")


@app.command()
@refusals
def standings(campaign: CampaignOpt = None, no_cache: NoCacheOpt = False, as_json: JsonOpt = False) -> None:
    """The players, ranked by Campaign Points.

    Example: cok standings --json
    """
    from cok.rules.scoring import standings as rank

    snap = _snapshot(campaign, no_cache)
    state = snap.state
    table = rank(state)
    if as_json:
        from cok.render.documents import standings_doc

        _emit_json(standings_doc(snap.name, state, table))
        return
    from cok.render.output import show
    from cok.render.views import standings_grid

    show(standings_grid(snap.name, state, table))


@app.command()
@refusals
def locations(
    free: Annotated[bool, typer.Option("--free", help="Only unoccupied locations.")] = False,
    player: Annotated[str | None, typer.Option("--player", metavar="P", help="Only this player's locations.")] = None,
    campaign: CampaignOpt = None,
    no_cache: NoCacheOpt = False,
    as_json: JsonOpt = False,
) -> None:
    """The map's locations with kind, value, occupant and bonus.

    Example: cok locations --free
    """
    snap = _snapshot(campaign, no_cache)
    state = snap.state
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
        from cok.render.documents import location_doc

        docs = []
        for n in names:
            loc = state.geo.locations[n]
            docs.append({**location_doc(state, n), "home": list(loc.home), "bonus": loc.bonus})
        _emit_json({"locations": docs})
        return
    from cok.render.output import show
    from cok.render.views import locations_grid

    show(locations_grid(state, names, title))


@app.command()
@refusals
def log(
    player: Annotated[str | None, typer.Option("--player", metavar="P", help="Only events about this player.")] = None,
    campaign: CampaignOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """The campaign's history, in words.

    Example: cok log --player tim
    """
    from cok.render.words import told

    c = _open(campaign)
    done = c.valid()
    pid = _player(done.state, player) if player else None
    rows = [
        {
            "line": entry.record.line,
            "id": entry.record.event.id,
            "type": entry.record.event.type,
            "summary": entry.text,
            "voided": entry.voided,
            "event": entry.record.event.model_dump(mode="json", exclude_none=True),
        }
        for entry in told(c.log.records, done)
        if pid is None or pid in entry.players
    ]
    if as_json:
        _emit_json({"events": rows})
        return
    from cok.render.output import show
    from cok.render.views import Cell, Line

    lines = [
        Line(
            (
                Cell(f"{row['id'] or '-':>12}  ", "dim"),
                Cell(str(row["summary"]), "strike dim" if row["voided"] else None),
                Cell("  (voided)" if row["voided"] else "", "yellow"),
            )
        )
        for row in rows
    ]
    show(*lines) if lines else show("nothing recorded yet")


@app.command(context_settings={"ignore_unknown_options": True})
@refusals
def adjust(
    player: Annotated[str, typer.Argument(help="The player.")],
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
    from cok.events import Adjust

    snap = _snapshot(campaign, no_cache)
    who = _player(snap.state, player)
    adjusting = _validated(lambda _: Adjust(player=who, cp=cp, reason=reason, note=note))
    _record(snap, adjusting, dry_run=dry_run, as_json=as_json, no_cache=no_cache)


@app.command()
@refusals
def void(
    event_id: Annotated[str, typer.Argument(metavar="ID", help="The id of the event to cancel (see `cok log`).")],
    reason: ReasonOpt,
    note: NoteOpt = None,
    campaign: CampaignOpt = None,
    no_cache: NoCacheOpt = False,
    dry_run: DryRunOpt = False,
    as_json: JsonOpt = False,
) -> None:
    """Cancel an earlier event, as if it had never been recorded.

    Example: cok void 3fa9c1d2e4b7 --reason "wrong winner"
    """
    from cok.events import Void

    snap = _snapshot(campaign, no_cache)
    voiding = _validated(lambda _: Void(target=event_id, reason=reason, note=note))
    _record(snap, voiding, dry_run=dry_run, as_json=as_json, no_cache=no_cache)


@app.command("check")
def check_(
    campaign: CampaignOpt = None,
    every: Annotated[
        bool, typer.Option("--all", help="Check every campaign below this folder (for pre-commit hooks).")
    ] = False,
    no_cache: NoCacheOpt = False,
    as_json: JsonOpt = False,
) -> None:
    """Validate the map, the settings and the log: silent when all is well.

    Example: cok check
    """
    from cok.cache import open_snapshot

    problems: list[Problem] = []
    folders = _every_campaign() if every else [None]
    for folder in folders:
        try:
            found = find_campaign(campaign) if folder is None else folder
            problems += open_snapshot(found, use_cache=not no_cache).problems
        except Refused as refused:
            problems += refused.problems
    if as_json:
        from cok.render.documents import problems_doc

        _emit_json(problems_doc(problems))
    else:
        for problem in problems:
            typer.echo(str(problem), err=True)
    if problems:
        raise typer.Exit(1)


def _every_campaign() -> list[Path]:
    """Every folder below the current one holding a campaign.yaml (hidden folders skipped)."""
    found = []
    for path in sorted(Path.cwd().rglob("campaign.yaml")):
        parts = path.relative_to(Path.cwd()).parts
        if not any(p.startswith(".") or p in ("node_modules", "site-packages") for p in parts[:-1]):
            found.append(path.parent)
    return found


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
    from cok.modes import catalogue, find_mode
    from cok.render.documents import plain
    from cok.render.output import show
    from cok.render.views import mode_lines, modes_grid

    known = catalogue()
    names = list(known)
    house: list[str] = []
    if campaign:
        allowed = _snapshot(campaign).state.settings.modes
        names = [m for m in names if m in allowed]
        house = [m for m in allowed if m not in known]
    chosen = [known[find_mode(mode, names)]] if mode else [known[m] for m in names]
    if as_json:
        docs = [plain(m) for m in chosen]
        _emit_json({"modes": docs, "house_modes": house} if mode is None else docs[0])
        return
    if mode:
        show(*mode_lines(chosen[0]))
    else:
        extra = [f"House modes this campaign allows: {', '.join(house)}"] if house else []
        show(modes_grid(chosen), *extra, "Show one in full: cok modes MODE")


@app.command()
@refusals
def site(
    outdir: Annotated[Path, typer.Argument(metavar="OUTDIR", help="Where to write the site.")],
    campaign: CampaignOpt = None,
) -> None:
    """Build the campaign's static web site: points limit, standings, map, battles, players.

    Open OUTDIR/index.html, or publish the folder on any static host.
    Example: cok site public/
    """
    from cok.render.output import show
    from cok.site.build import build_site

    c = _open(campaign)
    c.valid()
    written = build_site(c, outdir)
    show(f"Wrote {len(written)} files to {outdir}; open {outdir / 'index.html'}")


@app.command("map")
@refusals
def map_(
    svg: Annotated[Path, typer.Option("--svg", metavar="FILE", help="Write the map picture to FILE.")],
    campaign: CampaignOpt = None,
) -> None:
    """Draw the campaign map as SVG: locations by kind, occupants by colour, land and sea routes.

    Example: cok map --svg westeros.svg
    """
    from cok.render.output import show
    from cok.site.build import map_svg
    from cok.site.views import site_data

    c = _open(campaign)
    c.valid()
    svg.write_text(map_svg(site_data(c)), encoding="utf-8")
    show(f"Wrote the map to {svg}")


@app.command("git-setup")
@refusals
def git_setup_(campaign: CampaignOpt = None) -> None:
    """Register the cok merge driver in the campaign's git repository.

    Two branches that each recorded events then merge cleanly: the common log, then both
    sides' new events by time; a merge that breaks a rule stops as a conflict.
    Example: cok git-setup
    """
    from cok.merge import git_setup

    folder = find_campaign(campaign)
    attributes = folder / ".gitattributes"
    line = "events.yaml merge=cok"
    existing = attributes.read_text(encoding="utf-8") if attributes.exists() else ""
    if line not in existing.splitlines():
        attributes.write_text(existing + ("" if not existing or existing.endswith("\n") else "\n") + line + "\n")
    repo = git_setup(folder)
    if repo is None:
        raise RuleError(f"{folder} is not inside a git repository (run `git init` first)")
    from cok.render.output import show

    show(f"The cok merge driver is registered in {repo} for {folder / 'events.yaml'}.")


@app.command("merge-driver", hidden=False)
def merge_driver(
    base: Annotated[Path, typer.Argument(metavar="BASE", help="The common ancestor's log (%O).")],
    ours: Annotated[Path, typer.Argument(metavar="OURS", help="This branch's log; the result goes here (%A).")],
    theirs: Annotated[Path, typer.Argument(metavar="THEIRS", help="The other branch's log (%B).")],
    path: Annotated[str | None, typer.Argument(metavar="PATH", help="The log's path in the repository (%P).")] = None,
) -> None:
    """The git merge driver for events.yaml (git runs it; see `cok git-setup`).

    Example: git config merge.cok.driver "cok merge-driver %O %A %B %P"
    """
    from cok.merge import run_driver

    raise typer.Exit(run_driver(base, ours, theirs, path))


@app.command("schema")
@refusals
def schema_(
    kind: Annotated[str, typer.Argument(metavar="KIND", help="map, campaign or events.")] = "events",
) -> None:
    """Print the JSON Schema of a campaign file, for editors.

    Example: cok schema events > events.schema.json
    """
    from cok.schemas import KINDS, schema

    if kind not in KINDS:
        raise typer.BadParameter(f"choose one of {', '.join(KINDS)}", param_hint="KIND")
    _emit_json(schema(kind))


def _version(value: bool) -> None:
    if value:
        typer.echo(f"cok {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Show the version and exit.")
    ] = False,
) -> None:
    """A campaign ledger for Clash of Kings map campaigns."""


def _only(name: str) -> typer.Typer:
    """The app with just one command: Typer builds every registered command's options from
    its signature at start-up, and a command line only ever runs one of them."""
    for info in app.registered_commands:
        command_name = info.name or (info.callback.__name__.replace("_", "-") if info.callback else "")
        if command_name == name:
            single = typer.Typer(**{k: getattr(app.info, k) for k in ("name", "help")}, **_APP_SETTINGS)
            single.registered_callback = app.registered_callback
            single.registered_commands = [info]
            return single
    return app


def main() -> None:
    """The console script: never a traceback for the user (COK_DEBUG=1 shows one)."""
    words = [arg for arg in sys.argv[1:] if not arg.startswith("-")]
    try:
        (_only(words[0]) if words else app)()
    except (Refused, RuleError) as error:
        typer.echo(f"cok: {error}", err=True)
        sys.exit(1)
    except KeyboardInterrupt:
        sys.exit(130)
    except Exception as error:  # a bug: say so plainly, without a traceback
        if os.environ.get("COK_DEBUG"):
            raise
        typer.echo(f"cok: internal error ({type(error).__name__}: {error}); please report it", err=True)
        sys.exit(1)
