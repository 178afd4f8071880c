"""Several campaigns on one server (issue 38): a club's folder of campaigns, each served by its
own `create_app` under `/<slug>/`, and the club's page at `/` saying each campaign's game, where
it stands (the game's period) and who leads. A phone's session is its campaign's alone: the
cookie is scoped to the campaign's path and named after it, so signing in to one campaign never
signs a phone out of another, nor into it."""

from __future__ import annotations

import contextlib
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from importlib import resources
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from cok.core.errors import Problem, Refused, RuleError, told
from cok.core.folders import SETTINGS_FILE
from cok.links.invites import identity
from cok.render import markup
from cok.serve.guards import HEADERS
from cok.serve.server import root
from cok.serve.sessions import COOKIE
from cok.serve.threads import in_thread

#: The club's own pages carry the headers every campaign's do (serve/guards.py).
_HEADERS = {"cache-control": "no-cache", **{k.decode(): v.decode() for k, v in HEADERS}}
#: What a campaign's folder name becomes in its path: lowercase letters, digits and dashes.
_NOT_SLUG = re.compile(r"[^a-z0-9]+")


def is_club(folder: Path) -> bool:
    """A folder that is no campaign itself but holds at least one (a club's folder)."""
    return folder.is_dir() and not (folder / SETTINGS_FILE).is_file() and bool(campaigns_in(folder))


def campaigns_in(folder: Path) -> list[Path]:
    """The campaigns directly inside `folder` (a folder each, holding campaign.yaml), by name."""
    with contextlib.suppress(OSError):
        return sorted(p.parent for p in folder.glob(f"*/{SETTINGS_FILE}") if p.is_file())
    return []


def slug(folder: Path) -> str:
    """The path a campaign is served under: its folder's name, as a URL and a cookie hold it."""
    return _NOT_SLUG.sub("-", folder.name.lower()).strip("-")


@dataclass
class Member:
    """One campaign of the club: where it is served, and why it cannot be, if it cannot."""

    slug: str
    folder: Path
    problems: list[str]
    app: ASGIApp | None = None
    links: int = 0


def gathered(folder: Path) -> list[Member]:
    """The club's campaigns, each with its slug: refused when it holds none, when two would be
    served at one path, or when two are one campaign (the same `id:`: their links and sessions
    would be one)."""
    found = campaigns_in(folder)
    if not found:
        raise RuleError(
            f"{folder} holds no campaign: neither a {SETTINGS_FILE} nor a folder with one "
            "(cok init DIR makes a campaign; cok serve -C DIR serves it, or a folder of them)"
        )
    members: list[Member] = []
    by_slug: dict[str, Path] = {}
    by_id: dict[str, Path] = {}
    for campaign in found:
        name = slug(campaign)
        if not name:
            raise RuleError(f"{campaign}: a campaign's folder name needs a letter or a digit to be its path")
        if name in by_slug:
            raise RuleError(
                f"{by_slug[name].name} and {campaign.name} would both be served at /{name}/: rename one folder"
            )
        by_slug[name] = campaign
        ident = None
        with contextlib.suppress(OSError, RuleError, Refused):  # an unreadable one is listed with its problem
            ident = identity(campaign)
        if ident is not None and ident in by_id:
            raise RuleError(
                f"{by_id[ident].name} and {campaign.name} are one campaign (both have id: {ident} in "
                f"{SETTINGS_FILE}), so their links would be one: remove the line `id:` from the copy's "
                f"{SETTINGS_FILE} (cok invite gives it a new one)"
            )
        if ident is not None:
            by_id[ident] = campaign
        members.append(Member(name, campaign, []))
    return members


# --- the campaign's own cookie --------------------------------------------------------------------


def cookie(name: str) -> str:
    """The session cookie of the campaign served at `/name/`."""
    return f"{COOKIE}_{name.replace('-', '_')}"


