"""`cok serve` and `cok invite`: the campaign at the table, and the personal links that sign
a phone in (see `cok.serve`)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from cok.cli.options import USUAL, CampaignOpt, Manner, emit_json, open_valid, refusals, tells
from cok.core.errors import Refused, RuleError

if TYPE_CHECKING:
    from cok.core.campaign import Campaign

app = typer.Typer()

URL = "http://127.0.0.1:8000"


@app.command()
@refusals
@tells
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
        str | None,
        typer.Option(
            "--url",
            metavar="URL",
            help="Where players open the server (as `cok serve` prints it); remembered for the next links.",
        ),
    ] = None,
    new: Annotated[
        bool,
        typer.Option("--new", help="PLAYER has not joined yet and joins from their phone (No True King: sealed)."),
    ] = False,
    qr: Annotated[bool, typer.Option("--qr", help="Also show the link as a QR code to scan from this screen.")] = False,
    qr_file: Annotated[
        Path | None,
        typer.Option("--qr-file", metavar="FILE", help="Write the link's QR code to print: FILE.png or FILE.svg."),
    ] = None,
    mention: Annotated[
        str | None,
        typer.Option("--mention", metavar="HANDLE", help="How the club's chat mentions them in a nudge: '<@1234>'."),
    ] = None,
    how: Manner = USUAL,
) -> None:
    """Print a personal link that signs a phone in to `cok serve` as a player or organiser.

    Only a hash of it is kept, in your data folder ($COK_DATA_DIR moves it), never in the
    campaign folder. A new link for the same person replaces the old one.

    Example: cok invite tim --url http://192.168.1.20:8000
    """
    from cok.links import addresses, invites

    opened = open_valid(how.campaign)
    folder = opened.folder
    if sum(x is not None for x in (player, organiser, revoke, True if listing else None)) != 1:
        raise RuleError("give one of: PLAYER, --organiser NAME, --revoke NAME, --list")
    if listing:
        kept = invites.links(folder)
        if how.as_json:
            emit_json({"links": [{"name": k.name, "organiser": k.organiser} for k in kept]})
            return
        for k in kept:
            typer.echo(f"{k.name}{'  (organiser)' if k.organiser else ''}")
        if not kept:
            typer.echo("nobody has a link yet: cok invite PLAYER", err=True)
        typer.echo(f"{_links_said(len(kept))}, kept in {invites.store(folder)}", err=True)
        return
    if revoke is not None:
        gone = invites.revoke(folder, revoke)
        if not gone:
            known = ", ".join(sorted({k.name for k in invites.links(folder)})) or "nobody"
            raise RuleError(f"{revoke!r} has no link; links are held by: {known}")
        if how.as_json:
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
    base, warning = _base_url(folder, url)
    if qr_file is not None:
        _picture_may_go(qr_file, folder)
    token = invites.invite(folder, name, organiser=is_organiser)
    if mention is not None:  # kept in the data folder with the notify data (cok notify), never the campaign
        from cok.notify.mentions import mention as keep_mention

        keep_mention(folder, name, mention.strip())
    if url is not None:
        addresses.remember(folder, base)  # after the invite: kept under the campaign's identity
    if warning and not how.as_json:
        typer.echo(f"Warning: {warning}", err=True)
    link = f"{base}/join/{token}"
    if qr_file is not None:
        from cok.links import qr as codes

        codes.write(link, qr_file)
    if how.as_json:
        shown: dict[str, object] = {"player": name, "organiser": is_organiser, "url": link, "token": token}
        if qr_file is not None:
            shown["qr_file"] = str(qr_file)
        emit_json(shown)
        return
    role = "an organiser" if is_organiser else "this player"
    typer.echo(f"{name}'s personal link (it signs in as {role}: give it to {name} alone):")
    typer.echo(link)
    if qr:
        from cok.links import qr as codes

        typer.echo(codes.terminal(link))
        typer.echo(f"(scan it with {name}'s phone camera)")
    if qr_file is not None:
        typer.echo(f"QR code written to {qr_file}: it signs in as {name}; delete it once printed", err=True)


def _picture_may_go(path: Path, folder: Path) -> None:
    """A QR code is the link itself: refused inside the campaign folder (git tracks it and every
    player reads it), and refused for a kind of picture not made."""
    if path.suffix.lower() not in (".png", ".svg"):
        raise RuleError(f"--qr-file writes a .png or an .svg, not {path.name!r}")
    if path.resolve().is_relative_to(folder.resolve()):
        raise RuleError(f"--qr-file {path}: not inside the campaign folder, which git tracks: write it elsewhere")
    if not path.parent.is_dir():
        raise RuleError(f"--qr-file {path}: no folder {path.parent}")


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
    push: Annotated[
        bool,
        typer.Option(
            "--push",
            help="With --commit: push the commits to the campaign's remote in the background, retrying; "
            "never pulls, never forces.",
        ),
    ] = False,
    remote: Annotated[
        str | None,
        typer.Option(
            "--remote",
            metavar="NAME",
            help="The remote --push pushes to (default: the branch's upstream, else origin).",
        ),
    ] = None,
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
    public_url: Annotated[
        str | None,
        typer.Option(
            "--public-url",
            metavar="URL",
            help="The address players open through a proxy (e.g. https://club.example/cok); remembered.",
        ),
    ] = None,
    https: Annotated[
        bool,
        typer.Option(
            "--https",
            help="Serve https with a certificate made for this machine (No True King seals only over https); "
            "each phone accepts it once.",
        ),
    ] = False,
) -> None:
    """Serve the campaign to every phone at the table: pages to read, and forms to record.

    Anyone who can open the address can read the campaign; recording needs a personal link
    (cok invite). Put a reverse proxy with TLS in front of it to serve it on the internet.
    Given a folder of campaigns (-C DIR), serves them all: the club's page at /, each
    campaign under /FOLDER-NAME/ with its own links.

    Example: cok serve --host 0.0.0.0 --port 8000
    """
    import uvicorn
    from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

    from cok.links import addresses, served
    from cok.serve import club
    from cok.serve.app import create_app
    from cok.serve.deadline import CONNECTIONS, KEEP_ALIVE, Deadline
    from cok.serve.forwarded import Untrusted
    from cok.serve.prefix import Prefix
    from cok.serve.reach import Listen, Listening
    from cok.service.followers import Backup

    if root_path and not root_path.startswith("/"):
        raise RuleError(f"--root-path is a path that starts with /, like /cok (got {root_path!r})")
    root = root_path.rstrip("/")
    if remote is not None and not push:
        raise RuleError("--remote names where --push pushes: serve with --commit --push --remote NAME")
    backup = Backup(commit, (remote or "") if push else None)
    public = None
    if public_url is not None:
        public, warning = addresses.checked_url(public_url, "--public-url")
        if warning:
            typer.echo(f"Warning: {warning}", err=True)
    gathering = _club_folder(campaign)
    if gathering is None:
        opened = open_valid(campaign)
        folder: Path = opened.folder
        title = opened.name
        backup.checked(folder)  # said to the organiser now, not to a player at their first recording
        backed = [folder]
        _need_port(host, port)
        _served_alone(folder, public)
        inner: Any = Prefix(create_app(folder, backup=backup), root)
        here: list[tuple[Path, str | None]] = [(folder, None)]
    else:
        members = club.gathered(gathering)
        backed = [m.folder for m in members if _opens(m)]
        for each in backed:
            backup.checked(each)
        _need_port(host, port)
        title = f"the {len(members)} campaigns of {gathering.resolve().name}"
        built = club.club_app(gathering, members, lambda f: create_app(f, backup=backup))
        if public is not None:
            addresses.remember(gathering, public)  # for a campaign added while serving
        for m in members:
            served.remember(m.folder, m.slug)
            kept = public if public is not None else addresses.public(m.folder)
            if kept:
                addresses.remember(m.folder, served.under(kept, m.slug))
        inner = Prefix(built, root)
        folder = gathering
        here = [(gathering, None), *((m.folder, m.slug) for m in members)]  # the club's: for campaigns added later
    proxied: Any = ProxyHeadersMiddleware(inner, trusted_hosts=forwarded_allow_ips)
    app = Listen(Untrusted(proxied, forwarded_allow_ips), Listening(host, port, "https" if https else "http"))
    shown = addresses.served_at(host, port, root)
    tls: dict[str, Any] = {"http": Deadline}
    if https:
        from cok.serve import certificate

        hosts = addresses.network_addresses() if host in addresses.EVERY else [host]
        cert, private = certificate.made_for(folder, hosts)
        from cok.serve.tls import context, one_port

        tls = {"http": one_port(context(cert, private)), "loop": "asyncio"}  # http:// answered with a redirect
        shown = [s.replace("http://", "https://", 1) for s in shown]
    for where, path in here if public is None else []:
        addresses.served_now(where, served.under(shown[0], path))  # this run's address, not an old --url's
    typer.echo(f"Serving {title} at {shown[0]}  (Ctrl+C stops it)")
    for more in shown[1:]:
        typer.echo(f"  also at {more}")
    if gathering is None:
        _said_alone(folder)
    else:
        _said_club(members, shown[0])
    _said_pushing(backed, backup)
    if https:
        typer.echo("Each phone is warned once that the certificate is not trusted: Advanced, then Proceed")
        typer.echo("(Safari: Show Details, visit this website). The certificate's SHA-256 fingerprint:")
        typer.echo(f"  {certificate.fingerprint(cert)}")
    if host in addresses.EVERY:
        typer.echo(
            "Warning: listening on every network address: anyone on the network can read the campaign "
            "(recording still needs a personal link: cok invite)",
            err=True,
        )
    try:  # the application starts and stops its own background work (its lifespan)
        uvicorn.run(
            app,
            host=host,
            port=port,
            root_path=root,
            proxy_headers=False,  # applied above, inside the warning about untrusted ones
            timeout_keep_alive=KEEP_ALIVE,
            limit_concurrency=CONNECTIONS,
            log_level="warning",
            server_header=False,
            **tls,
        )
    except OSError as failed:
        raise Refused(f"cannot listen on {host}:{port}: {failed.strerror or failed}") from None
    except SystemExit as stopped:
        if stopped.code not in (0, None):
            raise Refused(f"cok serve could not start on {host}:{port} (see the message above)") from None


def _said_pushing(folders: list[Path], backup: Any) -> None:
    """Where `--push` pushes, once per repository (its campaigns share one pusher)."""
    if backup.push is None:
        return
    from cok.service.push import target

    for _repo, remote, branch in dict.fromkeys(target(f, backup.push or None) for f in folders):
        typer.echo(f"Pushing each commit to {remote} ({branch}) in the background")


def _club_folder(campaign: str | None) -> Path | None:
    """The club's folder when `cok serve` is given a folder of campaigns (-C DIR, or the current
    folder when it is in no campaign): None for one campaign, served as ever."""
    from cok.core.folders import SETTINGS_FILE
    from cok.serve import club

    if campaign is not None:
        given = Path(campaign)
        if given.is_dir() and not (given / SETTINGS_FILE).is_file():
            club.gathered(given)  # refused when it holds no campaign
            return given
        return None
    here = Path.cwd()
    if any((f / SETTINGS_FILE).is_file() for f in (here, *here.parents)) or os.environ.get("COK_CAMPAIGN"):
        return None
    return here if club.is_club(here) else None


def _opens(member: Any) -> bool:
    """Whether a campaign of the club opens (its log read): one that does not is listed on the
    club's page with its problems, and the others are served."""
    from cok.core.campaign import open_campaign
    from cok.core.errors import told

    try:
        open_campaign(member.folder).valid()
    except Refused as refused:
        member.problems = told(refused.problems)
        return False
    except (RuleError, OSError) as failed:
        member.problems = [str(failed)]
        return False
    return True


