"""What every request passes through: its body bounded while it is read (a Content-Length is
not trusted alone), and the headers that keep pages from being framed, sniffed or leaking a
link through the Referer."""

from __future__ import annotations

from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

MAX_BODY = 1024 * 1024  # 1 MiB: an event is a few hundred bytes
TOO_LARGE = "the request's body is over 1 MiB"

HEADERS = [
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
    (
        b"content-security-policy",
        b"default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; script-src 'self'; "
        b"frame-ancestors 'none'; form-action 'self'; base-uri 'none'",
    ),
]


class TooLarge(HTTPException):
    def __init__(self) -> None:
        super().__init__(413, TOO_LARGE)


class Guard:
    """ASGI middleware: a body over MAX_BODY is answered 413 (the endpoint reading it is
    interrupted), and every response gets HEADERS."""

    def __init__(self, app: ASGIApp, max_body: int = MAX_BODY) -> None:
        self.app = app
        self.max_body = max_body

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for name, value in scope.get("headers", []):
            if name == b"content-length" and value.strip().isdigit() and int(value) > self.max_body:
                await _too_large(send)
                return
        scope["cok.root"] = str(scope.get("root_path", "")).rstrip("/")  # the app's own, before any Mount adds to it
        seen = 0

        async def bounded() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.max_body:
                    raise TooLarge()
            return message

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *HEADERS]
            await send(message)

        await self.app(scope, bounded, with_headers)


async def _too_large(send: Send) -> None:
    from cok.serve.problems import envelope_bytes

    body = envelope_bytes(TOO_LARGE)
    await send(
        {
            "type": "http.response.start",
            "status": 413,
            "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()), *HEADERS],
        }
    )
    await send({"type": "http.response.body", "body": body})
