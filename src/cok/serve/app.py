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

from cok.core.text import in_page_words
from cok.serve import api, links, verdicts
from cok.serve.guards import Guard
from cok.serve.kit import Visit
from cok.serve.once import Shown
from cok.serve.server import Server, ended, from_elsewhere, root, secure, with_bar
from cok.serve.sessions import COOKIE, LIFETIME, NoStore, Session
from cok.serve.table import Asked, Draft, Recording, Refusal, Refused, Voiding, Who

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

    async def favicon(request: Request) -> Response:
        """The crown the pages link to, for a browser that asks for /favicon.ico all the same."""
        return Response(FAVICON, media_type="image/svg+xml", headers={"cache-control": "max-age=86400"})

    async def live_js(request: Request) -> Response:
        script = resources.files("cok.serve").joinpath("templates/live.js").read_text(encoding="utf-8")
        return Response(script, media_type="text/javascript", headers={"cache-control": "no-cache"})

    async def join(request: Request) -> Response:
        """A link opened: signs the phone in, but asks first when it would replace a signed-in
        person, or when another site sent the phone here (its strict cookie unseen)."""
        address = server.address(request)
        link = await run_in_threadpool(server.keys.find, request.path_params["token"])
        wait = server.limiter.judge(address, link is not None)  # only a wrong link counts, or waits
        if wait:
            return HTMLResponse("Too many wrong links from here: wait a minute.", 429, {"retry-after": str(wait)})
        token = request.path_params["token"]
        if link is None:
            session = server.session(request)
            return await run_in_threadpool(lambda: server.render(request, session, "unknown-link.html", 401))
        current = server.session(request)
        if request.method == "POST":
            form = await request.form()
            if not server.confirms(token, _text(form.get("confirm"))):
                raise HTTPException(403, "this sign-in was not sent from its own page: open your link again")
        elif from_elsewhere(request) or (current is not None and current.link != link):
            shown = None if current is None else current.link.name
            answer = await run_in_threadpool(
                lambda: server.render(
                    request,
                    current,
                    "switch.html",
                    token=token,
                    confirm=server.confirmation(token),
                    name=link.name,
                    organiser=link.organiser,
                    current=shown,
                )
            )
            answer.headers["cache-control"] = "no-store"
            return answer
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
        except (ValueError, TypeError, KeyError, RecursionError):
            raise HTTPException(400, "this form's events are not readable: start again from its page") from None
        answers.update(_answers(form))
        again, preview = form.get("again") == "1", form.get("preview") == "1"
        return await record_drafts(server, request, session, drafts, answers, again=again, preview=preview)

    async def recorded_page(request: Request) -> Response:
        """What a recording showed, read again (a reload records nothing): the recorder's own."""
        session = server.session(request)
        shown = server.sent.pages.get(request.path_params["key"])
        who = server.who(session)
        if shown is None or who is None or shown.who != who.name:
            raise HTTPException(404, "no such recording to show (a restarted server forgets them): see Activity")
        return await run_in_threadpool(lambda: server.render(request, session, "recorded.html", recording=shown))

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
        once = await _once(request)
        try:
            voiding = await run_in_threadpool(table.voiding, target, reason, who)
            if form.get("confirm") != "1" or form.get("previewed") != _takes(voiding):
                # a confirmation voids only what its preview showed: another id, or a log that
                # changed what the void takes with it, is shown again instead of voided
                changed = [
                    "what this void takes changed since it was shown (another event, or the log changed): "
                    "here is what it takes now; nothing was voided"
                    if form.get("previewed")
                    else "see what this void takes with it first; nothing was voided"
                ]
                again = form.get("confirm") == "1"
                return await run_in_threadpool(
                    lambda: server.render(
                        request,
                        session,
                        "void.html",
                        409 if again else 200,
                        target=target,
                        voiding=voiding,
                        reason=reason,
                        takes=_takes(voiding),
                        **({"problems": changed} if again else {}),
                    )
                )
            if once and server.sent.claim(once) is not None:
                sent = ["this void was sent already (Back and send again?): see Activity"]
                return await run_in_threadpool(
                    lambda: server.render(request, session, "refused.html", 409, problems=sent)
                )
            try:
                done = await run_in_threadpool(
                    lambda: table.void(target, reason, who, cascade=True, previewed=voiding.refs)
                )
            except BaseException:
                server.sent.released(once)
                raise
        except Refused as refused:
            problems = [p.message for p in refused.problems]
            return await run_in_threadpool(
                lambda: server.render(
                    request, session, "void.html", 422, target=target, voiding=None, reason=reason, problems=problems
                )
            )
        return _recorded(server, request, who, done, once)

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
                    server, request, session, drafts, dict(answers or {}), preview=fields.get("preview") == "1"
                ),
                form=fields,
            )
            response: Response = await form.endpoint(visit)
            return response

        return Route(form.path, endpoint, methods=list(form.methods))

    game = [game_route(f) for f in server.web().forms]
    return [
        Route("/", site_page),
        Route("/join/{token}", join, methods=["GET", "POST"]),
        Route("/signout", signout, methods=["POST"]),
        Route("/activity", activity),
        Route("/record", recorded_form, methods=["POST"]),
        Route("/recorded/{key}", recorded_page),
        Route("/void", void_form, methods=["GET", "POST"]),
        verdicts.route(server),  # docs/confirm.md: the other side's word, an organiser's ruling
        Route("/_cok/serve.css", serve_css),
        Route("/_cok/live.js", live_js),
        Route("/favicon.ico", favicon),
        Mount("/api", routes=api.routes(server)),
        Mount("/play", routes=game),
        *links.routes(server),
        Route("/{path:path}", site_page),
    ]


