"""The API's one door, as `@signed_in` is the pages': `@bearer()` finds who a request's token
(`Authorization: Bearer TOKEN`) is, and answers 401 without one (RFC 6750's challenge), before
the endpoint runs. The bad-token limiter is asked here alone, for the whole API: a wrong token
counts, and from an address that sent too many it is told to wait (Retry-After) until the window
passes; a right one never waits. Still 401, never 429: the token is refused because it is no
link's, which is what a client (and an auth check such as schemathesis') must be told."""

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
WAIT = "too many unknown tokens from this address: wait (Retry-After) before sending one again"
#: RFC 6750's challenge: the API answers to a Bearer token.
CHALLENGE = {"www-authenticate": "Bearer"}


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
    """Who asks, or the refusal: 401 without a known token (with Retry-After from an address
    that sent too many wrong ones)."""
    server = server_of(request)
    token = _token(request)
    link: Link | None = None if token is None else await in_thread(server.keys.find, token)
    if token is not None and link is None:  # a wrong token: 401, and from a guessing address, wait
        wait = server.limiter.judge(server.address(request), False)
        if wait:
            raise Problem(401, WAIT, headers={**CHALLENGE, "retry-after": str(wait)}, retry_after=wait)
        raise Problem(401, UNSIGNED, headers=CHALLENGE)
    if link is not None:
        return Caller(Who(link.name, link.organiser))
    if token is None and cookie:
        session = await in_thread(server.session, request)
        if session is not None:
            return Caller(Who(session.link.name, session.link.organiser))
    if token is None and public:
        return Caller(None)
    raise Problem(401, UNSIGNED, headers=CHALLENGE)


def _token(request: Request) -> str | None:
    """The token the request carries (`Authorization: Bearer TOKEN`), if it carries one."""
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None
