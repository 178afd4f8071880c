"""Several campaigns on one server (issue 38): a club's folder of campaigns, each served by its
own `create_app` under `/<slug>/`, and the club's page at `/` saying each campaign's game, where
it stands (the game's period) and who leads. A phone's session is its campaign's alone: the
cookie is scoped to the campaign's path and named after it, so signing in to one campaign never
signs a phone out of another, nor into it."""

from __future__ import annotations

import asyncio
import contextlib
import re
import time
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from importlib import resources
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from cok.core import deadlines
from cok.core.errors import Problem, Refused, RuleError, told
from cok.core.folders import SETTINGS_FILE
from cok.links import served
from cok.links.invites import Keys, identity
from cok.render import markup
from cok.serve.due import next_due
from cok.serve.guards import HEADERS
from cok.serve.limiter import Limiter
from cok.serve.server import root
from cok.serve.sessions import COOKIE
from cok.serve.threads import in_thread

#: The club's own pages carry the headers every campaign's do (serve/guards.py).
_HEADERS = {"cache-control": "no-cache", **{k.decode(): v.decode() for k, v in HEADERS}}
#: Seconds between two looks at the club's folder for campaigns added or removed.
RESCAN = 1.0
#: Seconds before a campaign that could not be opened is tried again.
RETRY = 5.0


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
    return served.slug(folder)


@dataclass
class Member:
    """One campaign of the club: where it is served, and why it cannot be, if it cannot."""

    slug: str
    folder: Path
    problems: list[str]
    app: ASGIApp | None = None
    links: int = 0
    tried: float = 0.0  # when the club last tried to open it (time.monotonic), if it could not


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
    due: str = ""  # the next deadline in words ("orders from Bo: Thu 3 Dec 20:00 — in 2 days")
    next: Mapping[str, object] | None = None  # the same as `--json` shows a wait (`Due.document`)


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
        first = deadlines.first_due(view.dues())
        due = next_due(first, view.people(), view.campaign, getattr(member.app, "clock", deadlines.now)())
        line = Line(member.slug, view.campaign.name, view.ruleset.title, period, leaders(standings), [], due)
        return replace(line, next=first.document() if first else None)
    except Refused as refused:
        return Line(member.slug, member.folder.name, "", "", "", told(refused.problems))
    except (RuleError, OSError) as failed:
        return Line(member.slug, member.folder.name, "", "", "", [str(failed)])


