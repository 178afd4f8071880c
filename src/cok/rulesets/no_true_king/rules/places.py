"""Finding areas, houses, players and cards by the names people type: the core's `find`, which
refuses the unknown in every game's one wording, with a "did you mean"."""

from __future__ import annotations

from cok.core.names import find
from cok.rulesets.no_true_king.map import Board, Card
from cok.rulesets.no_true_king.rules.state import Realm

#: The source's spellings, accepted and written as the board's (§4.7 "Card names").
CARD_ALIASES = {"jaime lannister": "Ser Jaime Lannister", "saalador saan": "Salladhor Saan"}


def find_area(board: Board, typed: str) -> str:
    return find(typed, board.areas, "area")


def find_house(board: Board, typed: str) -> str:
    return find(typed, board.houses, "house")


def find_card(board: Board, typed: str) -> Card:
    return board.cards[find(typed, board.cards, "house card", CARD_ALIASES.items())]


def find_player(state: Realm, typed: str) -> str:
    """A conspiracy's id from its id or name, typed in any case."""
    return find(typed, state.players, "player", ((p.name, pid) for pid, p in state.players.items()))
