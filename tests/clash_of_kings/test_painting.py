"""Painting Bonus: Fully Painted, Raise the Banners, Commission the Maesters."""

from __future__ import annotations

from typing import Any

import pytest

from cok.core.errors import RuleError
from cok.rulesets.clash_of_kings.rules.apply import apply
from cok.rulesets.clash_of_kings.rules.outcomes import Painted
from cok.rulesets.clash_of_kings.rules.painting import banners_cp
from cok.rulesets.clash_of_kings.rules.state import State

from ..conftest import Cok, event, joins, play, tiny_map

GEO = tiny_map("A:castle B:fort C:castle D:castle", "A-B B-C")
START = [*joins(tim="A", matt="C", aaron="D")]
BATTLE = {"type": "battle", "players": ["tim", "matt"], "location": "B", "attacker": "tim", "winner": "tim"}


def with_battle() -> State:
    return play(GEO, [*START, BATTLE])


def paint(state: State, **fields: Any) -> Painted:
    outcome = apply(state, event({"type": "painting", "player": "tim", **fields}))
    assert isinstance(outcome, Painted)
    return outcome


def test_fully_painted_gains_one_cp_a_week_with_a_game_played() -> None:
    state = with_battle()
    assert paint(state, fully_painted=True).cp == 1
    assert state.bonus["tim"] == 1


def test_fully_painted_needs_a_battle_that_week_recorded_earlier() -> None:
    state = play(GEO, START)
    with pytest.raises(RuleError, match="tim has no battle recorded in week 1"):
        paint(state, fully_painted=True)
    state = play(GEO, [*START, BATTLE, {"type": "week"}])
    with pytest.raises(RuleError, match="no battle recorded in week 2"):
        paint(state, fully_painted=True)
    assert paint(state, fully_painted=True, week=1).cp == 1


def test_fully_painted_only_once_per_week() -> None:
    state = with_battle()
    paint(state, fully_painted=True)
    with pytest.raises(RuleError, match="already claimed Fully Painted for week 1"):
        paint(state, fully_painted=True)


def test_a_battle_as_the_brotherhood_counts_as_a_game_played() -> None:
    state = play(GEO, [*START, {**BATTLE, "brotherhood": ["tim"], "attacker": None, "winner": "matt"}])
    assert paint(state, fully_painted=True).cp == 1


def test_raise_the_banners_one_cp_per_new_unit_painted_and_fielded() -> None:
    state = with_battle()
    assert paint(state, units=2).banners == 2


def test_raise_the_banners_is_capped_at_3_cp_a_week() -> None:
    state = with_battle()
    assert paint(state, units=2).banners == 2
    assert paint(state, units=2).banners == 1
    assert paint(state, units=1).banners == 0
    assert state.bonus["tim"] == 3


def test_four_ncu_or_attachment_models_make_one_banner_point_across_the_week() -> None:
    assert banners_cp(0, 3) == 0
    assert banners_cp(0, 4) == 1
    assert banners_cp(1, 9) == 3
    assert banners_cp(5, 0) == 3
    state = with_battle()
    assert paint(state, models=2).banners == 0
    assert paint(state, models=2).banners == 1


def test_raise_the_banners_needs_a_battle_that_week() -> None:
    state = play(GEO, START)
    with pytest.raises(RuleError, match="Raise the Banners is for units painted and fielded in a battle"):
        paint(state, units=1)


def test_commission_the_maesters_one_cp_for_painting_another_players_unit() -> None:
    state = play(GEO, START)  # no battle needed
    assert paint(state, commissioned="matt").commission == 1


def test_commission_the_maesters_at_most_once_a_week() -> None:
    state = play(GEO, START)
    paint(state, commissioned="matt")
    with pytest.raises(RuleError, match="already claimed Commission the Maesters for week 1"):
        paint(state, commissioned="aaron")
    apply(state, event({"type": "week"}))
    assert paint(state, commissioned="aaron").cp == 1


def test_commission_the_maesters_only_once_for_each_other_player() -> None:
    state = play(GEO, [*START])
    paint(state, commissioned="matt")
    apply(state, event({"type": "week"}))
    with pytest.raises(RuleError, match="already painted a unit for matt"):
        paint(state, commissioned="matt")


def test_commissioning_yourself_is_refused() -> None:
    state = play(GEO, START)
    with pytest.raises(RuleError, match="another player, not your own"):
        paint(state, commissioned="tim")


def test_a_claim_of_nothing_is_refused() -> None:
    state = with_battle()
    with pytest.raises(RuleError, match="claims nothing"):
        paint(state)


def test_a_refused_claim_changes_nothing() -> None:
    state = play(GEO, START)
    with pytest.raises(RuleError):
        paint(state, commissioned="matt", fully_painted=True)
    assert state.bonus["tim"] == 0
    assert not state.commissioned


def test_a_banners_claim_at_the_weeks_cap_says_why_it_earns_nothing(cok: Cok) -> None:
    cok("join", "tim", "--faction", "martell")
    cok("join", "matt", "--faction", "baratheon")
    assert cok("battle", "matt", "tim", "--at", "Mistwood", "--attacker", "matt", "--winner", "matt").exit_code == 0
    assert cok("paint", "tim", "--units", "3").exit_code == 0
    run = cok("paint", "tim", "--models", "7")
    assert run.exit_code == 0, run.stderr
    assert "+0" in run.stdout and "at most 3 CP a week" in run.stdout


def test_fewer_than_four_models_say_they_count_toward_the_next_point(cok: Cok) -> None:
    cok("join", "tim", "--faction", "martell")
    cok("join", "matt", "--faction", "baratheon")
    assert cok("battle", "matt", "tim", "--at", "Mistwood", "--attacker", "matt", "--winner", "matt").exit_code == 0
    run = cok("paint", "tim", "--models", "3")
    assert run.exit_code == 0 and "4 models make a point" in run.stdout
