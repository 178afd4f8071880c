"""`cok tick` and `cok deadline` (docs/deadlines.md): the campaign's own time at a terminal.
`cok tick` records the default of every deadline missed (for cron or the systemd timer in
deploy/, where no `cok serve` runs); `cok deadline` shows what is due and when, and its
`extend` and `back` are the organiser's. Every command judges at the ledger's clock:
`COK_NOW` (or `--now`), else the machine's."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

import typer

from cok.cli.options import USUAL, Manner, emit_json, open_valid, reads, records, refusals
from cok.core.errors import RuleError

if TYPE_CHECKING:
    import datetime as dt

    from cok.core.campaign import Campaign
    from cok.service.recording import Recording

#: `cok tick` (a command of its own, beside the shared ones).
ticking = typer.Typer()
#: `cok deadline …`.
app = typer.Typer(no_args_is_help=False, invoke_without_command=True)

NowOpt = Annotated[
    str | None,
    typer.Option(
        "--now",
        metavar="TIME",
        help="Judge at this moment instead of the clock (ISO 8601: 2026-12-03T20:00:00Z); also $COK_NOW.",
    ),
]
CommitOpt = Annotated[
    bool, typer.Option("--commit", help="Commit each default recorded to the campaign's git repository.")
]


def _now(written: str | None) -> dt.datetime:
    from cok.core.deadlines import BadNow, now

    try:
        return now(written)
    except BadNow as error:
        raise RuleError(str(error)) from None


@ticking.command()
@refusals
@records
def tick(
    now: NowOpt = None,
    commit: CommitOpt = False,
    below: Annotated[
        str | None,
        typer.Option("--all", metavar="DIR", help="Every campaign below DIR (a club's folder), each in turn."),
    ] = None,
    how: Manner = USUAL,
) -> None:
    """Record the default of every deadline missed, each once (docs/deadlines.md): for cron
    or a systemd timer where no `cok serve` runs. A deadline missed while nothing ran is
    applied now, saying when it was due. Two ticks at once record each default once.

    Example: cok tick --now 2026-12-03T20:00:00Z --dry-run
    """
    from pathlib import Path

    moment = _now(now)
    if below is None:
        documents = [_ticked(open_valid(how.campaign, how.no_cache), moment, commit, how, None)]
    else:
        from cok.core.campaign import open_campaign
        from cok.core.errors import Refused
        from cok.service.queries import campaigns_below

        documents = []
        for folder in campaigns_below(Path(below)):
            try:
                opened = open_campaign(folder, use_cache=not how.no_cache).valid()
            except (Refused, RuleError) as error:  # one campaign's mistake stops none of the others
                documents.append({"campaign": str(folder), "refused": [{"reason": str(error)}]})
                typer.echo(f"cok: {folder}: {error}", err=True)
                continue
            documents.append(_ticked(opened, moment, commit, how, str(folder)))
    if how.as_json:
        emit_json(documents[0] if below is None else {"campaigns": documents})
    if any(d["refused"] for d in documents):
        raise typer.Exit(1)


def _ticked(opened: Campaign, moment: dt.datetime, commit: bool, how: Manner, named: str | None) -> dict[str, Any]:
    """One campaign's tick, said at the terminal (unless --json) and as its document."""
    from cok.core import deadlines
    from cok.service.deadlines import tick as ticked
    from cok.service.followers import Backup, Followers

    followers = Followers(opened.folder, Backup(commit=True).checked(opened.folder) if commit else Backup())
    done = ticked(opened.folder, moment, dry_run=how.dry_run, followers=followers, use_cache=not how.no_cache)
    zone = deadlines.zone_of(opened.state)
    where = f"{named}: " if named is not None else ""
    if not how.as_json:
        head = "would record" if how.dry_run else "recorded"
        for each in done.defaults:
            for text, event in zip(each.recording.told, each.recording.events, strict=False):
                typer.echo(f"{where}{head} {event.id}: {text}" if not how.dry_run else f"{where}{head}: {text}")
            for warning in each.recording.warnings:
                typer.echo(f"cok: warning: {warning}", err=True)
        if not done.defaults and not done.refused:
            typer.echo(f"{where}nothing is due at {_said(moment, zone)}")
    for wait, why in done.refused:
        typer.echo(f"cok: {where}the default for {wait.what} was refused: {why}", err=True)
    return {
        **({"campaign": named} if named is not None else {}),
        "now": _iso(moment, zone),
        "written": done.written,
        "defaults": [d.document(zone) for d in done.defaults],
        "refused": [{"step": w.step, "player": w.who, "what": w.what, "reason": why} for w, why in done.refused],
    }


