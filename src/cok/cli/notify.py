"""`cok notify …`: the club's chat destinations of a campaign (issue 39), kept in the user
data folder as secrets, and the outbox that posts the log's news to them."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Annotated

import typer

from cok.cli.options import USUAL, CampaignOpt, Manner, emit_json, open_valid, refusals, tells
from cok.core.errors import RuleError

if TYPE_CHECKING:
    from cok.core.campaign import Campaign
    from cok.notify.destinations import Destination

app = typer.Typer(help="Post the campaign's news in the club's chat (Discord, Slack, Matrix, …).")

OnlyOpt = Annotated[
    str | None,
    typer.Option("--only", metavar="KINDS", help="Post only these kinds (comma-separated; default: all)."),
]
NumberArg = Annotated[int, typer.Argument(metavar="N", help="The destination's number in `cok notify list`.")]
RemindOpt = Annotated[
    str | None, typer.Option("--remind", metavar="DELAY", help="Nudge again after this delay (12h, 30m, 2d).")
]


def _kinds(typed: str | None) -> frozenset[str]:
    from cok.notify.destinations import kinds

    try:
        return kinds(typed)
    except ValueError as wrong:
        raise RuleError(f"--only: {wrong}") from None


def _delay(typed: str, option: str) -> int:
    from cok.notify.destinations import delay

    try:
        return delay(typed)
    except ValueError as wrong:
        raise RuleError(f"{option}: {wrong}") from None


@app.command()
@refusals
def add(
    url: Annotated[str, typer.Argument(metavar="URL", help="An Apprise URL: discord://…, slack://…, json://host/path")],
    only: OnlyOpt = None,
    remind: RemindOpt = None,
    player: Annotated[
        str | None,
        typer.Option(
            "--player",
            metavar="NAME",
            help="A player's (or organiser's) own destination, a direct message: their nudges go there alone.",
        ),
    ] = None,
    campaign: CampaignOpt = None,
) -> None:
    """Post the campaign's news to a chat: the URL is a secret, kept 0600 in your data folder.

    Example: cok notify add 'discord://WEBHOOK_ID/WEBHOOK_TOKEN' --only battle,void,nudge

    With --player, the URL is that person's own (a direct message): the nudges for them go
    there instead of the club's channel, and nothing else does.
    """
    import dataclasses

    import apprise

    from cok.notify.destinations import Destination, keep, settings

    opened = open_valid(campaign)
    folder = opened.folder
    if player is not None and only is not None:
        raise RuleError("--player: a player's own destination takes their nudges only (drop --only)")
    chosen = _kinds(only) if player is None else frozenset({"nudge"})
    whose = None if player is None else _whose(opened, player)
    wait = None if remind is None else _delay(remind, "--remind")
    if not apprise.Apprise().add(url):
        raise RuleError("not a destination Apprise knows: see https://github.com/caronc/apprise/wiki for the formats")
    kept = settings(folder)
    others = tuple(d for d in kept.destinations if d.url != url and (whose is None or d.player != whose))
    kept = dataclasses.replace(kept, destinations=(*others, Destination(url, chosen, whose)))
    if wait is not None:
        kept = dataclasses.replace(kept, remind=wait)
    keep(folder, kept)
    added = kept.destinations[-1]
    typer.echo(f"destination {len(kept.destinations)} added: {added.masked} ({_takes(added)})")


def _takes(destination: Destination) -> str:
    """What a destination takes, as `add` and `list` say it."""
    if destination.player is not None:
        return f"{destination.player}'s own: their nudges"
    return ", ".join(sorted(destination.only))


def _whose(opened: Campaign, typed: str) -> str:
    """`--player NAME`: a player of the campaign (as the game spells them) or an organiser
    with a link; anyone else is refused, naming who may be given one."""
    from cok.notify.home import organisers

    known = organisers(opened.folder)
    if typed in known:
        return typed
    try:
        return str(opened.ruleset.player(opened.state, typed))
    except RuleError as unknown:
        also = f"; organisers with a link: {', '.join(known)}" if known else ""
        raise RuleError(f"--player: {unknown}{also}") from None


@app.command("list")
@refusals
@tells
def listing(how: Manner = USUAL) -> None:
    """The campaign's destinations, numbered, their secrets hidden."""
    from cok.notify.destinations import settings

    kept = settings(open_valid(how.campaign).folder)
    if how.as_json:
        emit_json(
            {
                "destinations": [
                    {"number": n, "url": d.masked, "only": sorted(d.only), "player": d.player}
                    for n, d in enumerate(kept.destinations, 1)
                ],
                "remind_seconds": kept.remind,
                "server": kept.server,
            }
        )
        return
    for n, d in enumerate(kept.destinations, 1):
        typer.echo(f"{n}. {d.masked}  {_takes(d)}")
    if not kept.destinations:
        typer.echo("no destination yet: cok notify add URL", err=True)


