"""`intents.py`: every Mighty Kingdoms event built from what a user gave, through the one
path the terminal and the phone share (`service.record`): the rules' questions answered, the
dice the ledger rolls for a player recorded, and who may record what."""

from __future__ import annotations

from pathlib import Path

import pytest

from cok.cli import options
from cok.core.dice import FixedDice
from cok.core.log import read_log
from cok.core.yamlfile import decode
from cok.rulesets.mighty_kingdoms import RULESET
from cok.service import Asked, Draft, Who, record
from cok.service.access import may_record

from ..conftest import Cok
from .test_cli import begun


@pytest.fixture
def month(tmp_path: Path) -> Path:
    """A campaign of two kingdoms, ana and bo, in the orders phase of its first month."""
    Cok(tmp_path)("init", "mk", "--ruleset", "mighty-kingdoms")
    begun(Cok(tmp_path / "mk"))
    return tmp_path / "mk"


def last_event(folder: Path) -> object:
    raw = (folder / "events.yaml").read_bytes()
    return read_log(raw, decode(raw, "events.yaml", "event log"), "events.yaml", RULESET).entries[-1].event


def test_a_move_without_a_tile_asks_where_offering_only_the_tiles_the_army_may_enter(month: Path) -> None:
    before = (month / "events.yaml").read_text()
    with pytest.raises(Asked) as asked:
        record(month, [Draft("order", {"army": "ana-1", "order": "move"})], by=Who("ana"))
    question = asked.value.question
    assert (question.kind, question.field) == ("choice", "to")
    assert "Emberfall Gorge" in question.options and "Emberhold" in question.options
    assert (month / "events.yaml").read_text() == before  # a question writes nothing


def test_the_answer_to_the_rules_question_is_used_not_dropped(month: Path) -> None:
    record(
        month, [Draft("order", {"army": "ana-1", "order": "move"})], by=Who("ana"), answers={"to": "Emberfall Gorge"}
    )
    event = last_event(month)
    # written in the quoted form, as the ledger writes every tile (contract section 1)
    assert (event.army, event.order, event.to) == ("ana-1", "move", "1,-3")  # type: ignore[attr-defined]


def test_the_terminal_asks_the_rules_question_once_and_records_the_answer(
    month: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(options, "interactive", lambda: True)
    run = Cok(month)("mk", "order", "ana-1", "move", input="Emberfall Gorge\n")
    assert run.exit_code == 0, run.stderr
    assert run.stderr.count("into which adjacent tile") == 1
    assert last_event(month).to == "1,-3"  # type: ignore[attr-defined]  # Emberfall Gorge, in the quoted form


def test_with_no_one_at_the_terminal_the_question_says_the_options_that_answer_it(month: Path) -> None:
    run = Cok(month)("mk", "order", "ana-1", "move")
    assert run.exit_code == 1 and "choose one with --to " in run.stderr and "'Emberfall Gorge'" in run.stderr
    assert Cok(month)("mk", "order", "ana-1", "move", "--to", "Emberfall Gorge").exit_code == 0


def test_roll_it_for_me_rolls_the_exploration_dice_and_records_them(month: Path) -> None:
    record(month, [Draft("order", {"army": "ana-1", "order": "move", "to": "Emberfall Gorge"})], by=Who("ana"))
    record(month, [Draft("order", {"army": "bo-1", "order": "defend"})], by=Who("bo"))
    record(
        month, [Draft("resolve", {"army": "ana-1"})], by=Who("ana"), answers={"roll_dice": True}, dice=FixedDice(4, 6)
    )
    assert last_event(month).roll == [4, 6]  # type: ignore[attr-defined]


def test_a_kingdom_orders_only_its_own_armies(month: Path) -> None:
    mine, theirs = (
        Draft("order", {"army": "ana-1", "order": "defend"}),
        Draft("order", {"army": "bo-1", "order": "defend"}),
    )
    assert may_record(month, mine, Who("ana"))
    assert not may_record(month, theirs, Who("ana"))
    assert may_record(month, theirs, Who("x", organiser=True))


def test_a_kingdom_records_a_battle_it_fought_and_only_an_organiser_closes_the_month(month: Path) -> None:
    fought = Draft("battle", {"tile": "Emberhold", "attacker": "Ana", "defender": "bo"})
    assert may_record(month, fought, Who("bo")) and not may_record(month, fought, Who("cy"))
    assert not may_record(month, Draft("reform", {}), Who("ana"))
    assert not may_record(month, Draft("winter", {}), Who("ana"))


def test_a_tithe_is_the_givers_to_record_not_the_receivers(month: Path) -> None:
    tithe = Draft("tithe", {"from": "ana", "to": "Bo", "gold": 1})
    assert may_record(month, tithe, Who("ana")) and not may_record(month, tithe, Who("bo"))


def test_a_field_the_dice_decide_may_say_roll_dice_and_the_ledger_rolls_it_as_the_answer_would() -> None:
    """A draft with no answers (a missed deadline's default, `deadlines.py`) asks for the dice
    in the field itself: the exploration's 2D6, a roll-off's order."""
    from cok.core.dice import ROLL

    from .game import Game

    game = Game().two_kingdoms()
    game.orders(**{"ana-1": "move 0,0", "bo-1": "defend"})
    event = RULESET.build(game.state, "resolve", {"army": "ana-1", "roll": ROLL}, {}, FixedDice(4, 5))
    assert event is not None and event.roll == [4, 5]  # type: ignore[attr-defined]
    explored = RULESET.build(game.state, "resolve", {"army": "bo-1", "roll": ROLL}, {}, FixedDice(4, 5))
    assert explored is not None and explored.roll is None  # type: ignore[attr-defined]  # a defend explores nothing
    reform = RULESET.build(game.state, "reform", {"order": ROLL}, {}, FixedDice(2, 5))
    assert reform is not None and reform.order == ["bo", "ana"]  # type: ignore[attr-defined]
