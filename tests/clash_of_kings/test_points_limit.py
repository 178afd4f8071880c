"""Points Limit: 20 in week 1 (the campaign's start), then + step each week, or as the organiser sets."""

from __future__ import annotations

import pytest

from cok.core.errors import RuleError
from cok.rulesets.clash_of_kings.rules.state import Settings

from ..conftest import joins, play, tiny_map

GEO = tiny_map("A:castle B:castle C:fort", "A-C C-B")
START = joins(tim="A", matt="B")
BATTLE = {"type": "battle", "players": ["tim", "matt"], "location": "C", "winner": "tim", "attacker": "tim"}


def test_week_one_limit_is_the_campaign_start() -> None:
    state = play(GEO, [], Settings(start=20, step=3))
    assert (state.week, state.limit) == (1, 20)


def test_each_week_adds_the_step_unless_a_limit_is_given() -> None:
    state = play(GEO, [{"type": "week"}, {"type": "week", "limit": 30}, {"type": "week"}], Settings(20, 3))
    assert state.week == 4
    assert state.limits == [20, 23, 30, 33]


def test_an_army_cannot_exceed_the_limit_of_its_week() -> None:
    battle = {**BATTLE, "points": 21}
    with pytest.raises(RuleError, match="21 points is over week 1's points limit of 20"):
        play(GEO, [*START, battle])
    state = play(GEO, [*START, {"type": "week"}, {**battle, "points": 23}])
    assert state.territories("tim") == {"A", "C"}


def test_a_battle_in_an_earlier_week_is_held_to_that_weeks_limit() -> None:
    battle = {**BATTLE, "points": 23, "week": 1}
    with pytest.raises(RuleError, match="over week 1's points limit of 20"):
        play(GEO, [*START, {"type": "week"}, battle])


def test_a_battle_may_not_name_a_later_week() -> None:
    battle = {**BATTLE, "week": 2}
    with pytest.raises(RuleError, match="week 2 has not started yet"):
        play(GEO, [*START, battle])
