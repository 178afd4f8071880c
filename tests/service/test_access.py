"""Who may record what (issue #24): an organiser anything; a player only the events the
game's `involved` names them in; an event naming no player, or the organiser's although it
names one (a week, an adjustment, a void, a join), only an organiser. Decided before the
rules are asked."""

from __future__ import annotations

from pathlib import Path

import pytest

from cok.service import Draft, Who, may_record

from .conftest import shipped

BATTLE = Draft("battle", {"players": ["Tim", "matt"], "location": "nowhere at all", "winner": "tim"})


def test_a_player_may_record_a_battle_they_fought_even_one_the_rules_would_refuse(two: Path) -> None:
    assert may_record(two, BATTLE, Who("tim"))
    assert may_record(two, BATTLE, Who("Matt"))  # the player as named in any spelling


def test_a_player_may_not_record_a_battle_of_others(two: Path) -> None:
    (two / "events.yaml").write_text(
        (two / "events.yaml").read_text() + "- type: join\n  player: sara\n  faction: stark\n  id: j3\n"
    )
    assert not may_record(two, BATTLE, Who("sara"))


def test_a_player_may_record_their_own_painting_not_anothers(two: Path) -> None:
    assert may_record(two, Draft("painting", {"player": "TIM"}), Who("tim"))
    assert not may_record(two, Draft("painting", {"player": "tim"}), Who("matt"))


def test_the_painter_a_claim_commissioned_may_not_record_the_claim_for_its_player(two: Path) -> None:
    """Issue 34: naming yourself as the commissioned painter is not the other player's claim."""
    assert not may_record(two, Draft("painting", {"player": "tim", "commissioned": "matt"}), Who("matt"))
    assert may_record(two, Draft("painting", {"player": "tim", "commissioned": "matt"}), Who("tim"))


@pytest.mark.parametrize(
    "draft",
    [
        Draft("week", {}),
        Draft("adjust", {"player": "tim", "cp": 5, "reason": "mine"}),
        Draft("join", {"player": "tim", "faction": "stark"}),
        Draft("void", {"target": "j2", "reason": "mine"}),
    ],
    ids=["week", "adjust", "join", "void"],
)
def test_an_organisers_event_needs_an_organiser_even_when_it_names_the_player(two: Path, draft: Draft) -> None:
    assert not may_record(two, draft, Who("tim"))
    assert may_record(two, draft, Who("anyone", organiser=True))


def test_a_stranger_named_nowhere_in_the_campaign_may_record_nothing(two: Path) -> None:
    assert not may_record(two, BATTLE, Who("mallory"))


def test_a_draft_naming_no_one_a_player_knows_is_the_organisers(two: Path) -> None:
    assert not may_record(two, Draft("battle", {"players": "tim matt"}), Who("tim"))


def test_another_games_player_records_only_their_own_events(tmp_path: Path) -> None:
    folder = shipped(tmp_path, "mighty-kingdoms")
    order = Draft("order", {"army": "bo-4", "order": "defend"})
    owner = order.fields["army"].rsplit("-", 1)[0]
    assert may_record(folder, order, Who(owner))
    assert not may_record(folder, order, Who("cy"))
    assert not may_record(folder, Draft("reform", {}), Who(owner))
    mistaken = Draft("order", {"army": "bo-4", "order": "hold"})  # the rules will say why: not a 403
    assert may_record(folder, mistaken, Who(owner))
    assert not may_record(folder, mistaken, Who("cy"))


@pytest.mark.parametrize(
    "draft",
    [
        Draft("battle", ["tim", "matt"]),  # type: ignore[arg-type]
        Draft(None, {}),  # type: ignore[arg-type]
        Draft("battle", {"players": [["tim"], {"x": 1}]}),
        Draft("painting", {"player": 5}),
    ],
)
def test_a_draft_of_any_shape_is_answered_never_a_crash(two: Path, draft: Draft) -> None:
    assert may_record(two, draft, Who("tim")) is False
