"""Issue 46, "a roll's identity is canonical": made from the event as the ledger will write it
(after the spelling step: ids, the map's spelling, players in a fixed order), never from what
was typed; one identity per roll the rules call for, so no second roll of the same thing can be
asked. On main a quest's tower typed `-6,2`, `-6, 2` or ` -6,2` was three rolls, and a Clash of
Kings roll-off of [tim, matt] and [matt, tim] two: a player previewed until the die pleased.

Every roll of every game is built from every spelling the spelling step accepts (case, spaces,
names and ids, the players' order) and names one identity, the one the written event gives;
through the service, a second ask in another spelling with new random bytes shows the same dice."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

from cok.core.campaign import open_campaign
from cok.core.dice import ENTROPY, ROLL, FixedDice
from cok.core.errors import Refused, RuleError
from cok.service import Draft, Who, record
from cok.service.drafts import build
from tests.conftest import Cok
from tests.mighty_kingdoms.game import Game, to_winter
from tests.mighty_kingdoms.test_quests import tower_month


class Named:
    """Dice that keep the identity of every roll asked of them (and roll 1, 2, 1, 2, …)."""

    def __init__(self) -> None:
        self.names: list[str] = []

    def rolling(self, what: str) -> FixedDice:
        self.names.append(what)
        return FixedDice(*[1, 2] * 8)

    def roll(self, sides: int = 6) -> int:
        raise AssertionError("every roll of cok's is named")


def identities(ruleset: Any, state: Any, kind: str, spellings: list[dict[str, Any]]) -> tuple[set[str], list[Any]]:
    """The identities the rolls of a draft's every spelling name, and the events built."""
    named, events = set(), []
    for fields in spellings:
        dice = Named()
        events.append(build(ruleset, state, Draft(kind, fields), {ROLL: True}, dice))  # type: ignore[arg-type]
        assert len(dice.names) == 1, (fields, dice.names)
        named |= set(dice.names)
    return named, events


def mk_ruleset() -> Any:
    from cok.rulesets.mighty_kingdoms import RULESET

    return RULESET


def test_a_quest_is_one_roll_whatever_spelling_of_its_tower_and_kingdom() -> None:
    game = tower_month()
    to_winter(game)
    typed = ["0,0", "0, 0", " 0,0", "0 ,0 ", "Ford", "ford", " FORD "]
    spellings = [
        {"player": who, "tower": tower, "hero": "Prince"} for tower in typed for who in ("ana", "ANA", " Ana ")
    ]
    named, events = identities(mk_ruleset(), game.state, "quest", spellings)
    written = events[0]
    assert named == {f"quest {game.state.year} {written.player} {written.tower}"} == {"quest 1 ana 0,0"}
    assert {(e.player, e.tower, e.roll) for e in events} == {("ana", "0,0", 1)}


def test_an_exploration_and_its_reroll_are_one_roll_whatever_spelling_of_the_army() -> None:
    game = Game(advanced=["wizards-towers"]).two_kingdoms()
    game.orders(**{"ana-1": "move 0,0", "bo-1": "defend"})
    named, events = identities(mk_ruleset(), game.state, "resolve", [{"army": "ana-1"}])
    assert named == {f"resolve 1-1 {events[0].army}"} == {"resolve 1-1 ana-1"}
    for typed in ("ANA-1", " ana-1 "):  # an army is named by its exact id: another spelling is refused
        dice = Named()
        with pytest.raises(RuleError, match="army's id"):
            build(mk_ruleset(), game.state, Draft("resolve", {"army": typed}), {ROLL: True}, dice)  # type: ignore[arg-type]
        assert set(dice.names) <= named


def test_a_battles_dice_are_one_roll_whatever_spelling_of_its_tile_and_sides() -> None:
    game = Game().meeting()
    spellings = [
        {"tile": tile, "attacker": a, "defender": d}
        for tile in ("0,0", "0, 0", "Ford", " ford ")
        for a, d in (("ana", "bo"), ("ANA", " Bo "))
    ]
    named, events = identities(mk_ruleset(), game.state, "battle", spellings)
    written = events[0]
    sides = " ".join(sorted((written.attacker, written.defender)))
    assert named == {f"battle 1-1 {written.tile} {sides}"} == {"battle 1-1 0,0 ana bo"}


def test_a_roll_off_is_one_roll_whatever_order_or_spelling_of_its_players(two: Path) -> None:
    campaign = open_campaign(two)
    typed = [["tim", "matt"], ["matt", "tim"], ["Tim", "MATT"], [" matt ", "Tim"]]
    spellings = [{"players": p, "location": "Tarth", "winner": "tim"} for p in typed]
    named, events = identities(campaign.ruleset, campaign.state, "battle", spellings)
    assert named == {"roll-off week 1 matt tim"}  # the players' ids, sorted
    assert {e.attacker for e in events} == {"tim"}  # matt's 1 against tim's 2: the same dice, the same attacker