class OwnCookie:
    """ASGI middleware around one campaign's app: the phone's cookie for this campaign is
    handed to it under the name it knows, and any other campaign's is never seen; the cookie
    it sets is renamed as this campaign's (its path is already the campaign's own)."""

    def __init__(self, app: ASGIApp, name: str) -> None:
        self.app = app
        self.own = cookie(name).encode()
        self.plain = COOKIE.encode()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = [(k, self._inward(v) if k == b"cookie" else v) for k, v in scope.get("headers", [])]
        scope = {**scope, "headers": headers}

        async def outward(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [(k, self._outward(v) if k == b"set-cookie" else v) for k, v in message["headers"]]
            await send(message)

        await self.app(scope, receive, outward)

    def _outward(self, value: bytes) -> bytes:
        return self.own + value[len(self.plain) :] if value.startswith(self.plain + b"=") else value

    def _inward(self, value: bytes) -> bytes:
        kept = []
        for pair in value.split(b";"):
            name, _, rest = pair.strip().partition(b"=")
            if name == self.plain:
                continue  # a campaign served alone at `/` on this host: not this campaign's
            kept.append(self.plain + b"=" + rest if name == self.own else pair.strip())
        return b"; ".join(kept)


# --- the club's page ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Line:
    """A campaign as the club's page shows it."""

    slug: str
    name: str
    game: str
    period: str
    leads: str
    problems: Sequence[str]


def leaders(document: dict[str, Any]) -> str:
    """Who leads, from the standings' document: every row ranked first of the first ranked
    list, people before houses (No True King's conspirators are ranked once the game is over;
    until then its houses lead)."""
    lists = sorted(((k, v) for k, v in document.items() if isinstance(v, list)), key=lambda kv: kv[0] == "houses")
    for kind, rows in lists:
        first = [r for r in rows if isinstance(r, dict) and r.get("rank") == 1]
        if first:
            named = [str(r.get("name") or r.get("id")) for r in first]
            return " and ".join(f"House {n.title()}" if kind == "houses" else n for n in named)
    return "nobody yet"


#: An absolute path left in a problem's words (a map outside the campaign's folder): only its
#: last part is shown.
_ABSOLUTE = re.compile(r"(?<![\w.])(?:[A-Za-z]:)?[/\\](?:[^\s/\\:]+[/\\])+(?=[^\s/\\:]+)")


def in_public(problems: Sequence[str], folder: Path) -> list[str]:
    """A campaign's problems as its public page shows them: its folder named by its name
    (`broken/events.yaml:385: …`), never by the path the server sees it at (relative to where
    it was started, or absolute); the full path is the terminal's alone (`cok serve` prints it)."""
    seen = {str(folder), str(folder.absolute()), str(folder.resolve())}
    with contextlib.suppress(ValueError, OSError):
        seen.add(str(folder.resolve().relative_to(Path.cwd().resolve())))
    shown = []
    for problem in problems:
        for path in sorted((p for p in seen if p not in ("", ".")), key=len, reverse=True):
            problem = problem.replace(path, folder.name)
        shown.append(_ABSOLUTE.sub("", problem))
    return shown


def _line(member: Member) -> Line:
    line = _told(member)
    return replace(line, problems=in_public(line.problems, member.folder))


def _told(member: Member) -> Line:
    if member.app is None:
        return Line(member.slug, member.folder.name, "", "", "", member.problems)
    warm = getattr(member.app, "warm", None)
    try:
        assert warm is not None
        view = warm.view()
        standings = view.standings()
        period = "game over" if standings.get("over") else view.ruleset.period(view.campaign.state)
        return Line(member.slug, view.campaign.name, view.ruleset.title, period, leaders(standings), [])
    except Refused as refused:
        return Line(member.slug, member.folder.name, "", "", "", told(refused.problems))
    except (RuleError, OSError) as failed:
        return Line(member.slug, member.folder.name, "", "", "", [str(failed)])


class Club:
    """The club's app: its page, and each campaign's app under its path."""

    def __init__(self, folder: Path, members: list[Member]) -> None:
        self.folder = folder
        self.members = members
        self.env = markup.environment(["cok.serve"])

    def page(self, request: Request) -> str:
        lines = [_line(m) for m in self.members]
        return self.env.get_template("club.html").render(root=root(request), club=self.folder.name, lines=lines)

    def app(self) -> Starlette:
        async def club_page(request: Request) -> Response:
            return HTMLResponse(await in_thread(self.page, request), headers=_HEADERS)

        async def serve_css(request: Request) -> Response:
            css = resources.files("cok.serve").joinpath("templates/serve.css").read_text(encoding="utf-8")
            return Response(css, media_type="text/css")

        routes: list[BaseRoute] = [Route("/", club_page), Route("/_cok/serve.css", serve_css)]
        for member in self.members:
            if member.app is not None:
                routes.append(Mount(f"/{member.slug}", app=member.app))
            else:
                routes.append(Mount(f"/{member.slug}", app=_unopened(self, member)))
        return Starlette(routes=routes)  # each campaign's app has its own Guard: its headers once


def _unopened(club: Club, member: Member) -> ASGIApp:
    """A campaign that could not be opened at start: its path says why (503), with the club's page."""

    async def app(scope: Scope, receive: Receive, send: Send) -> None:
        body = club.env.get_template("club.html").render(
            root=str(scope.get("app_root_path", "")).rstrip("/"), club=club.folder.name, lines=[_line(member)]
        )
        await HTMLResponse(body, 503, headers=_HEADERS)(scope, receive, send)

    return app


class Served:
    """A campaign's app and its warm campaign, as the club's page reads it."""

    def __init__(self, app: ASGIApp, warm: Any) -> None:
        self.app = app
        self.warm = warm

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await self.app(scope, receive, send)


def club_app(
    folder: Path,
    members: list[Member],
    create: Callable[[Path], Starlette],
) -> Starlette:
    """The club's app: every campaign that opens served by `create(folder)` under its slug,
    with its own cookie; one that does not listed with its problems."""
    for member in members:
        if member.problems:
            continue
        try:
            made = create(member.folder)
        except Refused as refused:
            member.problems = told(refused.problems)
            continue
        except (RuleError, OSError) as failed:
            member.problems = [str(Problem(str(member.folder), None, str(failed)))]
            continue
        member.app = Served(OwnCookie(made, member.slug), made.state.server.warm)
    return Club(folder, members).app()