class Club:
    """The club's app: its page, and each campaign's app under its path. It follows its folder
    (`follow`): a campaign added while serving is served, one removed answers 404 with the
    club's page, without a restart. A personal link is the campaign's, not the path's: a link
    printed without the club's path (`/join/…`, before the club's first serve) or under a path
    the campaign no longer has (its folder renamed) is sent on to where its campaign is served."""

    def __init__(
        self,
        folder: Path,
        members: list[Member],
        create: Callable[[Path], Starlette] | None = None,
        made: dict[Path, Starlette] | None = None,
    ) -> None:
        self.folder = folder
        self.members = members
        self.env = markup.environment(["cok.serve"])
        self.create = create
        self.limiter = Limiter()
        self.keys: dict[Path, Keys] = {}
        self._app: Starlette | None = None
        self._scanned = time.monotonic()
        self._following = asyncio.Lock() if create is not None else None
        #: Each served campaign's own application, whose lifespan runs within the club's.
        self._made: dict[Path, Starlette] = dict(made or {})
        #: The lifespans running now, by folder (None: the club's own has not started).
        self._running: dict[Path, contextlib.AsyncExitStack] | None = None

    def page(self, request: Request, missing: str | None = None) -> str:
        lines = [_line(m) for m in self.members]
        return self.env.get_template("club.html").render(
            root=root(request), club=self.folder.name, lines=lines, missing=missing
        )

    def app(self) -> Starlette:
        club = self

        class Following:
            """Each request first sees the club's folder as it is now (serve/club.py)."""

            def __init__(self, app: ASGIApp) -> None:
                self.app = app

            async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
                if scope["type"] == "http":
                    path, under = str(scope.get("path", "/")), str(scope.get("root_path", ""))
                    await club.follow(path[len(under) :] if under and path.startswith(under) else path)
                await self.app(scope, receive, send)

        self._app = Starlette(routes=self._routes(), middleware=[Middleware(Following)], lifespan=self.running)
        self._app.state.club = self
        return self._app  # each campaign's app has its own Guard: its headers once

    @contextlib.asynccontextmanager
    async def running(self, _: Starlette) -> AsyncIterator[None]:
        """Each campaign's own lifespan, run within the club's (a Mount runs none): their
        background work starts with the club's application and stops with it; a campaign added
        while serving starts its own when it is first served, one removed stops it."""
        if self._running is not None:  # started already (a second client of the same application)
            yield
            return
        running: dict[Path, contextlib.AsyncExitStack] = {}
        self._running = running
        try:
            await self._lifespans()
            yield
        finally:
            self._running = None
            for stack in reversed(list(running.values())):
                await stack.aclose()

    async def _lifespans(self) -> None:
        """The running lifespans brought in line with the campaigns served now."""
        if self._running is None:
            return
        served = {m.folder for m in self.members if m.app is not None}
        for folder in [f for f in self._running if f not in served]:
            await self._running.pop(folder).aclose()
        for folder in sorted(served - set(self._running)):
            made = self._made.get(folder)
            if made is not None:
                stack = contextlib.AsyncExitStack()
                await stack.enter_async_context(made.router.lifespan_context(made))
                self._running[folder] = stack

    def _routes(self) -> list[BaseRoute]:
        async def club_page(request: Request) -> Response:
            return HTMLResponse(await in_thread(self.page, request), headers=_HEADERS)

        async def serve_css(request: Request) -> Response:
            css = resources.files("cok.serve").joinpath("templates/serve.css").read_text(encoding="utf-8")
            return Response(css, media_type="text/css")

        from cok.serve import campaigns  # the club's API: its campaigns as this page lists them

        routes: list[BaseRoute] = [
            Route("/", club_page),
            Route("/_cok/serve.css", serve_css),
            Route("/join/{token}", self.join),
        ]
        routes += campaigns.routes(lambda: [_line(m) for m in self.members], _HEADERS)
        for member in self.members:
            if member.app is not None:
                routes.append(Mount(f"/{member.slug}", app=member.app))
            else:
                routes.append(Mount(f"/{member.slug}", app=_unopened(self, member)))
        routes += [
            Route("/{gone}/join/{token}", self.join),
            Route("/{gone}", self.gone, methods=["GET", "HEAD", "POST"]),
            Route("/{gone}/{rest:path}", self.gone, methods=["GET", "HEAD", "POST"]),
        ]
        return routes

    # --- a link is the campaign's ------------------------------------------------------------------

    async def join(self, request: Request) -> Response:
        """`/join/<token>` (or under a path no campaign has): sent on (307, the method kept) to
        the link's campaign's own `/join/`; a link of none of them counts as a wrong one."""
        token = request.path_params["token"]
        found = await in_thread(self.holder, token)
        if found is None:  # perhaps a campaign added a moment ago
            await self.follow("", now=True)
            found = await in_thread(self.holder, token)
        address = request.client.host if request.client else "unknown"
        wait = self.limiter.judge(address, found is not None)
        if wait:
            return HTMLResponse("Too many wrong links from here: wait a minute.", 429, {"retry-after": str(wait)})
        if found is None:
            said = "This link opens none of the club's campaigns: it was revoked, replaced or mistyped."
            return HTMLResponse(await in_thread(self.page, request, said), 401, headers=_HEADERS)
        query = f"?{request.url.query}" if request.url.query else ""
        return RedirectResponse(f"{root(request)}/{found.slug}/join/{token}{query}", 307, headers=_HEADERS)

    def holder(self, token: str) -> Member | None:
        """The campaign this link signs in to, if any of the club's does."""
        for member in self.members:
            if member.app is None:
                continue
            keys = self.keys.setdefault(member.folder, Keys(member.folder))
            if keys.find(token) is not None:
                return member
        return None

    async def gone(self, request: Request) -> Response:
        """A path no campaign of the club is served at (any more): the club's page, 404; a
        campaign's own path without its slash: sent to it (its links are relative to it)."""
        if request.path_params["gone"] in {m.slug for m in self.members} and "rest" not in request.path_params:
            return RedirectResponse(f"{root(request)}/{request.path_params['gone']}/", 308, headers=_HEADERS)
        said = (
            f"No campaign is served at /{request.path_params['gone']}/: its folder was removed or renamed, "
            "or the address is mistyped. The club's campaigns are listed below."
        )
        return HTMLResponse(await in_thread(self.page, request, said), 404, headers=_HEADERS)

    # --- the club follows its folder ---------------------------------------------------------------

    async def follow(self, path: str, now: bool = False) -> None:
        """The club's campaigns as its folder holds them now: looked at again at most once a
        second, and at once when the path asked for is no campaign's, or its campaign lost its
        campaign.yaml (a campaign added or removed a moment ago is seen at its first request)."""
        if self._following is None or self._app is None:
            return
        asked = path.strip("/").split("/", 1)[0]
        member = next((m for m in self.members if m.slug == asked), None)
        if asked and asked not in ("_cok", "join"):
            now = now or member is None or not (member.folder / SETTINGS_FILE).is_file()
        if not now and time.monotonic() - self._scanned < RESCAN:
            return
        async with self._following:
            if await in_thread(self._gather):
                self._app.router.routes[:] = self._routes()
                await self._lifespans()
            self._scanned = time.monotonic()

    def _gather(self) -> bool:
        """The members brought in line with the folder; whether any came or went. One that could
        not be opened is tried again every few seconds (a campaign still being copied in, a log
        fixed since), so that it is served once it opens, without a restart."""
        here = set(campaigns_in(self.folder))
        now = time.monotonic()
        standing = [m for m in self.members if m.folder in here and (m.folder / SETTINGS_FILE).is_file()]
        kept = [m for m in standing if m.app is not None or now - m.tried < RETRY]
        changed = len(kept) != len(self.members)
        for gone in self.members:
            if gone not in kept:
                self.keys.pop(gone.folder, None)
                self._made.pop(gone.folder, None)
        known = {m.folder for m in kept}
        for folder in sorted(here - known):
            kept.append(self._joined(folder, kept))
            changed = True
        if changed:
            self.members[:] = sorted(kept, key=lambda m: m.slug)
        return changed

    def _joined(self, folder: Path, members: list[Member]) -> Member:
        """A campaign added to the club's folder while serving: served as those found at start
        were, or listed with why it cannot be (the refusals `gathered` makes at start)."""
        from cok.core.campaign import open_campaign

        name = slug(folder)
        member = Member(name or folder.name, folder, [])
        same = next((m for m in members if m.slug == name), None)
        ident = None
        with contextlib.suppress(OSError, RuleError, Refused):
            ident = identity(folder)
        twin = next((m for m in members if ident is not None and identity(m.folder) == ident), None)
        if not name:
            member.problems = [f"{folder.name}: a campaign's folder name needs a letter or a digit to be its path"]
        elif same is not None:
            member.problems = [f"{same.folder.name} and {folder.name} would both be served at /{name}/: rename one"]
        elif twin is not None:
            member.problems = [
                f"{twin.folder.name} and {folder.name} are one campaign (both have id: {ident}): "
                f"remove the line `id:` from the copy's {SETTINGS_FILE}"
            ]
        member.tried = time.monotonic()
        if member.problems:
            member.slug = f"{name or 'campaign'}-{len(members)}"  # listed, never served
            return member
        try:
            open_campaign(folder).valid()
            assert self.create is not None
            made = self.create(folder)
        except Refused as refused:
            member.problems = told(refused.problems)
            return member
        except (RuleError, OSError) as failed:
            member.problems = [str(Problem(str(folder), None, str(failed)))]
            return member
        member.app = Served(OwnCookie(made, member.slug), made)
        self._made[folder] = made
        served.remember(folder, member.slug)
        return member


