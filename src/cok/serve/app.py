"""The server's routes: the site's pages live, signing in from a link, the rules' questions,
the organiser's void, and the game's own pages (its `web()`) under /play/. The JSON API is in
`api.py`. Every call to the campaign runs in the thread pool (the lock blocks)."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from importlib import resources
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import BaseRoute, Mount, Route

from cok.serve import api
from cok.serve.guards import Guard
from cok.serve.kit import Visit
from cok.serve.server import Server, root, secure, with_bar
from cok.serve.sessions import COOKIE, LIFETIME, Session
from cok.serve.table import Asked, Draft, Recording, Refused, Who

TYPES = {".html": "text/html; charset=utf-8", ".svg": "image/svg+xml", ".css": "text/css", ".json": "application/json"}


def routes(server: Server) -> list[BaseRoute]:
    table = server.table

    async def site_page(request: Request) -> Response:
        path = request.path_params.get("path") or "index.html"
        view = await run_in_threadpool(table.view)
        text = await run_in_threadpool(view.page, path)
        if text is None:
            raise HTTPException(404, f"no page {path}")
        kind = TYPES.get(Path(path).suffix, "text/plain; charset=utf-8")
        if kind.startswith("text/html"):
            session = server.session(request)
            css = f'<link rel="stylesheet" href="{root(request)}/_cok/serve.css">\n'
            text = with_bar(text, await run_in_threadpool(server.bar, request, session, view), css)
        return Response(text, media_type=kind, headers={"cache-control": "no-cache"})

    async def serve_css(request: Request) -> Response:
        css = resources.files("cok.serve").joinpath("templates/serve.css").read_text(encoding="utf-8")
        return Response(css, media_type="text/css")

    async def live_js(request: Request) -> Response:
        script = resources.files("cok.serve").joinpath("templates/live.js").read_text(encoding="utf-8")
        return Response(script, media_type="text/javascript", headers={"cache-control": "no-cache"})

    async def join(request: Request) -> Response:
        address = server.address(request)
        wait = server.limiter.wait(address)
        if wait:
            return HTMLResponse("Too many wrong links from here: wait a minute.", 429, {"retry-after": str(wait)})
        link = await run_in_threadpool(server.keys.find, request.path_params["token"])
        if link is None:
            server.limiter.failed(address)
            session = server.session(request)
            return await run_in_threadpool(lambda: server.render(request, session, "unknown-link.html", 401))
        server.sessions.end(request.cookies.get(COOKIE))
        sid = server.sessions.start(link)
        response = RedirectResponse(f"{root(request)}/", 303)
        response.set_cookie(
            COOKIE,
            sid,
            max_age=LIFETIME,
            path=f"{root(request)}/",
            httponly=True,
            samesite="strict",
            secure=secure(request),
        )
        return response

    async def signout(request: Request) -> Response:
        session = server.session(request)
        form = await request.form()
        if session is None or not session.checks(_text(form.get("csrf"))):
            raise HTTPException(403, "this form is not from this signed-in page: open it again")
        server.sessions.end(request.cookies.get(COOKIE))
        response = RedirectResponse(f"{root(request)}/", 303)
        response.delete_cookie(COOKIE, path=f"{root(request)}/")
        return response

    async def activity(request: Request) -> Response:
        from cok.notify.outbox import failed_posts

        session = server.session(request)
        view = await run_in_threadpool(table.view)
        entries = await run_in_threadpool(view.activity)
        return await run_in_threadpool(
            lambda: server.render(
                request,
                session,
                "activity.html",
                entries=entries,
                organiser=_organiser(session),
                chat_failed=_organiser(session) and failed_posts(server.table.folder),  # cok notify status
            )
        )

    async def recorded_form(request: Request) -> Response:
        """The rules' question answered (or the same battle confirmed): the drafts again, with
        the answers given so far."""
        session, form = await _signed_in_form(server, request)
        try:
            drafts = [Draft(str(d["type"]), dict(d["fields"])) for d in json.loads(form.get("drafts", ""))]
            answers = json.loads(form.get("answers", "") or "{}")
            if not isinstance(answers, dict):
                raise TypeError
        except (ValueError, TypeError, KeyError):
            raise HTTPException(400, "this form's events are not readable: start again from its page") from None
        answers.update(_answers(form))
        return await record_drafts(server, request, session, drafts, answers, again=form.get("again") == "1")

    async def void_form(request: Request) -> Response:
        """The organiser voids an event: first what it takes with it, then the void."""
        if request.method == "GET":
            session = server.session(request)
            _need_organiser(session)
            return await run_in_threadpool(
                lambda: server.render(
                    request,
                    session,
                    "void.html",
                    target=request.query_params.get("target", ""),
                    voiding=None,
                    reason="",
                )
            )
        session, form = await _signed_in_form(server, request)
        _need_organiser(session)
        target, reason = form.get("target", "").strip(), form.get("reason", "").strip()
        who = server.who(session)
        assert who is not None
        if not target or not reason:
            return await run_in_threadpool(
                lambda: server.render(
                    request,
                    session,
                    "void.html",
                    422,
                    target=target,
                    voiding=None,
                    reason=reason,
                    problems=["give the event's id and a reason"],
                )
            )
        try:
            voiding = await run_in_threadpool(table.voiding, target, reason, who)
            if form.get("confirm") != "1":
                return await run_in_threadpool(
                    lambda: server.render(request, session, "void.html", target=target, voiding=voiding, reason=reason)
                )
            done = await run_in_threadpool(table.void, voiding, reason, who)
        except Refused as refused:
            problems = [p.message for p in refused.problems]
            return await run_in_threadpool(
                lambda: server.render(
                    request, session, "void.html", 422, target=target, voiding=None, reason=reason, problems=problems
                )
            )
        return await run_in_threadpool(lambda: server.render(request, session, "recorded.html", recording=done))

    def game_route(form: Any) -> Route:
        async def endpoint(request: Request) -> Response:
            session: Session | None
            if request.method == "POST":
                session, fields = await _signed_in_form(server, request)
            else:
                session, fields = server.session(request), {}
                if session is None:
                    return await run_in_threadpool(lambda: server.render(request, None, "sign-in.html", 401))
            if form.organiser:
                _need_organiser(session)
            visit = Visit(
                request,
                table,
                server.who(session),
                root(request),
                render=lambda template, status=200, **values: server.render(
                    request, session, template, status, **values
                ),
                record=lambda drafts, answers=None: record_drafts(
                    server, request, session, drafts, dict(answers or {})
                ),
                form=fields,
            )
            response: Response = await form.endpoint(visit)
            return response

        return Route(form.path, endpoint, methods=list(form.methods))

    game = [game_route(f) for f in server.web().forms]
    return [
        Route("/", site_page),
        Route("/join/{token}", join),
        Route("/signout", signout, methods=["POST"]),
        Route("/activity", activity),
        Route("/record", recorded_form, methods=["POST"]),
        Route("/void", void_form, methods=["GET", "POST"]),
        Route("/_cok/serve.css", serve_css),
        Route("/_cok/live.js", live_js),
        Mount("/api", routes=api.routes(server)),
        Mount("/play", routes=game),
        Route("/{path:path}", site_page),
    ]


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def _organiser(session: Session | None) -> bool:
    return session is not None and session.link.organiser


def _need_organiser(session: Session | None) -> None:
    if session is None:
        raise HTTPException(401, "open your personal link first (ask the organiser for one: cok invite)")
    if not session.link.organiser:
        raise HTTPException(403, "only an organiser may do this")


async def _signed_in_form(server: Server, request: Request) -> tuple[Session, dict[str, str]]:
    """A POSTed form of a signed-in phone, its CSRF token checked: 401 signed out, 403 wrong token."""
    session = server.session(request)
    form = await request.form()
    if session is None:
        raise HTTPException(401, "open your personal link first (ask the organiser for one: cok invite)")
    fields = {k: v for k, v in form.multi_items() if isinstance(v, str)}
    if not session.checks(fields.get("csrf")):
        raise HTTPException(403, "this form is not from this signed-in page: open the page again")
    return session, fields


def _answers(form: dict[str, str]) -> dict[str, Any]:
    """Answers to the rules' question from its form: `answer:FIELD` (a choice, or `decline:F`
    for a declined one) and `number:FIELD:KEY` (a whole number per key)."""
    answers: dict[str, Any] = {}
    for name, value in form.items():
        if name.startswith("answer:"):
            field = name.split(":", 1)[1]
            if value.startswith("decline:"):
                answers[value.split(":", 1)[1]] = False
            elif value:
                answers[field] = value
        elif name.startswith("confirm:"):
            answers[name.split(":", 1)[1]] = True
        elif name.startswith("number:"):
            _, field, key = name.split(":", 2)
            if value.strip().isdigit():
                answers.setdefault(field, {})[key] = int(value)
            else:
                raise HTTPException(400, f"{key}: a whole number, 0 or more (got {value!r})")
    return answers


async def record_drafts(
    server: Server,
    request: Request,
    session: Session | None,
    drafts: Sequence[Draft],
    answers: dict[str, Any],
    again: bool = False,
) -> Response:
    """Record the events a form made: who may is decided first; a question of the rules becomes
    a form (nothing written until it is answered); a refusal is shown in `cok check`'s words."""
    who = server.who(session)
    if who is None:
        raise HTTPException(401, "open your personal link first (ask the organiser for one: cok invite)")
    table = server.table
    if not await run_in_threadpool(table.may_record, drafts, who):
        return await run_in_threadpool(
            lambda: server.render(
                request,
                session,
                "refused.html",
                403,
                problems=["you may record only what you take part in; ask an organiser"],
            )
        )
    try:
        done = await run_in_threadpool(lambda: table.record(drafts, who, answers=answers, again=again))
    except Asked as asked:
        question = asked.question
        carried = _carried(drafts, answers)
        return await run_in_threadpool(
            lambda: server.render(request, session, "question.html", 409, question=question, **carried)
        )
    except Refused as refused:
        problems = [p.message for p in refused.problems]
        return await run_in_threadpool(lambda: server.render(request, session, "refused.html", 422, problems=problems))
    return await run_in_threadpool(lambda: server.render(request, session, "recorded.html", recording=done))


def _carried(drafts: Sequence[Draft], answers: dict[str, Any]) -> dict[str, str]:
    """What the question's form carries back: the drafts and the answers given so far (a
    tampered copy is no worse than a POST to the API: who may record is checked again)."""
    return {
        "drafts": json.dumps([{"type": d.type, "fields": dict(d.fields)} for d in drafts]),
        "answers": json.dumps(answers),
    }


def create_app(folder: Path, *, after: Callable[[Recording, Who], None] | None = None) -> Starlette:
    """The application for one campaign folder (the campaign is opened on the first request)."""
    server = Server(folder, after)

    async def problem(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, HTTPException)
        if request.url.path.startswith(f"{root(request)}/api/") or request.url.path.startswith("/api/"):
            return JSONResponse({"problems": [{"message": exc.detail}]}, exc.status_code, headers=exc.headers)
        session = server.session(request)
        return await run_in_threadpool(
            lambda: server.render(request, session, "refused.html", exc.status_code, problems=[exc.detail])
        )

    app = Starlette(routes=routes(server), middleware=[Middleware(Guard)], exception_handlers={HTTPException: problem})
    app.state.server = server
    return app
