"""Invariants of random valid games (hypothesis draws the seed of `game.py`'s player):
after every event, no piece limit is exceeded, no footman or knight is at sea without a ship
for it, and every controlled area has the house's troops or its flag (flags only on land)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cok.rulesets.no_true_king.rules.state import State
from tests.no_true_king.game import new_game, next_event

#: Whole processes, fuzzing or random campaigns: left out of the quick run (`-m 'not slow'`).
pytestmark = pytest.mark.slow

GAMES = settings(max_examples=12, deadline=None, derandomize=True)


def check(state: State) -> None:
    board = state.board
    for house in board.houses:
        f, k, s = state.on_board(house)
        assert f <= board.pieces["footman"] and k <= board.pieces["knight"] and s <= board.pieces["ship"], house
    for area, (house, f, k, s) in state.troops.items():
        assert f + k + s > 0
        if board.areas[area].sea:
            assert f + k <= s, (area, house, f, k, s)
        else:
            assert s == 0, area
    for area, house in state.flags.items():
        assert not board.areas[area].sea
        assert state.controller(area) == house
    for area in board.areas:
        holder = state.controller(area)
        if holder is not None:
            assert state.troops.get(area, (holder,))[0] == holder or state.flags.get(area) == holder


@GAMES
@given(seed=st.integers(0, 10_000), players=st.integers(2, 4), loyalty=st.sampled_from(["sealed", "open"]))
def test_every_position_of_a_random_game_keeps_the_invariants(seed: int, players: int, loyalty: str) -> None:
    game = new_game(seed, players, loyalty)
    check(game.state)
    while game.state.phase != "over":
        game.record(next_event(game))
        check(game.state)
    assert game.state.round == players
    assert len(game.state.ranked) == players


@GAMES
@given(seed=st.integers(0, 10_000))
def test_a_game_ends_with_every_player_ranked_and_scored(seed: int) -> None:
    from cok.rulesets.no_true_king.rules.scores import final_standings

    game = new_game(seed, 3, "sealed")
    while game.state.phase != "over":
        game.record(next_event(game))
    table = final_standings(game.state)
    assert sorted(s.rank for s in table if s.rank) == [1, 2, 3]
    assert all(s.score is not None and 0 <= s.score <= 15 for s in table)
