"""Which of No True King's events are posted in the club's chat (their public told text only:
never a loyalty card), and whose turn the ledger waits for."""

from __future__ import annotations

from typing import Any

#: event type → post kind (see cok.notify.destinations.KINDS); card, exchange and unseal stay quiet
KINDS = {"conspiracy": "join", "begin": "round", "resolve": "battle"}


def waits(campaign: Any) -> tuple[str, str] | None:
    """(conspiracy, phase) whose turn it is; None when the game is over or no one's turn."""
    state = campaign.state
    if state.active is None or state.phase == "over":
        return None
    return str(state.active), f"their turn ({state.phase})"


def ended(recorded: Any) -> str | None:
    """A game's end with its scores: posted by the event after which the game is over (the
    last unseal, or the last exchange with open loyalty), when every card is public anyway."""
    if recorded.event.type not in ("unseal", "exchange", "pass") or recorded.state.phase != "over":
        return None
    players = recorded.campaign.ruleset.standings(recorded.campaign).document["players"]
    ranked = ", ".join(f"{p['rank']}. {p['name']} {p['score']}" for p in players)
    return f"The game is over. Scores: {ranked}."