def _takes(voiding: Voiding) -> str:
    """What a void's preview showed, as its confirmation carries it: the target, then every
    event it takes with it."""
    return " ".join([voiding.target, *(ref for ref, _, _ in voiding.following)])


#: The site's icon (the same crown as the pages' `<link rel="icon">`).
FAVICON = (
    b'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" fill="#2b2118"/>'
    b'<path d="M6 24h20l-2-12-5 5-3-9-3 9-5-5z" fill="#e9b949"/></svg>'
)


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
    preview: bool = False,
) -> Response:
    """Record the events a form made: who may is decided first; a question of the rules becomes
    a form (nothing written until it is answered); a refusal is shown in `cok check`'s words.
    `preview`: what it would change (`--dry-run`), with a form that records it."""
    who = server.who(session)
    if who is None:
        raise HTTPException(401, "open your personal link first (ask the organiser for one: cok invite)")
    table = server.table
    if len(drafts) > MAX_DRAFTS:
        problem = f"one form records at most {MAX_DRAFTS} events; this one holds {len(drafts)}: nothing was recorded"
        return await run_in_threadpool(lambda: server.render(request, session, "refused.html", 413, problems=[problem]))
    barred = await run_in_threadpool(table.refusal, drafts, who, answers)
    if barred is not None:
        return await run_in_threadpool(lambda: server.render(request, session, "refused.html", 403, problems=[barred]))
    once = None if preview else await _once(request)  # a preview records nothing: its form's token stays
    before = server.sent.claim(once) if once else None
    sent = _sent(drafts, answers)
    if before is None and not preview and not await _confirmed(request):
        before = await run_in_threadpool(server.sent.repeated, who.name, sent, lambda: table.view().signature)
        if before is not None:
            server.sent.released(once)
    if before is not None:  # this form was sent before: asked, as the same battle twice is
        carried = _carried(drafts, answers)
        return await run_in_threadpool(
            lambda: server.render(request, session, "sent-again.html", 409, before=before, **carried)
        )
    try:
        done = await run_in_threadpool(lambda: table.record(drafts, who, answers=answers, again=again, dry_run=preview))
    except Asked as asked:
        server.sent.released(once)
        repeated = asked.question.kind == "repeated"  # the rules' own question: record the same again?
        if not repeated and (already := await run_in_threadpool(lambda: table.view().recorded_like(drafts))):
            return await run_in_threadpool(lambda: server.render(request, session, "already.html", 409, told=already))
        question = asked.question
        carried = {**_carried(drafts, answers), "carried_once": once or ""}
        people = await run_in_threadpool(lambda: table.view().people())
        said = in_page_words(question.words, server.web().words, people)
        return await run_in_threadpool(
            lambda: server.render(
                request, session, "question.html", 409, question=question, said=said, people=people, **carried
            )
        )
    except Refused as refused:
        server.sent.released(once)
        if (already := await run_in_threadpool(lambda: table.view().recorded_like(drafts))) is not None:
            return await run_in_threadpool(lambda: server.render(request, session, "already.html", 409, told=already))
        rule = refused.rule if isinstance(refused, Refusal) else None  # the rules' words, for the page's
        named = await run_in_threadpool(lambda: table.view().people())
        words = server.web().words
        told = (rule.with_hint() if who.organiser else str(rule)) if rule else None  # a ruling: an organiser's
        problems = [in_page_words(told, words, named)] if told else [p.message for p in refused.problems]
        return await run_in_threadpool(lambda: server.render(request, session, "refused.html", 422, problems=problems))
    except BaseException:
        server.sent.released(once)
        raise
    if preview:  # what would change, then "Record it" with the form's own token: nothing written yet
        form_once = await _once(request)
        carried = {**_carried(drafts, answers), "again": "1" if again else "", "carried_once": form_once or ""}
        return await run_in_threadpool(
            lambda: server.render(request, session, "preview.html", 200, recording=done, **carried)
        )
    response = _recorded(server, request, who, done, once)
    signature = await run_in_threadpool(lambda: table.view().signature)
    server.sent.last_of(who.name, sent, signature, server.sent.tokens.get(once or "") or _shown(who, done))
    return response


