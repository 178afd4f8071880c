"""More time (issue 48), from the due bar's forms (templates/due.html): a player asks for more
time themselves (`extend` with `asked: true`, counted against the organiser's `extensions:`,
as long as `extension:` says), an organiser extends a deadline (how long, for whom) or brings
an absent player back (`present`). Each is an event, recorded through the same door and path
as every form (`forms.record_drafts`: who may, the rules, the one-time token)."""

from __future__ import annotations

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response

from cok.serve.forms import record_drafts
from cok.serve.server import server_of
from cok.serve.signed import ORGANISERS, Signed, signed_in
from cok.serve.threads import in_thread
from cok.serve.warm import Draft

#: How long a player's own ask lasts when campaign.yaml's `extension:` says nothing.
EXTENSION = "24h"


@signed_in()
async def more_time(request: Request, signed: Signed) -> Response:
    """`POST /deadline`: `kind` ask (a player's own), extend or back (an organiser's)."""
    form, who = signed.form, signed.who
    kind = form.get("kind", "")
    if kind == "ask":
        drafts = [Draft("extend", {"length": await in_thread(_asked_length, request), "asked": True})]
    elif kind in ("extend", "back") and not who.organiser:
        raise HTTPException(403, ORGANISERS)
    elif kind == "extend":
        length = form.get("length", "").strip()
        if not length:
            raise HTTPException(400, "say how much longer: a duration like 24h, 3d or 1d12h")
        fields: dict[str, object] = {"length": length}
        if form.get("player"):
            fields["player"] = form["player"]
        drafts = [Draft("extend", fields)]
    elif kind == "back":
        if not form.get("player"):
            raise HTTPException(400, "say which absent player to bring back")
        drafts = [Draft("present", {"player": form["player"]})]
    else:
        raise HTTPException(400, "this form asks for nothing the deadlines know (ask, extend or back)")
    return await record_drafts(request, signed, drafts, {})


def _asked_length(request: Request) -> str:
    """How long a player's own ask lasts: the organiser's `extension:`."""
    from cok.notify.reminders import settings_of

    campaign = server_of(request).warm.view().campaign
    return str(getattr(settings_of(campaign), "extension", None) or EXTENSION)
