"""The organiser's links page (issue 38): a player's new link made at the table and shown as a
QR code to scan from the organiser's screen, so nobody types 72 characters. A new link replaces
the player's old one, as `cok invite` does; the page answering the POST is never kept (no-store).
The link starts with an address phones reach (serve/reach.py), or the page says it has none."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response

from cok.core.errors import RuleError
from cok.links import invites, qr
from cok.serve.reach import link_base
from cok.serve.server import Server, page, root, server_of
from cok.serve.signed import Signed, signed_in
from cok.serve.threads import in_thread


@signed_in(organiser=True)
async def links_page(request: Request, signed: Signed) -> Response:
    """GET: who holds a link; POST: a player's new link, with its QR code."""
    server = server_of(request)
    made: dict[str, str] = {}
    problems: list[str] = []
    status = 200
    if request.method == "POST":
        try:
            name = await in_thread(_player, server, signed.form.get("player", ""))
        except RuleError as unknown:
            problems, status = [str(unknown)], 422
        else:
            token = await in_thread(invites.invite, server.warm.folder, name)
            base, alone = await in_thread(link_base, request, root(request))
            link = f"{base}/join/{token}"
            made = {"name": name, "link": link, "svg": qr.svg(link), "alone": alone or ""}
    holders = sorted({k.name for k in invites.links(server.warm.folder) if not k.organiser})
    answer = await page(request, "links.html", status, holders=holders, made=made, problems=problems)
    answer.headers["cache-control"] = "no-store"
    return answer


def _player(server: Server, typed: str) -> str:
    """A player of the campaign, found as `cok invite` finds them."""
    typed = typed.strip()
    if not typed:
        raise RuleError("choose a player")
    view = server.warm.view()
    with view.lock:  # this version's own (a recording makes the next one)
        return str(view.ruleset.player(view.campaign.state, typed))
