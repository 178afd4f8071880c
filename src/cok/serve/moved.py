"""A personal link is the campaign's, not the path's (issue 47): a link printed under a club's
path (`/<folder-name>/join/…`) still opens its campaign when the campaign is served alone, sent
on to this server's own `/join/…` (307)."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from cok.serve.server import root


async def join_here(request: Request) -> Response:
    """`/<anything>/join/<token>`: the same link at this campaign's own `/join/` (which judges it)."""
    query = f"?{request.url.query}" if request.url.query else ""
    return RedirectResponse(f"{root(request)}/join/{request.path_params['token']}{query}", 307)