def _served_alone(folder: Path, public: str | None) -> None:
    """A campaign served alone: its public URL remembered, and no longer one under a club's path."""
    from cok.links import addresses, served

    was = served.served_as(folder)
    served.remember(folder, None)  # links at / (one under a club's path is sent on: serve/moved.py)
    if was is not None:
        kept = addresses.remembered(folder)
        if public is None and kept and kept.endswith(f"/{was}"):
            addresses.remember(folder, kept[: -len(was) - 1])
    if public is not None:
        addresses.remember(folder, public)


def _said_alone(folder: Path) -> None:
    from cok.links import addresses, invites

    given = addresses.public(folder)
    if given:
        typer.echo(f"  players open {given}/ (the public address, as cok invite gives it)")
    known = len(invites.links(folder))
    typer.echo(f"{_links_said(known)}{'' if known else ': cok invite PLAYER'} (kept in {invites.store(folder)})")


def _said_club(members: list[Any], shown: str) -> None:
    """Each campaign of the club: its address (the public one when it has one), its links."""
    from cok.links import addresses, invites, served

    for m in members:
        address = f"{addresses.public(m.folder) or served.under(shown, m.slug)}/"
        if m.problems:
            typer.echo(f"  {address}  {m.folder.name}: cannot be opened, listed with its problems:", err=True)
            for problem in m.problems:
                typer.echo(f"    {problem}", err=True)
            continue
        known = len(invites.links(m.folder))
        typer.echo(f"  {address}  {_links_said(known)}")
    typer.echo("Links are each campaign's own: cok invite PLAYER -C FOLDER (it adds the campaign's path)")