def _unopened(club: Club, member: Member) -> ASGIApp:
    """A campaign that could not be opened at start: its path says why (503), with the club's page."""

    async def app(scope: Scope, receive: Receive, send: Send) -> None:
        body = club.env.get_template("club.html").render(
            root=str(scope.get("app_root_path", "")).rstrip("/"),
            club=club.folder.name,
            lines=[_line(member)],
            missing=None,
        )
        await HTMLResponse(body, 503, headers=_HEADERS)(scope, receive, send)

    return app


class Served:
    """A campaign's app and its warm campaign, as the club's page reads it (at the campaign's
    own clock: its due times)."""

    def __init__(self, app: ASGIApp, made: Starlette) -> None:
        self.app = app
        self.warm = made.state.server.warm
        self.clock = made.state.server.clock

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await self.app(scope, receive, send)


def club_app(
    folder: Path,
    members: list[Member],
    create: Callable[[Path], Starlette],
) -> Starlette:
    """The club's app: every campaign that opens served by `create(folder)` under its slug,
    with its own cookie; one that does not listed with its problems. Each campaign's background
    work starts and stops with the club's application (`Club.running`)."""
    made_here: dict[Path, Starlette] = {}
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
        member.app = Served(OwnCookie(made, member.slug), made)
        made_here[member.folder] = made
    return Club(folder, members, create, made_here).app()
