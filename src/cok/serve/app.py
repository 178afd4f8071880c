"""The server's application, as Starlette's own examples write one: the routes listed, each an
endpoint of its own module (a request in, a response out), the campaign served kept in
`app.state.server`. The site's pages live and what anyone may read: `public.py`; signing in
from a link: `join.py`; the rules' questions as forms: `forms.py`; the organiser's void:
`void.py`; the other side's word: `verdicts.py`; the organiser's links page: `links.py`; the
game's own pages (its `web()`) under /play/: `play.py`; the JSON API: `api.py`. Every page and
form that needs a link is behind one door (`signed.py`); sync work goes to the thread pool
through `threads.py`. The application owns its background work (`lifespan`): the followers of
every write (the ordered worker of `--commit`'s commits, `--push`'s pusher, the chat's courier)
and the deadlines' alarm (`alarm.py`) start and stop with it, and the warm state is kept when
it stops."""

from __future__ import annotations

import asyncio
import datetime as dt
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Mount, Route

from cok.core import deadlines
from cok.serve import api, extend, forms, join, links, moved, play, problems, public, verdicts, void
from cok.serve.alarm import Sleep
from cok.serve.guards import Guard
from cok.serve.server import Server, ended, page, root, server_of
from cok.serve.sessions import NoStore
from cok.serve.threads import in_thread
from cok.serve.warm import NO_BACKUP, Backup


def routes(server: Server) -> list[BaseRoute]:
    """Every route of one campaign's app (the game's pages are those its `web()` lists)."""
    return [
        Route("/", public.site_page),
        Route("/join/{token}", join.join, methods=["GET", "POST"]),
        Route("/signout", join.signout, methods=["POST"]),
        Route("/activity", public.activity),
        Route("/record", forms.recorded_form, methods=["POST"]),
        Route("/recorded/{key}", forms.recorded_page),
        Route("/void", void.void_form, methods=["GET", "POST"]),
        Route("/deadline", extend.more_time, methods=["POST"]),  # docs/deadlines.md: more time
        Route("/verdict", verdicts.verdict, methods=["POST"]),  # docs/confirm.md: the other side's word
        Route("/_cok/serve.css", public.serve_css),
        Route("/_cok/live.js", public.live_js),
        Route("/favicon.ico", public.favicon),
        Mount("/api", routes=api.routes()),
        Mount("/play", routes=[play.route(form) for form in server.web().forms]),
        Route("/links", links.links_page, methods=["GET", "POST"]),
        Route("/{club}/join/{token}", moved.join_here),  # a club's link, served alone
        Route("/{path:path}", public.site_page),
    ]


async def problem(request: Request, exc: Exception) -> Response:
    """A refusal as the asker reads it: JSON under /api/, else a page (a phone signed out is
    shown how to sign in; one whose session ended, to open the same link again)."""
    assert isinstance(exc, HTTPException)
    if request.url.path.startswith(f"{root(request)}/api/") or request.url.path.startswith("/api/"):
        return problems.problem(exc.status_code, exc.detail, headers=exc.headers)
    if exc.status_code == 401 and server_of(request).session(request) is None:
        detail = ended(request)
        if detail is None and request.method in ("GET", "HEAD"):
            return await page(request, "sign-in.html", 401)
        return await page(request, "refused.html", 401, problems=[detail or exc.detail])
    return await page(request, "refused.html", exc.status_code, problems=[exc.detail])


@asynccontextmanager
async def running(app: Starlette) -> AsyncIterator[None]:
    """The campaign's background work, started with the application and stopped with it (on
    SIGTERM too): every change handed over is followed before it stops."""
    warm, alarm = app.state.server.warm, app.state.server.alarm
    await in_thread(warm.start)
    await alarm.start()  # docs/deadlines.md: asleep until the next due time, armed again by every write
    try:
        yield
    finally:
        await alarm.stop()
        await in_thread(warm.stop)


def create_app(
    folder: Path,
    *,
    backup: Backup = NO_BACKUP,
    clock: Callable[[], dt.datetime] = deadlines.now,
    sleep: Sleep = asyncio.sleep,
) -> Starlette:
    """The application for one campaign folder (the campaign is opened on the first request);
    `backup`: `--commit` and `--push`, followers of every write; `clock` and `sleep`: the
    ledger's time and how its alarm waits (a test's own: it never sleeps)."""
    server = Server(folder, backup, clock=clock, sleep=sleep)
    middleware = [Middleware(Guard), Middleware(NoStore)]
    app = Starlette(
        routes=routes(server), middleware=middleware, exception_handlers={HTTPException: problem}, lifespan=running
    )
    app.state.server = server
    return app
