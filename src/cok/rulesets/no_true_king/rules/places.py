"""Finding areas, houses, players and cards by the names people type (refusing the unknown
with a "did you mean")."""

from __future__ import annotations

from cok.core.errors import RuleError
from cok.core.names import did_you_mean, normalize
from cok.rulesets.no_true_king.map import Board, Card
from cok.rulesets.no_true_king.rules.state import Game

#: The source's spellings, accepted and written as the board's (§4.7 "Card names").
CARD_ALIASES = {"jaime lannister": "Ser Jaime Lannister", "saalador saan": "Salladhor Saan"}


def find_area(board: Board, typed: str) -> str:
    if typed in board.areas:
        return typed
    by_key = {normalize(n): n for n in board.areas}
    found = by_key.get(normalize(typed))
    if found is None:
        raise RuleError(f"unknown area {typed!r}{did_you_mean(typed, board.areas)}")
    return found


def find_house(board: Board, typed: str) -> str:
    house = typed.strip().casefold()
    if house not in board.houses:
        raise RuleError(
            f"unknown house {typed!r}{did_you_mean(typed, board.houses)}; houses: {', '.join(board.houses)}"
        )
    return house


def find_card(board: Board, typed: str) -> Card:
    if typed in board.cards:
        return board.cards[typed]
    key = normalize(typed)
    name = CARD_ALIASES.get(typed.strip().casefold()) or {normalize(n): n for n in board.cards}.get(key)
    if name is None:
        raise RuleError(f"unknown house card {typed!r}{did_you_mean(typed, board.cards)}")
    return board.cards[name]


def find_player(state: Game, typed: str) -> str:
    if typed in state.players:
        return typed
    for pid, player in state.players.items():
        if normalize(player.name) == normalize(typed) or normalize(pid) == normalize(typed):
            return pid
    known = ", ".join(state.players) or "none yet"
    raise RuleError(f"unknown player {typed!r}{did_you_mean(typed, state.players)}; players: {known}")
