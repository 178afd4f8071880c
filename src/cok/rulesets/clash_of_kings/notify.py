"""Which of Clash of Kings' events are posted in the club's chat, and as what (issue 39)."""

from __future__ import annotations

from typing import Any

#: event type → post kind (see cok.notify.destinations.KINDS); painting and adjust stay quiet.
KINDS = {"join": "join", "week": "week", "battle": "battle"}


def waits(campaign: Any) -> tuple[str, str] | None:
    """Battles are fought in any order (no one's turn): the ledger never waits for one person."""
    return None
