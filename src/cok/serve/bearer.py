"""The API's one door, as `@signed_in` is the pages': `@bearer()` finds who a request's token
(`Authorization: Bearer TOKEN`) is, and answers 401 without one (RFC 6750's challenge), before
the endpoint runs. The bad-token limiter is asked here alone: a wrong token counts, and from an
address that sent too many it is answered 429 until it waits; a right one never waits."""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from starlette.requests import Request
from starlette.responses import Response

from cok.links.invites import Link
from cok.serve.problems import Problem, answered
from cok.serve.server import server_of
from cok.serve.threads import in_thread
from cok.serve.warm import Who

UNSIGNED = "give a personal link's token: Authorization: Bearer TOKEN (cok invite)"
WAIT = "too many unknown tokens from this address: wait"


@dataclass(frozen=True)
class Caller:
    """Who asks: their link's name and role (None: anyone, on a public read)."""

    who: Who | None


Inside = Callable[[Request, Caller], Awaitable[Response]]
Endpoint = Callable[[Request], Awaitable[Response]]


def bearer(*, public: bool = False, cookie: bool = False) -> Callable[[Inside], Endpoint]:
    """The door: the endpoint below is given its `Caller`. `public`: anyone may ask (a token
    sent is still looked at, and a wrong one is still refused); `cookie`: a phone signed in
    with its link may ask too (a read its pages make). Every `Problem` the endpoint raises,
    and every refusal of the service, is answered by `problems.answered`."""

    def door(endpoint: Inside) -> Endpoint:
        @functools.wraps(endpoint)
        async def checked(request: Request) -> Response:
            try:
                caller = await come_in(request, public=public, cookie=cookie)
                return await endpoint(request, caller)
            except Exception as refused:
                return answered(refused)

        return checked

    return door


async def come_in(request: Request, *, public: bool = False, cookie: bool = False) -> Caller:
    """Who asks, or the refusal: 429 for an address still waiting, 401 without a known token."""
    server = server_of(request)
    token = _token(request)
    link: Link | None = None if token is None else await in_thread(server.keys.find, token)
    wait = server.limiter.judge(server.address(request), link is not None or token is None)
    if wait:
        raise Problem(429, WAIT, headers={"retry-after": str(wait)}, retry_after=wait)
    if link is not None:
        return Caller(Who(link.name, link.organiser))
    if token is None and cookie:
        session = await in_thread(server.session, request)
        if session is not None:
            return Caller(Who(session.link.name, session.link.organiser))
    if token is None and public:
        return Caller(None)
    raise Problem(401, UNSIGNED, headers={"www-authenticate": "Bearer"})


def _token(request: Request) -> str | None:
    """The token the request carries (`Authorization: Bearer TOKEN`), if it carries one."""
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None
