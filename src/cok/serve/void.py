"""The organiser voids an event from a phone: first what the void takes with it (the events
that follow from it), then the void, confirmed against what its preview showed."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response

from cok.serve.forms import form_once, recorded
from cok.serve.server import page, server_of
from cok.serve.signed import Signed, signed_in
from cok.serve.threads import in_thread
from cok.serve.warm import Refused, Takes


@signed_in(organiser=True)
async def void_form(request: Request, signed: Signed) -> Response:
    """GET: the form (its target filled from `?target=`); POST: the preview, then the void."""
    if request.method == "GET":
        return await page(request, "void.html", target=request.query_params.get("target", ""), voiding=None, reason="")
    target, reason = signed.form.get("target", "").strip(), signed.form.get("reason", "").strip()
    if not target or not reason:
        problems = ["give the event's id and a reason"]
        return await page(request, "void.html", 422, target=target, voiding=None, reason=reason, problems=problems)
    try:
        return await _void(request, signed, target, reason)
    except Refused as refused:
        problems = [p.message for p in refused.problems]
        return await page(request, "void.html", 422, target=target, voiding=None, reason=reason, problems=problems)


async def _void(request: Request, signed: Signed, target: str, reason: str) -> Response:
    """The void recorded only when confirmed against the preview it was shown; sent twice, it
    is said instead of voided again."""
    server, form, who = server_of(request), signed.form, signed.who
    once = await form_once(request)
    voiding = await in_thread(server.warm.voiding, target, reason, who)
    if form.get("confirm") != "1" or form.get("previewed") != _takes(voiding):
        return await _preview(request, signed, voiding, target, reason)
    if once and server.sent.claim(once) is not None:
        sent = ["this void was sent already (Back and send again?): see Activity"]
        return await page(request, "refused.html", 409, problems=sent)
    try:
        done = await in_thread(server.warm.void, target, reason, who, cascade=True, previewed=voiding.refs)
    except BaseException:
        server.sent.released(once)
        raise
    return recorded(request, who, done, once)


async def _preview(request: Request, signed: Signed, voiding: Takes, target: str, reason: str) -> Response:
    """What the void takes with it. A confirmation voids only what its preview showed: another
    id, or a log that changed what the void takes with it, is shown again instead of voided."""
    again = signed.form.get("confirm") == "1"
    changed = [
        "what this void takes changed since it was shown (another event, or the log changed): "
        "here is what it takes now; nothing was voided"
        if signed.form.get("previewed")
        else "see what this void takes with it first; nothing was voided"
    ]
    return await page(
        request,
        "void.html",
        409 if again else 200,
        target=target,
        voiding=voiding,
        reason=reason,
        takes=_takes(voiding),
        **({"problems": changed} if again else {}),
    )


def _takes(voiding: Takes) -> str:
    """What a void's preview showed, as its confirmation carries it: the target, then every
    event it takes with it."""
    return " ".join([voiding.target, *(ref for ref, _, _ in voiding.following)])
