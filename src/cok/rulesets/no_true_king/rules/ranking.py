"""House rankings (contract §4.5): crowns, then castles, towns, barrels of the areas a house
controls; houses equal in all four share a rank (1, 2, 2, 4)."""

from __future__ import annotations

from cok.rulesets.no_true_king.map import Board
from cok.rulesets.no_true_king.rules.state import Realm

Holdings = tuple[int, int, int, int]  # crowns, castles, towns, barrels


def holdings(state: Realm, house: str) -> Holdings:
    areas = [state.board.areas[a] for a in state.controlled(house)]
    return (
        sum(a.crowns for a in areas),
        sum(1 for a in areas if a.fort == "castle"),
        sum(1 for a in areas if a.fort == "town"),
        sum(a.barrels for a in areas),
    )


def rank_houses(state: Realm) -> dict[str, int]:
    """Each house's rank: one more than the number of houses strictly ahead of it."""
    held = {h: holdings(state, h) for h in state.board.houses}
    return {h: 1 + sum(1 for other in held.values() if other > mine) for h, mine in held.items()}


def initial_ranks(board: Board) -> dict[str, int]:
    """The board's `ranking`, shown until the first round's rankings (§4.7 Ranks)."""
    ranks: dict[str, int] = {}
    place = 1
    for group in board.ranking:
        for house in group:
            ranks[house] = place
        place += len(group)
    return ranks


def in_rank_order(ranks: dict[str, int], houses: tuple[str, ...]) -> list[str]:
    return sorted(houses, key=lambda h: (ranks[h], houses.index(h)))
