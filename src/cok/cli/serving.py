"""`cok serve` and `cok invite`: the campaign at the table, and the personal links that sign
a phone in (see `cok.serve`)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from cok.cli.options import CampaignOpt, JsonOpt, emit_json, open_valid, refusals
from cok.core.errors import Refused, RuleError

if TYPE_CHECKING:
    from cok.core.campaign import Campaign

app = typer.Typer()

URL = "http://127.0.0.1:8000"


@app.command()
@refusals
def invite(
    player: Annotated[str | None, typer.Argument(metavar="PLAYER", help="The player the link signs in as.")] = None,
    organiser: Annotated[
        str | None, typer.Option("--organiser", metavar="NAME", help="A link for an organiser (several may be).")
    ] = None,
    revoke: Annotated[
        str | None, typer.Option("--revoke", metavar="NAME", help="Stop every link of this player or organiser.")
    ] = None,
    listing: Annotated[
        bool, typer.Option("--list", help="Who has a link (the links themselves are not kept).")
    ] = False,
    url: Annotated[
        str, typer.Option("--url", metavar="URL", help="Where players open the server (as `cok serve` prints it).")
    ] = URL,
    new: Annotated[
        bool,
        typer.Option("--new", help="PLAYER has not joined yet and joins from their phone (No True King: sealed)."),
    ] = False,
    mention: Annotated[
        str | None,
        typer.Option("--mention", metavar="HANDLE", help="How the club's chat mentions them in a nudge: '<@1234>'."),
    ] = None,
    campaign: CampaignOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Print a personal link that signs a phone in to `cok serve` as a player or organiser.

    Only a hash of it is kept, in your data folder ($COK_DATA_DIR moves it), never in the
    campaign folder. A new link for the same person replaces the old one.

    Example: cok invite tim --url http://192.168.1.20:8000
    """
    from cok.serve import invites

    opened = open_valid(campaign)
    folder = opened.folder
    if sum(x is not None for x in (player, organiser, revoke, True if listing else None)) != 1:
        raise RuleError("give one of: PLAYER, --organiser NAME, --revoke NAME, --list")
    if listing:
        kept = invites.links(folder)
        if as_json:
            emit_json({"links": [{"name": k.name, "organiser": k.organiser} for k in kept]})
            return
        for k in kept:
            typer.echo(f"{k.name}{'  (organiser)' if k.organiser else ''}")
        if not kept:
            typer.echo("nobody has a link yet: cok invite PLAYER", err=True)
        return
    if revoke is not None:
        gone = invites.revoke(folder, revoke)
        if not gone:
            known = ", ".join(sorted({k.name for k in invites.links(folder)})) or "nobody"
            raise RuleError(f"{revoke!r} has no link; links are held by: {known}")
        if as_json:
            emit_json({"revoked": revoke, "links": len(gone)})
        else:
            typer.echo(f"{revoke}'s link no longer opens the campaign; a phone signed in with it is signed out")
        return
    if organiser is not None:
        name = " ".join(organiser.split())
        if not name or len(name) > 60 or not name.isprintable():
            raise RuleError("--organiser takes a name: 1 to 60 printable characters")
        is_organiser = True
    else:
        assert player is not None
        name = _newcomer(opened, player) if new else _player(opened, player)
        is_organiser = False
    token = invites.invite(folder, name, organiser=is_organiser)
    if mention is not None:  # kept in the data folder with the notify data (cok notify), never the campaign
        from cok.notify.mentions import mention as keep_mention

        keep_mention(folder, name, mention.strip())
    link = f"{url.rstrip('/')}/join/{token}"
    if as_json:
        emit_json({"player": name, "organiser": is_organiser, "url": link, "token": token})
        return
    role = "an organiser" if is_organiser else "this player"
    typer.echo(f"{name}'s personal link (it signs in as {role}: give it to {name} alone):")
    typer.echo(link)


