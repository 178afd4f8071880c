"""Which of Mighty Kingdoms' events are posted in the club's chat, and whom the ledger waits
for: the next kingdom in player order to give an order, resolve, attack, feed or deploy."""

from __future__ import annotations

from typing import Any

#: event type → post kind (see cok.notify.destinations.KINDS): the organiser's reform closes a month
#: and opens the next (the contract's Reform step), begin opens the first, winter and spring open the seasons.
KINDS = {
    "kingdom": "join",
    "begin": "month",
    "reform": "month",
    "battle": "battle",
    "winter": "season",
    "spring": "season",
}


def waits(campaign: Any) -> tuple[str, str] | None:
    """(kingdom, what) when one kingdom holds up the month, in player order (rules 5.x)."""
    from cok.rulesets.mighty_kingdoms.rules import phase as phases

    state = campaign.state
    for item in phases.waiting_for(state):
        what = str(item["what"])
        player = item.get("player") or item.get("attacker")
        if player is None and "army" in item:
            player = next((p for p in state.order if any(a.id == item["army"] for a in state.armies_of(p))), None)
        if player:
            return str(player), {"order": "an order", "resolve": "to resolve their orders"}.get(what, f"to {what}")
        return None
    return None
