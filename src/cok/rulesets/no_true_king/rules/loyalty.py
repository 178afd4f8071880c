"""Loyalty cards, exchanges and unsealing, and the final scores (contract §4.6)."""

from __future__ import annotations

import hashlib
from dataclasses import replace
from typing import TYPE_CHECKING

from cok.core.errors import RuleError
from cok.rulesets.no_true_king.rules.outcomes import Exchanged, Unsealed
from cok.rulesets.no_true_king.rules.state import POSITIONS, Realm
from cok.rulesets.no_true_king.rules.turns import refuse_out_of_turn

if TYPE_CHECKING:
    from cok.rulesets.no_true_king.events import Exchange, Unseal

POINTS = (6, 4, 3, 2)


def seal_of(player: str, card: list[str], secret: str) -> str:
    """The lowercase hex SHA-256 of `ntk-loyalty:<player>:<h1>,…,<left>:<secret>` (§4.6)."""
    return hashlib.sha256(f"ntk-loyalty:{player}:{','.join(card)}:{secret}".encode()).hexdigest()


def check_card(state: Realm, card: list[str]) -> list[str]:
    houses = state.board.houses
    if sorted(card) != sorted(houses):
        raise RuleError(
            f"a loyalty card orders the {len(houses)} houses, each once: {', '.join(houses)} (got {', '.join(card)})"
        )
    return list(card)


def index_of(position: int | str) -> int:
    return POSITIONS.index(position)


def position_name(index: int) -> str:
    return str(POSITIONS[index])


def exchange(state: Realm, event: Exchange) -> Exchanged:
    """Swap two tokens and reveal one face-down token: one of the two when either was face
    down, else another one; none face down, no reveal (§4.7 Reveals)."""
    refuse_out_of_turn(state, "exchange", event.player)
    who = state.players[event.player]
    a, b = (index_of(p) for p in event.swap)
    shown = list(who.shown)  # a new list: the one the state holds is never changed in place
    shown[a], shown[b] = shown[b], shown[a]
    card = None if who.card is None else list(who.card)
    if card is not None:
        card[a], card[b] = card[b], card[a]
    down = [i for i in (a, b) if not shown[i]]
    allowed = down or [i for i in range(5) if i not in (a, b) and not shown[i]]
    reveal: tuple[int, str] | None = None
    if event.reveal is None:
        if allowed:
            raise RuleError(f"an exchange reveals a token: one of positions {_names(allowed)}")
    else:
        ((position, typed),) = event.reveal.items()
        index = index_of(position)
        if not allowed:
            raise RuleError("every token is face up: this exchange reveals none")
        if index not in allowed:
            raise RuleError(f"the revealed token must be face down and {_rule(down)}: position {_names(allowed)}")
        house = typed
        if house in shown:
            raise RuleError(f"{house} is already face up at position {position_name(shown.index(house))}")
        if card is not None and card[index] != house:
            raise RuleError(f"position {position_name(index)} of {event.player}'s card is not {house}")
        shown[index] = house
        reveal = (index, house)
    label = event.id or f"exchange by {event.player}"
    done = (label, state.round, a, b, reveal[0] if reveal else -1, reveal[1] if reveal else "")
    state.players[event.player] = replace(who, shown=shown, card=card, exchanges=[*who.exchanges, done])
    return Exchanged(
        event.player,
        (position_name(a), position_name(b)),
        (position_name(reveal[0]), reveal[1]) if reveal else None,
    )


def _rule(down: list[int]) -> str:
    return "one of the two swapped" if down else "not one of the two swapped (both were face up)"


def _names(indexes: list[int]) -> str:
    return " or ".join(position_name(i) for i in indexes)


def unseal(state: Realm, event: Unseal) -> Unsealed:
    """The sealed card must match its seal, and every reveal since must match the card."""
    refuse_out_of_turn(state, "unseal", event.player)
    who = state.players[event.player]
    card = check_card(state, list(event.loyalty))
    if who.seal != seal_of(event.player, card, event.secret):
        raise RuleError(
            f"the seal of {event.player}'s conspiracy does not match this card and secret "
            "(a wrong secret, or not the card that was sealed)"
        )
    current = list(card)
    for label, round_no, a, b, index, house in who.exchanges:
        current[a], current[b] = current[b], current[a]
        if index >= 0 and current[index] != house:
            raise RuleError(
                f"the exchange {label} (round {round_no}) revealed {house} at position {position_name(index)}, "
                f"but the sealed card, after its swaps, has {current[index]} there"
            )
    state.players[event.player] = replace(who, card=current, unsealed=True)
    return Unsealed(event.player, tuple(current))


def score(card: list[str], ranks: dict[str, int]) -> int:
    """6, 4, 3, 2 for positions 1–4 whose house holds that rank; shared ranks hold every
    rank they span (§4.6 Scores)."""
    total = 0
    for index, points in enumerate(POINTS):
        rank = ranks[card[index]]
        size = sum(1 for r in ranks.values() if r == rank)
        if rank <= index + 1 <= rank + size - 1:
            total += points
    return total