@app.command()
@refusals
def serve(
    campaign: CampaignOpt = None,
    host: Annotated[
        str, typer.Option("--host", metavar="HOST", help="The address to listen on (0.0.0.0: the whole network).")
    ] = "127.0.0.1",
    port: Annotated[
        int, typer.Option("--port", metavar="PORT", min=1, max=65535, help="The port to listen on.")
    ] = 8000,
    commit: Annotated[
        bool, typer.Option("--commit", help="Commit each event recorded to the campaign's git repository.")
    ] = False,
    root_path: Annotated[
        str, typer.Option("--root-path", metavar="P", help="The path a reverse proxy serves it under, e.g. /cok.")
    ] = "",
    forwarded_allow_ips: Annotated[
        str,
        typer.Option(
            "--forwarded-allow-ips",
            metavar="IPS",
            help="Proxies trusted for X-Forwarded-For/-Proto (comma-separated; default: this machine).",
        ),
    ] = "127.0.0.1",
) -> None:
    """Serve the campaign to every phone at the table: pages to read, and forms to record.

    Anyone who can open the address can read the campaign; recording needs a personal link
    (cok invite). Put a reverse proxy with TLS in front of it to serve it on the internet.

    Example: cok serve --host 0.0.0.0 --port 8000
    """
    import uvicorn

    from cok.serve.app import create_app

    opened = open_valid(campaign)
    folder: Path = opened.folder
    after = None
    if commit:
        after = _committer(folder)
    if root_path and not root_path.startswith("/"):
        raise RuleError(f"--root-path is a path that starts with /, like /cok (got {root_path!r})")
    from cok.notify.courier import serving as notifying

    after, courier = notifying(folder, after)  # the club's chat: queued under the lock, sent off it
    app = create_app(folder, after=after)
    shown = "localhost" if host in ("127.0.0.1", "::1") else host
    typer.echo(f"Serving {opened.name} at http://{shown}:{port}{root_path.rstrip('/')}/  (Ctrl+C stops it)")
    if host in ("0.0.0.0", "::", ""):
        typer.echo(
            "Warning: listening on every network address: anyone on the network can read the campaign "
            "(recording still needs a personal link: cok invite)",
            err=True,
        )
    courier.start()
    try:
        uvicorn.run(
            app,
            host=host,
            port=port,
            root_path=root_path.rstrip("/"),
            proxy_headers=True,
            forwarded_allow_ips=forwarded_allow_ips,
            log_level="warning",
            server_header=False,
        )
    except OSError as failed:
        raise Refused(f"cannot listen on {host}:{port}: {failed.strerror or failed}") from None
    finally:
        courier.stop()


def _committer(folder: Path):  # type: ignore[no-untyped-def]
    """`--commit`: each recording committed with the recorder as its author (the service's hook)."""
    from cok.service.commit import git_commit

    def after(recording, who):  # type: ignore[no-untyped-def]
        git_commit(folder, recording, who.name)

    return after


def _player(opened: Campaign, typed: str) -> str:
    """A player of the campaign, found as recording finds them; one not in it yet is refused
    with the way to invite a player who joins from their own phone."""
    try:
        return str(opened.ruleset.player(opened.state, typed))
    except RuleError as unknown:
        raise RuleError(f"{unknown}; a player who joins from their own phone: cok invite {typed} --new") from None


def _newcomer(opened: Campaign, typed: str) -> str:
    """A player who joins from the phone the link signs in (the link may record only their
    own joining until they are in the game): a new id, never one already playing."""
    from pydantic import TypeAdapter, ValidationError

    from cok.core.events import PlayerId

    try:
        TypeAdapter(PlayerId).validate_python(typed)  # the id the join event will take
    except ValidationError:
        raise RuleError(
            f"--new takes the id the player will join as: lowercase letters, digits, '-' and '_', not {typed!r}"
        ) from None
    try:
        opened.ruleset.player(opened.state, typed)
    except RuleError:
        return typed
    raise RuleError(f"{typed} has already joined: cok invite {typed}")
