"""The other side's word on a result at the table (docs/confirm.md): the box every page's bar
shows a player whose confirmation the ledger waits on (Confirm, or Dispute with a reason) and
an organiser each open dispute (Keep it, or Void it), and the one form they all send."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from starlette.exceptions import HTTPException
from starlette.routing import Route

from cok.core.confirmation import AWAITING, DISPUTED
from cok.core.errors import RuleError
from cok.serve.table import Draft

if TYPE_CHECKING:
    from starlette.requests import Request
    from starlette.responses import Response

    from cok.serve.server import Server
    from cok.serve.table import View, Who

KINDS = ("confirm", "dispute", "settle")


@dataclass(frozen=True)
class Asking:
    """One result the box asks about: what to ask, and of whom."""

    id: str
    text: str
    by: str | None
    status: str
    said_by: str | None
    reason: str | None


def asking(view: View, who: Who | None) -> list[Asking]:
    """What the box shows `who`: a player, the results awaiting their word (the same as
    `confirming.waiting`); an organiser, every open dispute as well."""
    if who is None:
        return []
    found, _ = view.results()
    if not found:
        return []
    try:
        player = view.ruleset.player(view.campaign.state, who.name)
    except RuleError:
        player = who.name
    shown = []
    for result in found.values():
        theirs = result.status == AWAITING and player in result.other and player != result.by
        if theirs or (who.organiser and result.status == DISPUTED):
            shown.append(Asking(result.id, result.text, result.by, result.status, result.said_by, result.reason))
    return shown


def route(server: Server) -> Route:
    """`POST /verdict`: a confirmation, a dispute or a settling from the box, recorded as every
    form is (who may is decided first: the other side, or an organiser; 403 otherwise)."""

    async def verdict(request: Request) -> Response:
        from cok.serve.app import _signed_in_form, record_drafts

        session, form = await _signed_in_form(server, request)
        kind, target, reason = form.get("kind", ""), form.get("target", "").strip(), form.get("reason", "").strip()
        if kind not in KINDS or not target:
            raise HTTPException(400, "confirm, dispute or settle, and the result's id")
        fields: dict[str, Any] = {"target": target}
        if kind != "confirm":
            if not reason:
                raise HTTPException(422, f"say why you {kind} it")
            fields["reason"] = reason
        return await record_drafts(server, request, session, [Draft(kind, fields)], {})

    return Route("/verdict", verdict, methods=["POST"])
