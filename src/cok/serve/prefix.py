"""`--root-path /cok`: the app answers at /cok/ whether the proxy in front strips the prefix
(Caddy's handle_path) or keeps it (nginx's `proxy_pass` without a path, Caddy's handle), and
so does the address `cok serve` prints when opened directly; `/cok` alone is redirected to
`/cok/` (a page without its slash finds none of its links: a blank page)."""

from __future__ import annotations

from starlette.types import ASGIApp, Receive, Scope, Send


class Prefix:
    """ASGI middleware: a path that arrives with the root path (uvicorn puts the root path in
    front of every path it receives, so a kept prefix appears twice) is served as without it."""

    def __init__(self, app: ASGIApp, root: str) -> None:
        self.app = app
        self.root = root.rstrip("/")

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        root = self.root
        if not root or scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        path: str = scope["path"]
        doubled = root + root
        if path == doubled:
            await _redirect(scope, send, root + "/")
            return
        if path.startswith(doubled + "/"):
            scope = {**scope, "path": path[len(root) :]}
            raw = scope.get("raw_path")
            if isinstance(raw, bytes) and raw.startswith(doubled.encode()):
                scope["raw_path"] = raw[len(root) :]
        await self.app(scope, receive, send)


async def _redirect(scope: Scope, send: Send, to: str) -> None:
    query = scope.get("query_string", b"")
    location = to.encode() + (b"?" + query if query else b"")
    await send({"type": "http.response.start", "status": 308, "headers": [(b"location", location)]})
    await send({"type": "http.response.body", "body": b""})
