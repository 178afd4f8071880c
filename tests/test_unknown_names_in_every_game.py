"""A name that matches nothing is refused in one wording in every game (issue #26), the
core's: "unknown player 'x' (did you mean 'y'?); known players: …"."""

from __future__ import annotations

import pytest

from cok.core.errors import RuleError
from cok.rulesets.clash_of_kings.rules.spelling import player as find_cok_player
from cok.rulesets.mighty_kingdoms.rules.setup import find_player as find_kingdom
from cok.rulesets.no_true_king.rules.places import find_area, find_card, find_house
from cok.rulesets.no_true_king.rules.places import find_player as find_conspiracy
from tests.conftest import play, tiny_map
from tests.mighty_kingdoms.game import WEST, Game
from tests.no_true_king.helpers import joined


def refusal(find: object, *args: object) -> str:
    with pytest.raises(RuleError) as caught:
        find(*args)  # type: ignore[operator]
    return str(caught.value)


def test_clash_of_kings_finds_a_player_by_name_and_refuses_an_unknown_one() -> None:
    state = play(
        tiny_map("A:castle B:castle", "A-B"),
        [{"type": "join", "player": "tim", "faction": "stark", "name": "Timothy", "castle": "A"}],
    )
    assert find_cok_player(state, "TIMOTHY") == "tim"
    assert refusal(find_cok_player, state, "tin") == "unknown player 'tin' (did you mean 'tim'?); known players: tim"


def test_mighty_kingdoms_refuses_an_unknown_kingdom_in_the_same_words() -> None:
    game = Game()
    game.kingdom("ana", WEST)
    assert find_kingdom(game.state, "ANA") == "ana"
    assert (
        refusal(find_kingdom, game.state, "anna") == "unknown kingdom 'anna' (did you mean 'ana'?); known kingdoms: ana"
    )


def test_no_true_king_refuses_an_unknown_player_in_the_same_words() -> None:
    state = joined(("ana", "bo"))
    assert (
        refusal(find_conspiracy, state, "ann") == "unknown player 'ann' (did you mean 'ana'?); known players: ana, bo"
    )


def test_no_true_king_refuses_an_unknown_house_listing_the_houses() -> None:
    state = joined(("ana", "bo"))
    assert find_house(state.board, " Lannister ") == "lannister"
    assert refusal(find_house, state.board, "lanister").startswith(
        "unknown house 'lanister' (did you mean 'lannister'?); known houses: "
    )


def test_no_true_king_refuses_an_unknown_area_with_the_close_one() -> None:
    state = joined(("ana", "bo"))
    assert find_area(state.board, "winterfell") == "Winterfell"
    assert refusal(find_area, state.board, "Winterfel") == "unknown area 'Winterfel' (did you mean 'Winterfell'?)"


def test_no_true_king_finds_a_card_by_the_sources_spelling_and_refuses_an_unknown_one() -> None:
    state = joined(("ana", "bo"))
    assert find_card(state.board, "Jaime Lannister").name == "Ser Jaime Lannister"
    assert refusal(find_card, state.board, "Robb Strak").startswith(
        "unknown house card 'Robb Strak' (did you mean 'Robb Stark'?)"
    )
