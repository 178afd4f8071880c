"""The other side's word on a result at the table (docs/confirm.md): `POST /verdict`, the one
form the bar's box sends (awaiting.py says what it asks): a confirmation, a dispute or a
settling, recorded as every form is (who may is decided first: the other side, or an
organiser; 403 otherwise)."""

from __future__ import annotations

from typing import Any

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response

from cok.serve.forms import record_drafts
from cok.serve.signed import Signed, signed_in
from cok.serve.warm import Draft

KINDS = ("confirm", "dispute", "settle")


@signed_in()
async def verdict(request: Request, signed: Signed) -> Response:
    """A confirmation, a dispute (with its reason) or an organiser's settling of a result."""
    form = signed.form
    kind, target, reason = form.get("kind", ""), form.get("target", "").strip(), form.get("reason", "").strip()
    if kind not in KINDS or not target:
        raise HTTPException(400, "confirm, dispute or settle, and the result's id")
    fields: dict[str, Any] = {"target": target}
    if kind != "confirm":
        if not reason:
            raise HTTPException(422, f"say why you {kind} it")
        fields["reason"] = reason
    return await record_drafts(request, signed, [Draft(kind, fields)], {})
