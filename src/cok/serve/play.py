"""The game's own pages under /play/ (its Ruleset's `web()`): each form of the game behind the
door (signed in; a POST's CSRF token checked; an organiser's form, an organiser's), given a
`Visit` that renders its templates and records its drafts as every form of the server does."""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from cok.serve.forms import record_drafts
from cok.serve.kit import Form, Visit
from cok.serve.server import root, server_of
from cok.serve.signed import Signed, signed_in
from cok.serve.warm import Draft


def route(form: Form) -> Route:
    """One of the game's pages as a route, behind the door."""
    endpoint = signed_in(organiser=form.organiser)(partial(_visit, form))
    return Route(form.path, endpoint, methods=list(form.methods))


async def _visit(form: Form, request: Request, signed: Signed) -> Response:
    server = server_of(request)
    visit = Visit(
        request,
        server.warm,
        signed.who,
        root(request),
        render=partial(server.render, request, signed.session),
        record=partial(_record, request, signed),
        form=signed.form,
    )
    response: Response = await form.endpoint(visit)
    return response


async def _record(
    request: Request, signed: Signed, drafts: Sequence[Draft], answers: dict[str, Any] | None = None
) -> Response:
    """`visit.record(drafts, answers)`: the form's "preview" asks for what it would change."""
    preview = signed.form.get("preview") == "1"
    return await record_drafts(request, signed, drafts, dict(answers or {}), preview=preview)