def test_the_seating_is_one_roll_whatever_seat_is_typed_first_or_how_players_are_named(tmp_path: Path) -> None:
    from tests.no_true_king.test_cli import joined

    Cok(tmp_path)("init", "game", "--ruleset", "no-true-king")
    joined(Cok(tmp_path / "game"), ("ana", "bo", "cy"))
    campaign = open_campaign(tmp_path / "game")
    typed = [["ana", "bo", "cy"], ["bo", "cy", "ana"], ["cy", "bo", "ana"], ["ANA", " Bo", "cy "], "ana, bo, cy"]
    named, events = identities(campaign.ruleset, campaign.state, "begin", [{"seats": s} for s in typed])
    assert named == {"seating ana bo cy"}
    assert {e.first for e in events} == {"ana"}  # the die's 1 counts the players by id: the same player first


# ---------------------------------------------------------------- through the service, as a phone


def phone(folder: Path, draft: Draft, by: Who, entropy: str, dry_run: bool = True) -> dict[str, Any]:
    """A preview (or a recording) asked from a phone with its own random bytes: the event."""
    done = record(folder, [draft], by=by, answers={ROLL: True, ENTROPY: entropy}, dry_run=dry_run)
    return done.events[0].model_dump(mode="json", exclude_none=True)


def committed(folder: Path, draft: Draft, by: Who) -> None:
    """The period's dice committed (the first roll of a campaign's first period)."""
    try:
        record(folder, [draft], by=by, answers={ROLL: True, ENTROPY: "aa" * 16}, dry_run=False)
    except Refused as refused:
        assert "committed now" in str(refused)
    else:
        raise AssertionError("the first roll of the campaign commits first")


@pytest.mark.parametrize(
    ("first", "second"),
    [(["tim", "matt"], ["matt", "tim"]), (["tim", "matt"], ["MATT", " Tim "])],
    ids=["swapped", "spelled"],
)
def test_a_second_ask_of_a_roll_off_in_another_order_shows_the_same_dice(
    two: Path, first: list[str], second: list[str]
) -> None:
    battle: Callable[[list[str]], Draft] = lambda players: Draft(  # noqa: E731
        "battle", {"players": players, "location": "Tarth", "winner": "tim", "override": "a test"}
    )
    organiser = Who("org", organiser=True)
    committed(two, battle(first), organiser)
    asked = phone(two, battle(first), organiser, "01" * 16)["rolled"]
    again = phone(two, battle(second), organiser, "02" * 16)["rolled"]
    assert again == asked and asked["what"] == "roll-off week 1 matt tim" and asked["entropy"] == "01" * 16


def test_a_second_ask_of_an_exploration_with_new_bytes_shows_the_same_dice(tmp_path: Path) -> None:
    from tests.core.test_fair_dice import KINGDOMS, ok

    Cok(tmp_path)("init", "mk", "--ruleset", "mighty-kingdoms")
    mk = Cok(tmp_path / "mk")
    for kingdom in KINGDOMS:
        ok(mk, *kingdom.split())
    ok(mk, "mk", "begin")
    ok(mk, "mk", "order", "ana-1", "move", "Emberfall Gorge")
    ok(mk, "mk", "order", "bo-1", "defend")
    ana = Who("ana")
    committed(mk.cwd, Draft("resolve", {"army": "ana-1"}), ana)
    asked = phone(mk.cwd, Draft("resolve", {"army": "ana-1"}), ana, "03" * 16)
    again = phone(mk.cwd, Draft("resolve", {"army": "ana-1"}), ana, "04" * 16, dry_run=False)
    assert again["rolled"] == asked["rolled"] and again["roll"] == asked["roll"]
    written = [e for e in yaml.safe_load((mk.cwd / "events.yaml").read_text()) if e["type"] == "resolve"][-1]
    assert written["rolled"]["entropy"] == "03" * 16  # the bytes first sent, kept until recorded


def test_a_roll_recorded_before_in_the_typed_order_still_checks() -> None:
    """The dice are dealt in the order the roll names the players: a log written before (the
    battle's or the seats' own order in its `what`) is read in that order, and still verifies."""
    from cok.rulesets.clash_of_kings.intents import dice_agree as cok_agree
    from cok.rulesets.no_true_king.intents import dice_agree as ntk_agree

    battle = {"players": ["tim", "matt"], "attacker": "tim"}
    assert cok_agree("battle", {**battle, "rolled": {"what": "roll-off week 1 tim matt"}}, [5, 2]) is None
    assert cok_agree("battle", {**battle, "rolled": {"what": "roll-off week 1 matt tim"}}, [2, 5]) is None
    assert "make matt the attacker" in str(
        cok_agree("battle", {**battle, "rolled": {"what": "roll-off week 1 matt tim"}}, [5, 2])
    )
    begin = {"seats": ["bo", "ana"], "first": "bo"}
    assert ntk_agree("begin", {**begin, "rolled": {"what": "seating bo ana"}}, [1]) is None
    assert ntk_agree("begin", {**begin, "rolled": {"what": "seating ana bo"}}, [2]) is None
    assert "chooses ana" in str(ntk_agree("begin", {**begin, "rolled": {"what": "seating ana bo"}}, [1]))