def _numbered(folder: object, number: int):  # type: ignore[no-untyped-def]
    from cok.notify.destinations import settings

    kept = settings(folder)  # type: ignore[arg-type]
    if not 1 <= number <= len(kept.destinations):
        raise RuleError(f"no destination {number}: the campaign has {len(kept.destinations)} (cok notify list)")
    return kept, kept.destinations[number - 1]


@app.command()
@refusals
def remove(
    number: NumberArg,
    campaign: CampaignOpt = None,
) -> None:
    """Stop posting to a destination (its URL is forgotten)."""
    import dataclasses

    from cok.notify.destinations import keep

    folder = open_valid(campaign).folder
    kept, gone = _numbered(folder, number)
    keep(folder, dataclasses.replace(kept, destinations=tuple(d for d in kept.destinations if d != gone)))
    typer.echo(f"destination {number} removed: {gone.masked}")


@app.command()
@refusals
def test(
    number: NumberArg = 1,
    campaign: CampaignOpt = None,
) -> None:
    """Post a test message to a destination now; exit 1 when it is not taken."""
    from cok.notify.outbox import apprise_send

    opened = open_valid(campaign)
    _kept, destination = _numbered(opened.folder, number)
    if not apprise_send(destination, f"cok: {opened.name} will post its news here."):
        raise RuleError(f"destination {number} ({destination.masked}) did not take the test post")
    typer.echo(f"destination {number} took the test post")


@app.command()
@refusals
def send(campaign: CampaignOpt = None) -> None:
    """Send the posts waiting in the outbox (those recorded while no server ran)."""
    from cok.notify.outbox import pending
    from cok.notify.outbox import send as sending

    folder = open_valid(campaign).folder
    sent, failed = sending(folder)  # each nudge checked against the ledger as it is sent
    left = len(pending(folder))
    typer.echo(f"{sent} sent, {failed} failed, {left} waiting (cok notify status)")
    if failed:
        raise typer.Exit(1)


@app.command()
@refusals
@tells
def status(how: Manner = USUAL) -> None:
    """The posts not yet sent, and why (the service's refusal, a destination down)."""
    from cok.notify.outbox import pending

    waiting = pending(open_valid(how.campaign).folder)
    if how.as_json:
        emit_json(
            {
                "waiting": [
                    {
                        "post": w.key,
                        "kind": w.kind,
                        "destination": w.destination,
                        "tries": w.tries,
                        "next_try": w.due,
                        "error": w.error,
                    }
                    for w in waiting
                ]
            }
        )
        return
    now = time.time()
    for w in waiting:
        when = "now" if w.due <= now else f"in {int(w.due - now)}s"
        failed = f", {w.tries} failed: {w.error}" if w.tries else ""
        kind = "reminder, if the ledger still waits then" if w.key.endswith(".again") else w.kind
        typer.echo(f"{w.key} ({kind}) to {w.destination}: next try {when}{failed}")
    if not waiting:
        typer.echo("nothing waiting: every post was sent")


@app.command()
@refusals
def remind(
    delay: Annotated[str, typer.Argument(metavar="DELAY", help="12h, 30m, 2d: when a nudge is posted again.")],
    campaign: CampaignOpt = None,
) -> None:
    """How long after a nudge it is posted again while the ledger still waits."""
    import dataclasses

    from cok.notify.destinations import keep, settings

    folder = open_valid(campaign).folder
    seconds = _delay(delay, "DELAY")
    keep(folder, dataclasses.replace(settings(folder), remind=seconds))
    typer.echo(f"a nudge is posted again after {delay.strip()}")


@app.command()
@refusals
def server(
    url: Annotated[
        str, typer.Argument(metavar="URL", help="The public address of `cok serve`, e.g. https://club.example/cok")
    ],
    campaign: CampaignOpt = None,
) -> None:
    """Link each post to its page on the server at this public address."""
    import dataclasses

    from cok.notify.destinations import keep, settings

    if not url.startswith(("http://", "https://")):
        raise RuleError(f"the server's address starts with http:// or https:// (got {url!r})")
    folder = open_valid(campaign).folder
    keep(folder, dataclasses.replace(settings(folder), server=url.rstrip("/")))
    typer.echo(f"posts link to {url.rstrip('/')}/activity")
