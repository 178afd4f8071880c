"""The JSON API: the same documents as `--json`, and one event recorded per POST with a
personal link's token (`Authorization: Bearer TOKEN`). Who may record is decided before the
rules are asked; nothing is written on any answer but 201."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from cok.serve.server import version_of
from cok.serve.table import Asked, Draft, Refused, Who

if TYPE_CHECKING:
    from cok.serve.server import Server

#: Set by the ledger, never taken from a client.
METADATA = ("id", "at", "by")


def _problem(status: int, message: str, **more: Any) -> JSONResponse:
    return JSONResponse({"problems": [{"message": message}], **more}, status)


def routes(server: Server) -> list[BaseRoute]:
    table = server.table

    async def standings(request: Request) -> Response:
        view = await run_in_threadpool(table.view)
        return Response(await run_in_threadpool(view.standings_json), media_type="application/json")

    async def version(request: Request) -> Response:
        """What a served page polls to refresh when anyone records (live.js): the campaign's
        version, which changes with its files (a phone's recording, or `cok` at a terminal)."""
        signature = table.signature()  # a few stat calls, on the loop: no thread, no lock
        return JSONResponse({"version": version_of(signature)}, headers={"cache-control": "no-store"})

    async def status(request: Request) -> Response:
        if request.path_params["status"] != server.web().status:
            return _problem(
                404, f"no API /api/{request.path_params['status']}; this game's status is /api/{server.web().status}"
            )
        view = await run_in_threadpool(table.view)
        try:
            args = server.web().status_args(request.query_params)
            document = await run_in_threadpool(lambda: view.status(**args))
        except Refused as refused:
            return JSONResponse({"problems": [{"message": p.message} for p in refused.problems]}, 422)
        except (KeyError, ValueError) as wrong:
            return _problem(400, str(wrong).strip("'\""))
        except Exception as refused:  # a rule's refusal (an unknown player): RuleError and kin
            if type(refused).__module__.startswith("cok."):
                return _problem(422, str(refused))
            raise
        return JSONResponse(document)

    async def events(request: Request) -> Response:
        address = server.address(request)
        wait = server.limiter.wait(address)
        if wait:
            return _problem(429, "too many unknown tokens from this address: wait", retry_after=wait)
        scheme, _, token = request.headers.get("authorization", "").partition(" ")
        link = (
            await run_in_threadpool(server.keys.find, token.strip()) if scheme.lower() == "bearer" and token else None
        )
        if link is None:
            server.limiter.failed(address)
            return JSONResponse(
                {"problems": [{"message": "give a personal link's token: Authorization: Bearer TOKEN (cok invite)"}]},
                401,
                headers={"www-authenticate": "Bearer"},
            )
        if not server.web().forms:
            return _problem(403, "this game's campaigns are served read-only for now: record with cok at a terminal")
        body = await request.body()
        try:
            given = json.loads(body)
        except (ValueError, UnicodeDecodeError):
            return _problem(400, "the body is not JSON: send one event as a JSON object")
        if not isinstance(given, dict) or not isinstance(given.get("type"), str):
            return _problem(400, "send one event: a JSON object with its `type` and fields, as in events.yaml")
        who = Who(link.name, link.organiser)
        fields = {k: v for k, v in given.items() if k != "type"}
        draft = Draft(given["type"], fields)
        if not await run_in_threadpool(table.may_record, [draft], who):
            return _problem(403, f"{who.name} may record only events they take part in; ask an organiser")
        sent = [k for k in METADATA if k in fields]
        if sent:
            named = ", ".join(f"`{k}`" for k in sent)
            return _problem(422, f"{named}: set by the server, not given (leave them out)")
        dry_run = request.query_params.get("dry_run") in ("1", "true", "yes")
        again = request.query_params.get("again") in ("1", "true", "yes")
        try:
            done = await run_in_threadpool(lambda: table.record([draft], who, dry_run=dry_run, again=again))
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

    return [
        Route("/standings", standings),
        Route("/version", version),
        Route("/events", events, methods=["POST"]),
        Route("/{status}", status),
    ]
