"""What anyone who opens the address may read, without a link: the campaign's site pages,
live, with the server's bar at the top; the latest events; and the server's style sheet, its
one script and its icon."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response

from cok.serve.server import page, root, server_of, with_bar
from cok.serve.threads import in_thread

TYPES = {".html": "text/html; charset=utf-8", ".svg": "image/svg+xml", ".css": "text/css", ".json": "application/json"}

#: The site's icon (the same crown as the pages' `<link rel="icon">`).
FAVICON = (
    b'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" fill="#2b2118"/>'
    b'<path d="M6 24h20l-2-12-5 5-3-9-3 9-5-5z" fill="#e9b949"/></svg>'
)


async def site_page(request: Request) -> Response:
    """A page of `cok site`'s, made from the campaign as it is now; an HTML page with the bar."""
    server = server_of(request)
    path = request.path_params.get("path") or "index.html"
    view = await in_thread(server.warm.view)
    text = await in_thread(view.page, path)
    if text is None:
        raise HTTPException(404, f"no page {path}")
    kind = TYPES.get(Path(path).suffix, "text/plain; charset=utf-8")
    if kind.startswith("text/html"):
        bar = await in_thread(server.bar, request, server.session(request), view)
        text = await in_thread(with_bar, text, bar, root(request))
    return Response(text, media_type=kind, headers={"cache-control": "no-cache"})


async def activity(request: Request) -> Response:
    """The latest events with who recorded them; an organiser also sees the chat's failed posts."""
    from cok.notify.outbox import failed_posts

    server = server_of(request)
    organiser = (session := server.session(request)) is not None and session.link.organiser
    view = await in_thread(server.warm.view)
    entries = await in_thread(view.activity)
    chat_failed = await in_thread(failed_posts, server.warm.folder) if organiser else 0  # cok notify status
    return await page(request, "activity.html", entries=entries, organiser=organiser, chat_failed=chat_failed)


async def serve_css(request: Request) -> Response:
    css = resources.files("cok.serve").joinpath("templates/serve.css").read_text(encoding="utf-8")
    return Response(css, media_type="text/css")


async def live_js(request: Request) -> Response:
    script = resources.files("cok.serve").joinpath("templates/live.js").read_text(encoding="utf-8")
    return Response(script, media_type="text/javascript", headers={"cache-control": "no-cache"})


async def favicon(request: Request) -> Response:
    """The crown the pages link to, for a browser that asks for /favicon.ico all the same."""
    return Response(FAVICON, media_type="image/svg+xml", headers={"cache-control": "max-age=86400"})