def _links_said(known: int) -> str:
    return "nobody has a link yet" if known == 0 else f"{known} link{'s' if known != 1 else ''} known"


def _base_url(folder: Path, url: str | None) -> tuple[str, str | None]:
    """The address a link starts with: --url (checked), else the one the campaign remembers,
    else this machine's, with a warning that only it can open that; under the campaign's path
    when it is served in a club (`cok serve` of a folder of campaigns)."""
    from cok.links import addresses, served

    path = served.path_of(folder)
    if url is not None:
        base, warning = addresses.checked_url(url)
        return served.under(base, path), warning
    remembered = addresses.remembered(folder)
    if remembered:
        return served.under(remembered, path), None
    club = addresses.remembered(folder.resolve().parent) if path is not None else None
    if club:  # a campaign added to a club while it is served: the club's address of this run
        return served.under(club, path), None
    return served.under(addresses.checked_url(URL)[0], path), (
        f"{URL} opens on this machine alone: give the address phones open once, with --url "
        "(cok serve prints it), and later links use it"
    )


def _need_port(host: str, port: int) -> None:
    """A port another program holds is said in words before uvicorn says it as Errno 98."""
    import errno
    import socket

    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host or "0.0.0.0", port))
        except OSError as failed:
            if failed.errno == errno.EADDRINUSE:
                raise Refused(
                    f"port {port} is already in use on {host} (another cok serve, or another program): "
                    f"stop it, or choose another port with --port {port + 1}"
                ) from None
            if failed.errno == errno.EADDRNOTAVAIL:
                raise Refused(f"--host {host} is not an address of this machine: use 0.0.0.0 or 127.0.0.1") from None
            if failed.errno == errno.EACCES:
                raise Refused(f"port {port} needs the administrator's rights here: choose one above 1023") from None
            raise Refused(f"cannot listen on {host}:{port}: {failed.strerror or failed}") from None


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
