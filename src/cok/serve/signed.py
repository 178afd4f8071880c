"""The one door of every page and form that needs a personal link: `@signed_in()` finds the
phone's session (401 without one), checks a POSTed form's CSRF token (403) and the role the
route asks for (an organiser's: 403 for a player), before the route runs. Every cookie POST of
the app goes through it (tests/serve/test_every_post_is_guarded.py walks them all); the two
POSTs that sign in otherwise are the link's own (`/join/…`) and the API's Bearer token."""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from urllib.parse import unquote_to_bytes
from weakref import WeakKeyDictionary

from starlette.datastructures import FormData
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response

from cok.serve.server import server_of
from cok.serve.sessions import Session
from cok.serve.warm import Who

#: What a phone without a session is told (a cookie whose session ended is told more: server.ended).
SIGN_IN = "open your personal link first (ask the organiser for one: cok invite)"
FORGED = "this form is not from this signed-in page: open the page again"
ORGANISERS = "only an organiser may do this"

#: Every endpoint behind the door, and whether it is an organiser's (read by the test that
#: walks the app's POST routes: a route missing from here forgot the door).
GUARDED: WeakKeyDictionary[Callable[[Request], Awaitable[Response]], bool] = WeakKeyDictionary()


@dataclass(frozen=True)
class Signed:
    """Who came through the door: their session, who they are, and a POST's fields (its CSRF
    token checked; a GET's: none)."""

    session: Session
    who: Who
    form: Mapping[str, str] = field(default_factory=dict)


#: What a form whose text is not UTF-8 is told (400): JSON's refusal, in a form's words.
NOT_UTF8 = (
    "this form holds text that is not UTF-8 (a byte a phone or a script sent that is not text): "
    "nothing was recorded; type it again"
)


async def utf8_form(request: Request) -> FormData:
    """The POSTed form, read once for every form of the server: text that is not UTF-8 is
    refused (400, nothing written), as JSON's is, where Starlette would have put U+FFFD in
    its place and the garbled text would have been recorded."""
    body = await request.body()  # kept: the form below is read from these same bytes
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind == "application/x-www-form-urlencoded" and not _urlencoded_utf8(body):
        raise HTTPException(400, NOT_UTF8)
    if kind == "multipart/form-data" and not _utf8(body):
        raise HTTPException(400, NOT_UTF8)
    return await request.form()


def _urlencoded_utf8(body: bytes) -> bool:
    """Whether every name and value of an urlencoded body is UTF-8 once its %XX are decoded."""
    return _utf8(body) and all(_utf8(unquote_to_bytes(part.replace(b"+", b" "))) for part in body.split(b"&"))


def _utf8(data: bytes) -> bool:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


Endpoint = Callable[[Request], Awaitable[Response]]
Inside = Callable[[Request, Signed], Awaitable[Response]]


def signed_in(*, organiser: bool = False) -> Callable[[Inside], Endpoint]:
    """The door: the route below it is given who is signed in (`Signed`); `organiser`: only an
    organiser may open it."""

    def door(endpoint: Inside) -> Endpoint:
        @functools.wraps(endpoint)
        async def checked(request: Request) -> Response:
            return await endpoint(request, await _come_in(request, organiser=organiser))

        GUARDED[checked] = organiser
        return checked

    return door


async def _come_in(request: Request, *, organiser: bool = False) -> Signed:
    """Who is signed in on this request, or the refusal: 401 without a session, 403 for a POST
    without this session's CSRF token, 403 for a player where only an organiser may."""
    server = server_of(request)
    session = server.session(request)
    fields: dict[str, str] = {}
    if request.method not in ("GET", "HEAD"):
        form = await utf8_form(request)  # read first: a body over the bound is 413 whoever sends it
        fields = {k: v for k, v in form.multi_items() if isinstance(v, str)}
    if session is None:
        raise HTTPException(401, SIGN_IN)
    if request.method not in ("GET", "HEAD") and not session.checks(fields.get("csrf")):
        raise HTTPException(403, FORGED)
    if organiser and not session.link.organiser:
        raise HTTPException(403, ORGANISERS)
    return Signed(session, Who(session.link.name, session.link.organiser), fields)
