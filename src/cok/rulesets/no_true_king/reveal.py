"""Which house an exchange reveals, worked out for the player from their own card: the open
card, or the sealed one kept on this machine with the swaps recorded since."""

from __future__ import annotations

from cok.core.errors import RuleError
from cok.rulesets.no_true_king import sealbox
from cok.rulesets.no_true_king.rules.loyalty import index_of
from cok.rulesets.no_true_king.rules.state import State


def _index(typed: str) -> int:
    try:
        return index_of(int(typed) if typed.isdigit() else typed)
    except ValueError:
        raise RuleError(f"a position is 1, 2, 3, 4 or left, not {typed!r}") from None


def revealed_house(state: State, player: str, a: str, b: str, position: str) -> str:
    """The house at `position` once A and B are swapped, on the player's own card."""
    who = state.players[player]
    if who.card is not None:
        card = list(who.card)
    else:
        kept = sealbox.find(who.seal or "")
        if kept is None:
            raise RuleError(f"no card of {player}'s is kept on this machine: give --reveal POS=HOUSE")
        card = kept[0]
        for _, _, x, y, _, _ in who.exchanges:
            card[x], card[y] = card[y], card[x]
    x, y = _index(a), _index(b)
    card[x], card[y] = card[y], card[x]
    return card[_index(position)]
