"""One `find` for the names people type (issue #26): every game's players, houses, kingdoms,
areas and cards are found, and refused, the same way."""

from __future__ import annotations

import pytest

from cok.core.errors import RuleError
from cok.core.names import find


def test_a_name_typed_as_known_is_found() -> None:
    assert find("Tim", ["Tim", "tim"], "player") == "Tim"


def test_case_spaces_and_punctuation_do_not_matter() -> None:
    assert find("VULTURES-ROOST", ["Vulture's Roost", "Starfall"], "area") == "Vulture's Roost"


def test_another_spelling_finds_the_name_it_stands_for() -> None:
    assert find("sir timothy", {"tim": 1}, "player", [("Sir Timothy", "tim")]) == "tim"


def test_a_known_name_comes_before_another_spelling() -> None:
    assert find("bo", ["ana", "bo"], "player", [("Bo", "ana")]) == "bo"


def test_an_unknown_name_is_refused_with_the_close_one_and_the_known_ones() -> None:
    with pytest.raises(RuleError) as caught:
        find("matt", ["tim", "mat", "sara"], "player", [("Timothy", "tim")])
    assert str(caught.value) == "unknown player 'matt' (did you mean 'mat'?); known players: tim, mat, sara"


def test_with_nothing_known_yet_the_refusal_says_so() -> None:
    with pytest.raises(RuleError) as caught:
        find("ana", {}, "player")
    assert str(caught.value) == "unknown player 'ana'; there are no players yet"
