"""A club's own API: `GET /api/campaigns` lists its campaigns as the club's page does (each
one's path, game, period, who leads and its next deadline), and `GET /api/openapi.json` publishes it. Each
campaign's own API is under its path, as when it is served alone."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from cok.contract import documents
from cok.serve.threads import in_thread


def routes(lines: Callable[[], Sequence[Any]], headers: Mapping[str, str]) -> list[BaseRoute]:
    """The club's API routes; `lines()`: its campaigns as its page shows them (`club.Line`);
    `headers`: the club's pages' own (serve/guards.py)."""

    async def campaigns(request: Request) -> Response:
        found = await in_thread(lines)
        rows = [
            {
                "path": line.slug,
                "name": line.name,
                "game": line.game,
                "period": line.period,
                "leads": line.leads,
                "problems": list(line.problems),
                "due": line.next,
            }
            for line in found
        ]
        return JSONResponse(documents.written(documents.Campaigns, campaigns=rows), headers=dict(headers))

    async def openapi(request: Request) -> Response:
        from cok.contract.openapi import club_document

        return JSONResponse(club_document(), headers=dict(headers))

    return [Route("/api/campaigns", campaigns), Route("/api/openapi.json", openapi)]