def _sent(drafts: Sequence[Draft], answers: dict[str, Any]) -> str:
    """What a form sent, as one text: the same form sent again sends the same."""
    return json.dumps([[d.type, d.fields] for d in drafts] + [answers], sort_keys=True, default=str)


async def _confirmed(request: Request) -> bool:
    """Whether the form is the "record it again" of a form sent twice."""
    return request.method == "POST" and (await request.form()).get("sent_again") == "1"


def _shown(who: Who, done: Recording) -> Shown:
    after = done.document.get("next_turn")
    return Shown(who.name, tuple(done.told), tuple(done.warnings), after if isinstance(after, str) else None)


#: The most events one form may record (a form makes one today; a void's cascade, made by the
#: server from the log, is not a form's and has no such bound).
MAX_DRAFTS = 20


async def _once(request: Request) -> str | None:
    """The one-time token a POSTed form carries (`once`), None without one (a script's form)."""
    if request.method != "POST":
        return None
    value = (await request.form()).get("once")
    return value if isinstance(value, str) and 0 < len(value) <= 64 else None


def _recorded(server: Server, request: Request, who: Who, done: Recording, once: str | None) -> Response:
    """After a recording, the phone is sent to a page that shows it (303): reloading that page
    reads it again and records nothing; the form's token is spent."""
    shown = _shown(who, done)
    server.sent.spent(once, shown)
    return RedirectResponse(f"{root(request)}/recorded/{server.sent.page(shown)}", 303)


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
        detail = ended(request) if exc.status_code == 401 and session is None else None
        return await run_in_threadpool(
            lambda: server.render(request, session, "refused.html", exc.status_code, problems=[detail or exc.detail])
        )

    middleware = [Middleware(Guard), Middleware(NoStore)]
    app = Starlette(routes=routes(server), middleware=middleware, exception_handlers={HTTPException: problem})
    app.state.server = server
    return app
