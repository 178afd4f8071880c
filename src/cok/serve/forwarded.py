"""Proxy headers (issue 38): uvicorn believes X-Forwarded-For/-Proto only from the addresses
`--forwarded-allow-ips` names, and ignores them silently from any other; then the cookie loses
Secure and every phone looks like the proxy's one address to the limiter. Said once per address."""

from __future__ import annotations

import ipaddress
import sys
from collections.abc import Callable

from starlette.types import ASGIApp, Receive, Scope, Send

HEADERS = (b"x-forwarded-for", b"x-forwarded-proto", b"forwarded")


def trusts(allowed: str) -> Callable[[str], bool]:
    """Whether an address is one of `--forwarded-allow-ips` (addresses or networks, `*`: any)."""
    items = [a.strip() for a in allowed.split(",") if a.strip()]
    if "*" in items:
        return lambda _: True
    networks = []
    names = set()
    for item in items:
        try:
            networks.append(ipaddress.ip_network(item, strict=False))
        except ValueError:
            names.add(item)  # a unix socket's name, as uvicorn takes it

    def trusted(address: str) -> bool:
        try:
            found = ipaddress.ip_address(address)
        except ValueError:
            return address in names
        return any(found in n for n in networks)

    return trusted


class Untrusted:
    """ASGI middleware, outside uvicorn's proxy headers: a warning on standard error the first
    time forwarded headers come from an address not trusted, with the option that trusts it."""

    def __init__(self, app: ASGIApp, allowed: str, say: Callable[[str], None] | None = None) -> None:
        self.app = app
        self.allowed = allowed
        self.trusted = trusts(allowed)
        self.said: set[str] = set()
        self.say = say or (lambda text: print(text, file=sys.stderr, flush=True))

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket"):
            client = scope.get("client")
            address = str(client[0]) if client else ""
            forwarded = any(name in HEADERS for name, _ in scope.get("headers", []))
            if forwarded and address and address not in self.said and not self.trusted(address):
                self.said.add(address)
                self.say(
                    f"Warning: forwarded headers from {address}, which is not trusted, are ignored: behind "
                    "that proxy the cookie loses Secure and every phone counts as one address. If it is "
                    f"your proxy: cok serve --forwarded-allow-ips {address}"
                )
        await self.app(scope, receive, send)