@app.callback()
@refusals
@reads
def deadline(ctx: typer.Context, now: NowOpt = None, how: Manner = USUAL) -> None:
    """What the ledger waits for, when each is due, and the players marked absent.

    Example: cok deadline --json
    """
    if ctx.invoked_subcommand is not None:
        return
    from cok.core import deadlines
    from cok.service.deadlines import absent, next_due, pending, steps

    opened = open_valid(how.campaign, how.no_cache)
    moment = _now(now)
    zone = deadlines.zone_of(opened.state)
    due = pending(opened)
    gone = absent(opened)
    if how.as_json:
        coming = next_due(opened, moment)
        emit_json(
            {
                "now": _iso(moment, zone),
                "timezone": str(zone),
                "due": [d.document() for d in due],
                "absent": gone,
                "next": _iso(coming, zone) if coming is not None else None,
                "steps": steps(opened),
            }
        )
        return
    if not due:
        typer.echo("the ledger waits for nothing now")
    for each in due:
        whose = each.wait.who or "the organisers"
        said = deadlines.when(each.due, moment, zone) if each.due is not None else "no deadline"
        mark = " (absent: defaulted at once)" if each.absent else ""
        typer.echo(f"{whose}: {each.wait.what}, due {said}{mark}" if each.due else f"{whose}: {each.wait.what}, {said}")
    if gone:
        typer.echo(f"absent: {', '.join(gone)} (cok deadline back PLAYER brings one back)")


@app.command()
@refusals
@records
def extend(
    length: Annotated[str, typer.Argument(metavar="LENGTH", help="How much longer: 24h, 2d, 1d12h.")],
    player: Annotated[str | None, typer.Option("--for", metavar="PLAYER", help="Only this player's deadlines.")] = None,
    step: Annotated[str | None, typer.Option("--step", metavar="STEP", help="Only this step's deadlines.")] = None,
    how: Manner = USUAL,
) -> None:
    """Give more time (an organiser's): every open deadline, or one player's, or one step's.

    Example: cok deadline extend 24h --for bo
    """
    from cok.service.deadlines import extend as extended

    opened = open_valid(how.campaign, how.no_cache)
    _shown(extended(opened.folder, length, player=player, step=step, dry_run=how.dry_run), how)


@app.command()
@refusals
@records
def back(
    player: Annotated[str, typer.Argument(metavar="PLAYER", help="The absent player to bring back.")],
    how: Manner = USUAL,
) -> None:
    """Bring an absent player back (an organiser's): their deadlines count again, from now.

    Example: cok deadline back bo
    """
    from cok.service.deadlines import back as brought

    opened = open_valid(how.campaign, how.no_cache)
    _shown(brought(opened.folder, player, dry_run=how.dry_run), how)


def _shown(done: Recording, how: Manner) -> None:
    if how.as_json:
        emit_json(done.document)
        return
    for text, event in zip(done.told, done.events, strict=False):
        typer.echo(f"recorded as {event.id}: {text}" if done.written else f"would record: {text}")
    for warning in done.warnings:
        typer.echo(f"cok: warning: {warning}", err=True)


def _iso(moment: dt.datetime, zone: Any) -> str:
    from cok.core.deadlines import iso

    return iso(moment.astimezone(zone))


def _said(moment: dt.datetime, zone: Any) -> str:
    local = moment.astimezone(zone)
    return f"{local:%a} {local.day} {local:%b %Y %H:%M} ({zone})"
