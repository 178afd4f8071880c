"""Tied Games (issue #29): points remaining are what is left of an army of at most the
battle's points, else the week's points limit: more cannot be, and is refused with the
limit. An illegal location's refusal says that an organiser may rule otherwise."""

from __future__ import annotations

from typing import Any

import pytest

from cok.core.errors import RuleError
from cok.rulesets.clash_of_kings.rules.apply import decide

from ..conftest import event, holding, tiny_map

LINE = tiny_map("A:castle B:fort C:village D:castle", "A-B B-C C-D")
TIE = {"players": ["tim", "matt"], "location": "B", "winner": None, "vp": {"tim": 5, "matt": 5}}


def refusal(**fields: Any) -> RuleError:
    state = holding(LINE, {"tim": ["A"], "matt": ["D", "C"]})
    with pytest.raises(RuleError) as caught:
        decide(state, event({"type": "battle", **fields}))
    return caught.value


def test_points_remaining_above_the_weeks_points_limit_cannot_be() -> None:
    error = refusal(**TIE, remaining={"tim": 120, "matt": 3})
    assert (
        str(error)
        == "tim cannot have 120 points remaining: that is more than week 1's points limit of 20 (`remaining`)"
    )


def test_points_remaining_above_the_battles_points_cannot_be() -> None:
    error = refusal(**TIE, points=15, remaining={"tim": 3, "matt": 16})
    assert "matt cannot have 16 points remaining: that is more than the battle's 15 points" in str(error)


def test_points_remaining_up_to_the_limit_decide_a_tie() -> None:
    state = holding(LINE, {"tim": ["A"], "matt": ["D", "C"]})
    outcome = decide(state, event({"type": "battle", **TIE, "remaining": {"tim": 20, "matt": 0}}))
    assert getattr(outcome, "winner", None) == "tim"


def test_an_illegal_locations_refusal_says_an_organiser_may_rule_otherwise() -> None:
    error = refusal(players=["tim", "matt"], location="D", winner="tim")
    assert error.hint == "an organiser may rule otherwise: `override` REASON"
    assert error.with_hint().endswith("(legal: B); an organiser may rule otherwise: `override` REASON")
