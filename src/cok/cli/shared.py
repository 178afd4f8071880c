"""The commands every game shares: init, standings, log, void, confirm, dispute, settle, check, site, map, schema,
git-setup and the merge driver. Each asks the campaign's ruleset for what is the game's."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from cok.cli.drafts import record_given
from cok.cli.games import ids
from cok.cli.options import (
    USUAL,
    CampaignOpt,
    JsonOpt,
    Manner,
    NoCacheOpt,
    NoteOpt,
    ReasonOpt,
    chosen,
    complete,
    emit_json,
    open_valid,
    reads,
    records,
    refusals,
)
from cok.core.errors import Refused, RuleError
from cok.core.folders import find_campaign

if TYPE_CHECKING:
    from collections.abc import Iterator, Sequence

    from cok.core.history import Told
    from cok.service import Draft, Recording

app = typer.Typer()


@app.command()
@refusals
def init(
    folder: Annotated[Path, typer.Argument(metavar="DIR", help="The campaign folder to create.")],
    ruleset: Annotated[str, typer.Option("--ruleset", metavar="ID", help=f"The game: {ids()}.")] = "clash-of-kings",
    map_path: Annotated[
        Path | None, typer.Option("--map", metavar="PATH", help="Map file (default: a copy of the game's map).")
    ] = None,
    name: Annotated[str | None, typer.Option("--name", help="The campaign's name.")] = None,
) -> None:
    """Create a campaign folder of a game: campaign.yaml, a copy of the game's map and an
    empty events.yaml.

    Example: cok init campaigns/summer --name "The Summer War"
    """
    from cok.core import ruleset as registry
    from cok.core.merge import git_setup
    from cok.core.setup import init_campaign
    from cok.render.output import show

    if ruleset not in registry.known():
        raise registry.refuse_unknown(ruleset, "--ruleset", None)
    game = registry.get(ruleset)
    title, entry = init_campaign(folder, map_path, name, game)
    said = [f"Created {title!r} in {folder} (map: {entry})."]
    repo = git_setup(folder)
    if repo is not None:
        said.append(f"Registered the cok merge driver for events.yaml in the git repository {repo}.")
    first = game.first_step
    show(*said, f"Next: {first} -C {folder}")


@app.command()
@refusals
@reads
def standings(how: Manner = USUAL) -> None:
    """The players, ranked.

    Example: cok standings --json
    """
    from cok.cli.basics import show_standings

    show_standings(how.campaign, how.no_cache, how.as_json)  # also run without Typer: see `cok.cli.shortcut`


@app.command()
@refusals
@reads
def log(
    player: Annotated[
        str | None,
        typer.Option("--player", metavar="P", help="Only events about this player.", autocompletion=complete("player")),
    ] = None,
    how: Manner = USUAL,
) -> None:
    """The campaign's history, in words.

    Example: cok log --player tim
    """
    found = open_valid(how.campaign, how.no_cache)
    pid = found.ruleset.player(found.state, player) if player else None
    history: Iterator[Told] = (t for t in found.told() if pid is None or pid in t.players)  # never held whole
    if how.as_json:
        from cok.render.documents import dumps_list
        from cok.render.output import write
        from cok.service.queries import history as entries

        events = entries(found, player)  # the document GET /api/log pages through
        for piece in dumps_list("events", events):
            write(piece)
        write("\n")
        return
    from cok.render.output import show, styled, write_lines
    from cok.render.views import Cell, Grid, Line
    from cok.service.queries import with_verdicts

    history = with_verdicts(found, history)  # docs/dice.md: each die cok rolled, verified or not yet
    if found.ruleset.results:
        from cok.service.confirming import marked_history

        history = marked_history(found, history)  # docs/confirm.md: a disputed result says so
    if not styled():  # piped: one event a line, for grep and scripts
        lines = (f"{t.ref or '-':>13}  {t.text}" + ("  (voided)" if t.voided else "") for t in history)
        if not write_lines(lines):
            show("nothing recorded yet")
        return
    table = Grid(None, [("event", "fixed"), ("what happened", "left")])
    for t in history:
        table.add(
            Cell(t.ref or "-", "dim"),
            Cell(t.text + (" (voided)" if t.voided else ""), "strike dim" if t.voided else None),
        )
    if not table.rows:
        show("nothing recorded yet")
        return
    hint = "Cancel one with `cok void ID`: `=…` names an event written without an id, and `@LINE` works too."
    show(table, Line.of(hint, "dim"), page=True)


@app.command()
@refusals
@records
def void(
    event_id: Annotated[
        str,
        typer.Argument(
            metavar="ID",
            help="The event to cancel: its id or `=…` reference (see `cok log`; any unique start of it will do), "
            "or @LINE in events.yaml.",
        ),
    ],
    reason: ReasonOpt,
    cascade: Annotated[
        bool,
        typer.Option("--cascade", help="Also void the later events that depend on it (listed; asked at a terminal)."),
    ] = False,
    note: NoteOpt = None,
    how: Manner = USUAL,
) -> None:
    """Cancel an earlier event, as if it had never been recorded.

    Later events that only stood because of it are listed; --cascade voids them with it, as
    one change (at a terminal, cok asks). With --dry-run, see what would be voided. Voiding
    a void undoes it: the event it voided counts again, checked by the rules.

    Example: cok void 3fa9c1d2e4b7 --reason "wrong winner"
    """
    from cok.cli.options import interactive
    from cok.cli.recording import record_drafts
    from cok.service import Dependent, Refusal
    from cok.service import void as voided

    found = open_valid(how.campaign, how.no_cache)

    def put(drafts: Sequence[Draft], trying: bool) -> Recording:
        return record_drafts(found, drafts, dry_run=trying, as_json=how.as_json, no_cache=how.no_cache)

    def voiding(all_of_it: bool) -> None:
        try:
            voided(
                found.folder,
                event_id,
                reason,
                cascade=all_of_it,
                note=note,
                dry_run=how.dry_run,
                campaign=found,
                put=put,
            )
        except Refusal as refused:
            if isinstance(refused, Dependent):
                raise
            raise refused.rule from None  # the event not found: in the command line's words

    try:
        voiding(cascade)
        return
    except Dependent as listing:
        following = listing.takes.following
        asking = interactive() and not how.as_json and not how.dry_run
        if not asking:
            hint = "void them with it: add --cascade (see what it voids first with --dry-run --cascade)"
            raise RuleError(f"{listing.rule}\n{hint}") from None
        typer.echo(str(listing.rule), err=True)
        if not typer.confirm(f"Void these {len(following)} events too?", default=False, err=True):
            raise typer.Exit(1) from None
    voiding(True)


TargetArg = Annotated[
    str,
    typer.Argument(
        metavar="ID", help="The result (a battle): its id as `cok log` shows it, or any unique start of it."
    ),
]


def _verdict(kind: str, event_id: str, reason: str | None, how: Manner) -> None:
    """Record a confirmation, a dispute or a settling of a result (docs/confirm.md)."""
    from cok.service import event_ref

    found = open_valid(how.campaign, how.no_cache)
    record_given(found, kind, {"target": event_ref(found, event_id), "reason": reason}, how)


def _ruling(kind: str, summary: str) -> None:
    """`dispute` and `settle`, one command: a verdict on a result that says why (`--reason`)."""

    def verdict(event_id: TargetArg, reason: ReasonOpt, how: Manner = USUAL) -> None:
        _verdict(kind, event_id, reason, how)

    verdict.__name__ = verdict.__qualname__ = kind
    verdict.__doc__ = summary
    app.command()(refusals(records(verdict)))


@app.command()
@refusals
@records
def confirm(event_id: TargetArg, how: Manner = USUAL) -> None:
    """Confirm a result the other side recorded (a battle): it happened as written.

    Only the other side of the result (or an organiser) may; whoever recorded it may not
    ($COK_BY, else your login, says who you are).

    Example: cok confirm 3fa9c1
    """
    _verdict("confirm", event_id, None, how)


_ruling(
    "dispute",
    """Dispute a result the other side recorded, saying why: it is marked until an organiser settles it.

    Example: cok dispute 3fa9c1 --reason "I won on objectives"
    """,
)


_ruling(
    "settle",
    """Settle a dispute by keeping the result as recorded (an organiser's ruling); `cok void` takes it back instead.

    Example: cok settle 3fa9c1 --reason "the photo shows the objectives held"
    """,
)


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
    from cok.cli.basics import show_problems

    if not show_problems(campaign, every, no_cache, as_json):  # also run without Typer: see `cok.cli.shortcut`
        raise typer.Exit(1)


@app.command()
@refusals
def site(
    outdir: Annotated[Path, typer.Argument(metavar="OUTDIR", help="Where to write the site.")],
    campaign: CampaignOpt = None,
    no_cache: NoCacheOpt = False,
    force: Annotated[
        bool, typer.Option("--force", help="Write into a folder that is not empty and holds no cok site.")
    ] = False,
) -> None:
    """Build the campaign's static web site: standings, map, the log, a page per player.

    Open OUTDIR/index.html, or publish the folder on any static host.
    Example: cok site public/
    """
    from cok.core.progress import task
    from cok.core.publish import campaign_files, write_site
    from cok.render.output import show

    found = open_valid(campaign, no_cache)
    own = campaign_files(found.folder, found.map_file)
    from cok.service.confirming import for_site

    with task("building the site", None, size=found.position.lines):
        done = write_site(outdir, found.ruleset.site_pages(for_site(found)), force=force, own=own)  # docs/confirm.md
    kept = f" ({len(done.unchanged)} unchanged)" if done.unchanged else ""
    show(f"Wrote {len(done.written)} files to {outdir}{kept}; open {outdir / 'index.html'}")


@app.command("map")
@refusals
def map_(
    svg: Annotated[Path, typer.Option("--svg", metavar="FILE", help="Write the map picture to FILE (- for stdout).")],
    campaign: CampaignOpt = None,
    no_cache: NoCacheOpt = False,
    force: Annotated[bool, typer.Option("--force", help="Replace FILE even when cok did not draw it.")] = False,
) -> None:
    """Draw the campaign map as SVG, with who holds what.

    Example: cok map --svg westeros.svg
    """
    from cok.core.publish import campaign_files, write_svg
    from cok.render.output import show

    found = open_valid(campaign, no_cache)
    if str(svg) == "-":
        from cok.render.output import write

        write(found.ruleset.map_svg(found))
        return
    write_svg(svg, found.ruleset.map_svg(found), force=force, own=campaign_files(found.folder, found.map_file))
    show(f"Wrote the map to {svg}")


@app.command("git-setup")
@refusals
def git_setup_(campaign: CampaignOpt = None) -> None:
    """Register the cok merge driver in the campaign's git repository.

    Two branches that each recorded events then merge cleanly: the common log, then both
    sides' new events by time; a merge that breaks a rule stops as a conflict.
    Example: cok git-setup
    """
    from cok.core.merge import git_setup

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
    from cok.core.merge import run_driver

    raise typer.Exit(run_driver(base, ours, theirs, path))


@app.command("schema")
@refusals
def schema_(
    kind: Annotated[
        str, typer.Argument(metavar="KIND", help="map, campaign, events, or api (the served API's OpenAPI document).")
    ] = "events",
    ruleset: Annotated[
        str | None,
        typer.Option("--ruleset", metavar="ID", help="The game (default: the campaign's, else clash-of-kings)."),
    ] = None,
    campaign: CampaignOpt = None,
) -> None:
    """Print the JSON Schema of a campaign file, for editors.

    Example: cok schema events > events.schema.json  (cok schema api: the served API's OpenAPI document)
    """
    from cok.core import ruleset as registry
    from cok.core.schemas import KINDS, schema

    kind = chosen(kind, (*KINDS, "api"), "KIND")
    if kind == "api" and ruleset is None and campaign is not None and _club(campaign):
        from cok.contract.openapi import club_document

        emit_json(club_document())  # a club's own API: each campaign publishes its own
        return
    if ruleset is None:
        from cok.core.campaign import read, set_up

        try:
            folder = find_campaign(campaign)
        except Refused:
            if campaign is not None:
                raise
            game = registry.get(registry.DEFAULT)
        else:
            game = set_up(folder, read(folder)).ruleset
    elif ruleset in registry.known():
        game = registry.get(ruleset)
    else:
        raise registry.refuse_unknown(ruleset, "--ruleset", None)
    if kind == "api":
        from cok.contract.openapi import document

        emit_json(document(game))  # what GET /api/openapi.json answers
        return
    emit_json(schema(kind, game))


def _club(folder: Path | str) -> bool:
    """A club's folder, as `cok serve` serves one: no campaign itself, but one in a folder of it."""
    from cok.core.folders import SETTINGS_FILE

    found = Path(folder)
    return not (found / SETTINGS_FILE).is_file() and any(found.glob(f"*/{SETTINGS_FILE}"))
