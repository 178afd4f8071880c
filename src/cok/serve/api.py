"""The JSON API: the same documents as `--json`, and one event recorded per POST with a
personal link's token (`Authorization: Bearer TOKEN`). Who may record is decided before the
rules are asked; nothing is written on any answer but 201."""

from __future__ import annotations

import json
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from cok.core.write import not_text
from cok.links.invites import Link
from cok.serve.server import server_of, version_of
from cok.serve.threads import in_thread
from cok.serve.warm import Asked, Draft, Recording, Refused, WarmCampaign, Who

#: Set by the ledger, never taken from a client.
METADATA = ("id", "at", "by")


#: Deeper than this is never an event (a No True King resolve, the deepest, is five levels).
MAX_DEPTH = 16


def _deeper_than(value: Any, limit: int) -> bool:
    """Whether JSON nests deeper than `limit`, looked at without recursion."""
    level = [value]
    for _ in range(limit):
        level = (
            [
                v
                for item in level
                for v in (item.values() if isinstance(item, dict) else item)
                if isinstance(v, (dict, list))
            ]
            if level
            else []
        )
        if not level:
            return False
    return bool(level)


def _problem(status: int, message: str, **more: Any) -> JSONResponse:
    return JSONResponse({"problems": [{"message": message}], **more}, status)


async def standings(request: Request) -> Response:
    view = await in_thread(server_of(request).warm.view)
    return Response(await in_thread(view.standings_json), media_type="application/json")


async def version(request: Request) -> Response:
    """What a served page polls to refresh when anyone records (live.js): the campaign's
    version, which changes with its files (a phone's recording, or `cok` at a terminal)."""
    signature = server_of(request).warm.signature()  # a few stat calls, on the loop: no thread, no lock
    return JSONResponse({"version": version_of(signature)}, headers={"cache-control": "no-store"})


async def status(request: Request) -> Response:
    """`GET /api/<status>` (`read` sends it here): open to all, as it always was."""
    server = server_of(request)
    view = await in_thread(server.warm.view)
    try:
        args = server.web().status_args(request.query_params)
        document = await in_thread(view.status, **args)
    except Refused as refused:
        return JSONResponse({"problems": [{"message": p.message} for p in refused.problems]}, 422)
    except (KeyError, ValueError) as wrong:
        return _problem(400, str(wrong).strip("'\""))
    except Exception as refused:  # a rule's refusal (an unknown player): RuleError and kin
        if type(refused).__module__.startswith("cok."):
            return _problem(422, str(refused))
        raise
    return JSONResponse(document)


def _unsigned() -> Response:
    """401: the API is answered only to a personal link (RFC 6750's challenge names Bearer)."""
    return JSONResponse(
        {"problems": [{"message": "give a personal link's token: Authorization: Bearer TOKEN (cok invite)"}]},
        401,
        headers={"www-authenticate": "Bearer"},
    )


async def events(request: Request) -> Response:
    """`POST /api/events`: one event, its sender known by their link's token (Bearer)."""
    server = server_of(request)
    link = await _bearer(request)
    wait = server.limiter.judge(server.address(request), link is not None)  # only a wrong token counts, or waits
    if wait:
        return _problem(429, "too many unknown tokens from this address: wait", retry_after=wait)
    if link is None:
        return _unsigned()
    if not server.web().forms:
        return _problem(403, "this game's campaigns are served read-only for now: record with cok at a terminal")
    body = await request.body()
    given = _one_event(body)
    if isinstance(given, Response):
        return given
    key = request.headers.get("idempotency-key")
    if key is not None and not (0 < len(key) <= 200 and key.isprintable() and key.isascii()):
        return _problem(400, "Idempotency-Key: up to 200 printable ASCII characters")
    sent_before = server.replies.first(link.name, key, body) if key is not None else None
    if sent_before is not None:
        return sent_before
    answer: Response | None = None
    try:
        answer = await one_event(request, link, given)
    finally:
        if key is not None and answer is not None and answer.status_code == 201:
            server.replies.keep(link.name, key, body, answer)
        elif key is not None:
            server.replies.release(link.name, key)  # nothing was recorded: the key may be sent again
    return answer


def _token(request: Request) -> str | None:
    """The token the request carries (`Authorization: Bearer TOKEN`), if it carries one."""
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


async def _bearer(request: Request) -> Link | None:
    """The link whose token the request carries, if any."""
    token = _token(request)
    return None if token is None else await in_thread(server_of(request).keys.find, token)


