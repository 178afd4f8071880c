"""Signing a phone in from its personal link, and out again. A link opened signs the phone in,
but asks first when it would replace a signed-in person, or when another site sent the phone
here (its strict cookie unseen): only this server's own page can post that sign-in."""

from __future__ import annotations

from typing import Any

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response

from cok.links.invites import Link
from cok.serve.server import from_elsewhere, page, root, secure, server_of
from cok.serve.sessions import COOKIE, LIFETIME, Session
from cok.serve.signed import Signed, signed_in, utf8_form
from cok.serve.threads import in_thread


async def join(request: Request) -> Response:
    """`/join/<token>`: a wrong link counts against its address (429 past a few); a right one
    signs in, or asks first (a GET), then signs in when its own page confirms (the POST)."""
    server = server_of(request)
    token = request.path_params["token"]
    link = await in_thread(server.keys.find, token)
    wait = server.limiter.judge(server.address(request), link is not None)  # only a wrong link counts, or waits
    if wait:
        return HTMLResponse("Too many wrong links from here: wait a minute.", 429, {"retry-after": str(wait)})
    if link is None:
        return await page(request, "unknown-link.html", 401)
    current = server.session(request)
    if request.method == "POST":
        form = await utf8_form(request)
        if not server.confirms(token, _text(form.get("confirm"))):
            raise HTTPException(403, "this sign-in was not sent from its own page: open your link again")
    elif from_elsewhere(request) or (current is not None and current.link != link):
        return await _ask_first(request, token, link, current)
    server.sessions.end(request.cookies.get(COOKIE))
    response = RedirectResponse(f"{root(request)}/", 303)
    response.set_cookie(COOKIE, server.sessions.start(link), max_age=LIFETIME, **_cookie(request))
    return response


async def _ask_first(request: Request, token: str, link: Link, current: Session | None) -> Response:
    """The page that asks before signing in as `link`: who is signed in now, and a button
    whose form carries this server's confirmation of the token."""
    server = server_of(request)
    answer = await page(
        request,
        "switch.html",
        token=token,
        confirm=server.confirmation(token),
        name=link.name,
        organiser=link.organiser,
        current=None if current is None else current.link.name,
    )
    answer.headers["cache-control"] = "no-store"
    return answer


@signed_in()
async def signout(request: Request, signed: Signed) -> Response:
    """The phone's session ended and its cookie deleted (the link still signs it in again)."""
    server_of(request).sessions.end(request.cookies.get(COOKIE))
    response = RedirectResponse(f"{root(request)}/", 303)
    response.delete_cookie(COOKIE, **_cookie(request))
    return response


def _cookie(request: Request) -> dict[str, Any]:
    """Where the session's cookie lives: the app's own path, never sent to another site's
    request (strict), never read by a script, and over https only when the phone uses it."""
    return {"path": f"{root(request)}/", "httponly": True, "samesite": "strict", "secure": secure(request)}


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) else None
