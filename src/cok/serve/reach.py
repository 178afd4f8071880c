"""Where this run of `cok serve` listens (issue 47): the Links page makes a link phones can open,
with the public address the organiser gave, else this machine's address on the store's network
with the run's own scheme and port, and says plainly when it has only `localhost`."""

from __future__ import annotations

from dataclasses import dataclass

from starlette.requests import Request
from starlette.types import ASGIApp, Receive, Scope, Send

from cok.links import addresses

#: What a link made on a screen that only has `localhost` is told.
ALONE = (
    "This link opens on this machine alone ({address}): no phone can open it. Serve the campaign on the "
    "store's network (cok serve --host 0.0.0.0) or give its public address (cok serve --public-url "
    "https://club.example/cok), then make the link again."
)


@dataclass(frozen=True)
class Listening:
    """This run's `--host`, `--port` and scheme (https with `--https`)."""

    host: str
    port: int
    scheme: str


class Listen:
    """ASGI middleware: every request knows where this run listens (`scope["cok.listening"]`)."""

    def __init__(self, app: ASGIApp, listening: Listening) -> None:
        self.app = app
        self.listening = listening

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket"):
            scope["cok.listening"] = self.listening
        await self.app(scope, receive, send)


def link_base(request: Request, here: str) -> tuple[str, str | None]:
    """The address a link made on this page starts with (`here`: the campaign's path on this
    server), and what to say when no phone can open it: the public address the organiser gave,
    else this machine's address on the store's network (when the run listens on it), else the
    address this page was opened at, when it is no loopback."""
    from cok.serve.server import server_of

    given = addresses.public(server_of(request).warm.folder)
    if given:
        return given, None
    listening = request.scope.get("cok.listening")
    if isinstance(listening, Listening) and listening.host in addresses.EVERY:
        found = addresses.store_address()
        if found:
            return f"{listening.scheme}://{found}:{listening.port}{here}", None
    opened = f"{request.url.scheme}://{request.url.netloc}{here}"
    if not _reachable(request):
        return opened, ALONE.format(address=request.url.hostname)
    return opened, None


def _reachable(request: Request) -> bool:
    """Whether the page was opened at an address other machines reach (not a loopback)."""
    import ipaddress

    host = request.url.hostname or ""
    if host == "localhost" or host.endswith(".localhost"):
        return False
    try:
        return not ipaddress.ip_address(host).is_loopback
    except ValueError:
        return True
