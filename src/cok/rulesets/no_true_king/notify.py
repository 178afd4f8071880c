"""Which of No True King's events are posted in the club's chat (their public told text only:
never a loyalty card), and whose turn the ledger waits for."""

from __future__ import annotations

from typing import Any

#: event type → post kind (see cok.notify.destinations.KINDS); card, exchange and unseal stay quiet
KINDS = {"conspiracy": "join", "begin": "round", "resolve": "battle"}


def waits(campaign: Any) -> tuple[str, str] | None:
    """(conspiracy, what) the ledger waits for: whose turn it is, or, in a combat, a question
    only one player can answer — the card they play from their own hand, or none (§4.4),
    in turn after the active player; None when the game is over or no one's turn."""
    from cok.rulesets.no_true_king.rules.turns import waiting_for

    state = campaign.state
    if state.phase == "over":
        return None
    first = next((w for w in waiting_for(state) if w.player is not None), None)
    if first is not None and first.what == "card" and first.player != state.active:
        return str(first.player), f"a card to play, or none, in the combat in {first.area} (only they hold their hand)"
    if state.active is None:
        return None
    return str(state.active), f"their turn ({state.phase})"


def opened(recorded: Any) -> tuple[str, str] | None:
    """The next round, opened by the last exchange (or pass) of a round (§4.2.5): posted as a
    round, as the game's beginning opens the first."""
    then = getattr(recorded.outcome, "then", None)
    if then is None or then.next_first is None:
        return None
    found = recorded.state.players.get(then.next_first)
    first = found.name if found is not None and found.name else then.next_first
    return "round", f"Round {then.round + 1} begins; {first} is the first player."


def ended(recorded: Any) -> str | None:
    """A game's end with its scores: posted by the event after which the game is over (the
    last unseal, or the last exchange with open loyalty), when every card is public anyway."""
    if recorded.event.type not in ("unseal", "exchange", "pass") or recorded.state.phase != "over":
        return None
    players = recorded.campaign.ruleset.standings(recorded.campaign).document["players"]
    ranked = ", ".join(f"{p['rank']}. {p['name']} {p['score']}" for p in players)
    return f"The game is over. Scores: {ranked}."
