"""More time (issue 48), from the due bar's forms (templates/due.html): a player asks for more
time themselves (an `extend` with `asked: true`, counted against the organiser's `extensions:`,
lasting `extension:`) or says they are back when marked absent, an organiser extends a deadline
(how long, for whom) or brings an absent player back (`present`). Each is an event, recorded by
the service's `deadlines.extend` and `deadlines.back` (which decide who may) through the
campaign's followers, behind the door and the one-time token every form has; the phone is then
shown what was recorded."""

from __future__ import annotations

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response

from cok.serve.forms import form_once, recorded
from cok.serve.server import page, server_of
from cok.serve.signed import ORGANISERS, Signed, signed_in
from cok.serve.threads import in_thread
from cok.serve.warm import Recording, Refused

KINDS = ("ask", "extend", "back")


@signed_in()
async def more_time(request: Request, signed: Signed) -> Response:
    """`POST /deadline`: `kind` ask (a player's own), extend (an organiser's) or back (an
    organiser's, or an absent player's own "I'm back")."""
    server, form, who = server_of(request), signed.form, signed.who
    kind = form.get("kind", "")
    if kind not in KINDS:
        raise HTTPException(400, "this form asks for nothing the deadlines know (ask, extend or back)")
    if kind == "extend" and not who.organiser:  # a player asks (`ask`); "I'm back": their own (the service's)
        raise HTTPException(403, ORGANISERS)
    player = form.get("player", "").strip() or None
    length = form.get("length", "").strip()
    if kind == "extend" and not length:
        return await page(request, "refused.html", 422, problems=["how much longer? a length like 24h, 3d or 1d12h"])
    if kind == "back" and player is None:
        return await page(request, "refused.html", 422, problems=["which absent player comes back?"])
    once = await form_once(request)
    if once and server.sent.claim(once) is not None:
        return await page(request, "refused.html", 409, problems=["this form was sent already: see Activity"])
    try:
        done: Recording
        if kind == "back":
            assert player is not None
            done = await in_thread(server.warm.back, who, player)
        else:
            done = await in_thread(server.warm.extend, who, length or None, player if kind == "extend" else None)
    except Refused as refused:
        server.sent.released(once)
        return await page(request, "refused.html", 422, problems=[p.message for p in refused.problems])
    except BaseException:
        server.sent.released(once)
        raise
    return recorded(request, who, done, once)