def _one_event(body: bytes) -> dict[str, Any] | Response:
    """The body read as one event (a JSON object with its `type`), or the 400 that says why not."""
    try:
        given = json.loads(body)
    except (ValueError, UnicodeDecodeError):
        return _problem(400, "the body is not JSON: send one event as a JSON object")
    except RecursionError:  # nested deeper than any event: not one event
        return _problem(400, "send one event: a JSON object with its `type` and fields, as in events.yaml")
    if not isinstance(given, dict) or not isinstance(given.get("type"), str):
        return _problem(400, "send one event: a JSON object with its `type` and fields, as in events.yaml")
    if _deeper_than(given, MAX_DEPTH):
        return _problem(400, f"send one event: nested at most {MAX_DEPTH} levels deep, as in events.yaml")
    garbled = not_text(given)
    if garbled is not None:
        return _problem(400, f"`{garbled}` holds a lone surrogate (\\ud800–\\udfff), which is not text: send UTF-8")
    return given


async def one_event(request: Request, link: Link, given: dict[str, Any]) -> Response:
    warm = server_of(request).warm
    who = Who(link.name, link.organiser)
    fields = {k: v for k, v in given.items() if k != "type"}
    draft = Draft(given["type"], fields)
    barred = await in_thread(warm.refusal, [draft], who)
    if barred is not None:
        return _problem(403, barred)
    sent = [k for k in METADATA if k in fields]
    if sent:
        named = ", ".join(f"`{k}`" for k in sent)
        return _problem(422, f"{named}: set by the server, not given (leave them out)")
    dry_run = request.query_params.get("dry_run") in ("1", "true", "yes")
    again = request.query_params.get("again") in ("1", "true", "yes")
    try:
        done = await in_thread(_recorded, warm, draft, who, dry_run=dry_run, again=again)
    except Asked as asked:
        q = asked.question
        return JSONResponse(
            {
                "question": {
                    "kind": q.kind,
                    "field": q.field,
                    "message": q.words,
                    "options": list(q.options),
                    "keys": list(q.keys),
                    "decline_field": q.decline_field,
                }
            },
            409,
        )
    except Refused as refused:
        return JSONResponse({"problems": [{"message": p.message} for p in refused.problems]}, 422)
    told = done.told[0] if done.told else ""
    if dry_run:
        return JSONResponse({"id": None, "told": told, "dry_run": True, "warnings": done.warnings}, 200)
    return JSONResponse({"id": done.events[0].id, "told": told, "warnings": done.warnings}, 201)


async def read(request: Request) -> Response:
    """`GET /api/<name>`: one of the game's reads, the document `--json` prints, for the
    holder of a link (its token, or a phone signed in with it); the status open to all, as before."""
    server = server_of(request)
    name = request.path_params["name"]
    if name == server.web().status:
        return await status(request)
    bearer = _token(request) is not None
    link = await _bearer(request)
    wait = server.limiter.judge(server.address(request), link is not None or not bearer)
    if wait:
        return _problem(429, "too many unknown tokens from this address: wait", retry_after=wait)
    if link is None and (bearer or await in_thread(server.session, request) is None):
        return _unsigned()
    view = await in_thread(server.warm.view)
    known = view.names()
    if name not in known:
        return _problem(404, f"no API /api/{name}; this game's reads: {', '.join(known)}", names=known)
    try:
        document = await in_thread(view.read, name, **dict(request.query_params))
    except Refused as refused:  # an argument the read does not take
        return JSONResponse({"problems": [{"message": p.message} for p in refused.problems]}, 400)
    except ValueError as wrong:  # an argument's value, such as `free=maybe`
        return _problem(400, str(wrong))
    except Exception as refused:  # a rule's refusal (an unknown player): RuleError and kin
        if type(refused).__module__.startswith("cok."):
            return _problem(422, str(refused))
        raise
    return JSONResponse(document)


def routes() -> list[BaseRoute]:
    return [
        Route("/standings", standings),
        Route("/version", version),
        Route("/events", events, methods=["POST"]),
        Route("/{name}", read),
    ]


def _recorded(warm: WarmCampaign, draft: Draft, who: Who, *, dry_run: bool, again: bool) -> Recording:
    """The event recorded; a void names its event as `cok void` takes it (a unique start of
    its id, `@LINE`), and is refused, listing them, when later events stand on it."""
    target, reason, note = (draft.fields.get(k) for k in ("target", "reason", "note"))
    plain = set(draft.fields) <= {"target", "reason", "note"} and (note is None or isinstance(note, str))
    if draft.type == "void" and plain and isinstance(target, str) and isinstance(reason, str):
        return warm.void(target, reason, who, note=note, dry_run=dry_run)
    return warm.record([draft], who, dry_run=dry_run, again=again)
