"""What the bar's box asks the signed-in phone (docs/confirm.md): a player, the results awaiting
their word (Confirm, or Dispute with a reason); an organiser, each open dispute as well (Keep
it, or Void it). The form they all send is `POST /verdict` (verdicts.py)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from cok.core.confirmation import AWAITING, DISPUTED
from cok.core.errors import RuleError

if TYPE_CHECKING:
    from cok.serve.warm import Version, Who


@dataclass(frozen=True)
class Asking:
    """One result the box asks about: what to ask, and of whom."""

    id: str
    text: str
    by: str | None
    status: str
    said_by: str | None
    reason: str | None


def asking(view: Version, who: Who | None) -> list[Asking]:
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
