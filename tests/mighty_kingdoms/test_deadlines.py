"""`deadlines.py` (issue 48, docs/mighty-kingdoms.md "Deadlines"): what a Mighty Kingdoms
ledger waits for, one wait per kingdom and step, and what is recorded for a missed one — each
default built through the game's intents and decided by the real rules."""

from __future__ import annotations

from typing import Any

import pytest

from cok.core.deadlines import NONE, Wait
from cok.core.dice import ROLL, FixedDice, RandomDice
from cok.rulesets.mighty_kingdoms import RULESET
from cok.rulesets.mighty_kingdoms.deadlines import STEPS, WINTER, defaults, waits
from cok.rulesets.mighty_kingdoms.rules.apply import commit, decide
from cok.rulesets.mighty_kingdoms.rules.phase import phase
from cok.rulesets.mighty_kingdoms.rules.state import Settings

from .game import Game, to_winter
from .play import Table, new_state

STEP = {s.key: s for s in STEPS}


def recorded(game: Game, wait: Wait, choice: str | None = None, dice: Any = None) -> list[tuple[str, dict[str, Any]]]:
    """The wait's default under `choice` (the step's first, the setting when none is given),
    each draft built by the intents as `cok tick` records it (no answers: a draft asks for
    dice in its own fields) and decided by the rules."""
    drafts = list(defaults(game.state, wait, choice or STEP[wait.step].defaults[0]))
    for kind, fields in drafts:
        event = RULESET.build(game.state, kind, fields, {}, dice or FixedDice(3, 4))
        assert event is not None
        commit(decide(game.state, event), game.state)
    return drafts


def only(game: Game, who: str | None = None) -> Wait:
    found = [w for w in waits(game.state) if who is None or w.who == who]
    assert len(found) == 1, found
    return found[0]


def three() -> Game:
    """ana, bo and cy (north), each with one army on its city: month 1, orders."""
    from .game import EAST, NORTH, WEST

    game = Game()
    game.kingdom("ana", WEST)
    game.kingdom("bo", EAST)
    game.kingdom("cy", NORTH)
    game("begin")
    return game


def resolved_all(game: Game) -> None:
    from cok.rulesets.mighty_kingdoms.rules.phase import resolver

    while phase(game.state) == "resolution":
        player = resolver(game.state) or ""
        game("resolve", army=next(a.id for a in game.state.armies_of(player) if not a.resolved))


# ---------------------------------------------------------------- the steps


def test_the_steps_are_the_issues_orders_resolution_battles_and_winter_and_the_organisers_reform() -> None:
    assert [s.key for s in STEPS] == ["orders", "resolution", "battles", "reform", "winter"]
    assert RULESET.deadline_steps == STEPS


def test_every_steps_first_default_is_the_safest_and_none_is_always_a_choice() -> None:
    assert STEP["orders"].defaults == ("defend", NONE)
    assert STEP["resolution"].defaults == ("as-ordered", NONE)
    assert STEP["reform"].defaults == ("reform", NONE)
    assert STEP["winter"].defaults == (WINTER, NONE)
    assert all(NONE in s.defaults for s in STEPS)


def test_a_battles_result_cannot_be_invented_so_its_only_default_is_none() -> None:
    assert STEP["battles"].defaults == (NONE,)


def test_every_step_says_why_citing_the_rule() -> None:
    for step in STEPS:
        assert step.what and step.why
    assert "Defend" in STEP["orders"].why and "Regroup" in STEP["orders"].why
    assert "cannot be invented" in STEP["battles"].why


# ---------------------------------------------------------------- who is waited for


def test_setup_waits_for_nobody_at_a_deadline_the_table_founds_the_kingdoms() -> None:
    game = Game()
    from .game import WEST

    game.kingdom("ana", WEST)
    assert waits(game.state) == []


def test_the_orders_phase_waits_for_each_kingdom_still_lacking_orders_for_its_armies() -> None:
    game = three()
    assert [(w.step, w.who) for w in waits(game.state)] == [("orders", "ana"), ("orders", "bo"), ("orders", "cy")]
    assert only(game, "bo").what == "orders for bo-1"
    game.orders(**{"bo-1": "defend"})
    assert [w.who for w in waits(game.state)] == ["ana", "cy"]


def test_a_kingdoms_orders_wait_lasts_while_it_still_lacks_some_and_names_them() -> None:
    game = three()
    game.state.move_army(game.army("ana-1"), "-1,-1")
    from cok.rulesets.mighty_kingdoms.rules.state import Army

    game.state.add_army(Army("ana-2", "ana", "-1,0"))
    before = only(game, "ana")
    assert before.what == "orders for ana-1 and ana-2"
    game.orders(**{"ana-1": "defend"})
    after = only(game, "ana")
    assert after.key == before.key and after.what == "orders for ana-2"


def test_an_orders_wait_is_a_new_wait_each_month() -> None:
    game = three()
    first = only(game, "ana").key
    assert first == "orders:y1:m1:ana"
    game.orders(**{"ana-1": "defend", "bo-1": "defend", "cy-1": "defend"})
    resolved_all(game)
    game("reform", order=["ana", "bo", "cy"])
    assert only(game, "ana").key == "orders:y1:m2:ana" != first


def test_resolution_waits_for_the_kingdom_whose_turn_it_is_alone() -> None:
    game = three()
    game.orders(**{"ana-1": "defend", "bo-1": "defend", "cy-1": "defend"})
    wait = only(game)
    assert (wait.step, wait.who, wait.what) == ("resolution", "ana", "to resolve one of ana-1")


def test_each_turn_to_resolve_is_a_wait_of_its_own() -> None:
    game = Game().two_kingdoms()
    from cok.rulesets.mighty_kingdoms.rules.state import Army

    game.state.add_army(Army("ana-2", "ana", "-1,-1"))
    game.orders(**{"ana-1": "defend", "ana-2": "defend", "bo-1": "defend"})
    first = only(game).key
    game("resolve", army="ana-1")
    assert only(game).who == "bo"
    game("resolve", army="bo-1")
    again = only(game)
    assert again.who == "ana" and again.key != first
    assert (first, again.key) == ("resolution:y1:m1:ana:0", "resolution:y1:m1:ana:2")


def test_battles_wait_for_the_kingdom_that_chooses_the_next_battle() -> None:
    game = Game().meeting()
    wait = only(game)
    assert (wait.step, wait.who, wait.key) == ("battles", "ana", "battles:y1:m1:ana:0")
    assert wait.what == "to choose a battle in Ford (0,0)"


def test_reform_waits_for_the_organisers() -> None:
    game = three()
    game.orders(**{"ana-1": "defend", "bo-1": "defend", "cy-1": "defend"})
    resolved_all(game)
    wait = only(game)
    assert (wait.step, wait.who, wait.key) == ("reform", None, "reform:y1:m1")


def test_winter_waits_for_the_organisers_winter_event_then_each_kingdoms_feeding() -> None:
    game = Game().two_kingdoms()
    game.state.month = 6
    game.orders(**{"ana-1": "defend", "bo-1": "defend"})
    resolved_all(game)
    game("reform", order=["ana", "bo"])
    wait = only(game)
    assert (wait.step, wait.who, wait.key) == ("winter", None, "winter:y1:recall")
    game("winter")
    assert [(w.who, w.key) for w in waits(game.state)] == [("ana", "winter:y1:feed:ana"), ("bo", "winter:y1:feed:bo")]


def test_deployment_waits_for_each_kingdom_with_armies_to_place_then_spring_for_the_organisers() -> None:
    game = to_winter(Game().two_kingdoms())
    game("feed", player="ana", unfed=[])
    game("feed", player="bo", unfed=[])
    assert [(w.who, w.key) for w in waits(game.state)] == [
        ("ana", "winter:y1:deploy:ana"),
        ("bo", "winter:y1:deploy:bo"),
    ]
    game("deploy", army="ana-1", tile="-2,0")
    game("deploy", army="bo-1", tile="2,0")
    assert [(w.who, w.key) for w in waits(game.state)] == [(None, "winter:y1:spring")]


# ---------------------------------------------------------------- what is recorded


def test_missed_orders_defend_with_every_army_still_without_one() -> None:
    game = three()
    drafts = recorded(game, only(game, "bo"))
    assert drafts == [("order", {"army": "bo-1", "order": "defend"})]
    assert game.army("bo-1").order == "defend"
    assert [w.who for w in waits(game.state)] == ["ana", "cy"]


def test_an_army_on_its_side_may_only_choose_regroup_so_its_default_is_regroup() -> None:
    game = three()
    game.army("cy-1").upright = False
    assert recorded(game, only(game, "cy")) == [("order", {"army": "cy-1", "order": "regroup"})]
    assert game.army("cy-1").order == "regroup"


def test_missed_orders_leave_the_orders_a_kingdom_gave_as_they_are() -> None:
    game = Game().two_kingdoms()
    from cok.rulesets.mighty_kingdoms.rules.state import Army

    game.state.add_army(Army("ana-2", "ana", "-1,-1"))
    game.orders(**{"ana-1": "move 0,0"})
    assert recorded(game, only(game, "ana")) == [("order", {"army": "ana-2", "order": "defend"})]
    assert game.army("ana-1").order == "move"


def test_a_missed_turn_to_resolve_resolves_one_army_as_its_order_says_and_the_turn_passes() -> None:
    game = Game().two_kingdoms()
    game.orders(**{"ana-1": "defend", "bo-1": "defend"})
    assert recorded(game, only(game)) == [("resolve", {"army": "ana-1"})]
    assert game.army("ana-1").defending and only(game).who == "bo"


def test_a_missed_resolution_takes_first_an_army_that_needs_no_dice() -> None:
    game = Game().two_kingdoms()
    from cok.rulesets.mighty_kingdoms.rules.state import Army

    game.state.add_army(Army("ana-2", "ana", "-1,-1"))
    game.orders(**{"ana-1": "move 0,0", "ana-2": "defend", "bo-1": "defend"})
    assert recorded(game, only(game)) == [("resolve", {"army": "ana-2"})]


def test_a_missed_exploration_is_resolved_with_the_dice_the_ledger_rolls() -> None:
    game = Game().two_kingdoms()
    game.orders(**{"ana-1": "move 0,0", "bo-1": "defend"})
    assert recorded(game, only(game), dice=FixedDice(5, 6)) == [("resolve", {"army": "ana-1", "roll": ROLL})]
    assert game.army("ana-1").tile == "0,0" and game.state.settlement.get("0,0") == "fortress"


def test_a_missed_battle_records_nothing_only_the_organisers_are_told() -> None:
    game = Game().meeting()
    wait = only(game)
    assert defaults(game.state, wait, NONE) == []
    assert phase(game.state) == "battles"


def test_a_missed_reform_is_the_reform_the_rules_make_ties_rolled_off_with_the_ledgers_dice() -> None:
    game = three()
    game.orders(**{"ana-1": "defend", "bo-1": "defend", "cy-1": "defend"})
    resolved_all(game)
    assert recorded(game, only(game), dice=FixedDice(2, 6, 4)) == [("reform", {"order": ROLL})]
    assert game.state.month == 2 and game.state.order == ["bo", "cy", "ana"]


def test_a_reform_without_a_tie_needs_no_dice() -> None:
    game = Game().two_kingdoms()
    from cok.rulesets.mighty_kingdoms.rules.state import Army

    game.state.add_army(Army("bo-2", "bo", "2,-1"))
    game.orders(**{"ana-1": "defend", "bo-1": "defend", "bo-2": "defend"})
    resolved_all(game)
    assert recorded(game, only(game)) == [("reform", {})]
    assert game.state.order == ["bo", "ana"]


def test_a_missed_winter_event_recalls_and_gathers() -> None:
    game = Game().two_kingdoms()
    game.state.month = 6
    game.orders(**{"ana-1": "defend", "bo-1": "defend"})
    resolved_all(game)
    game("reform", order=["ana", "bo"])
    assert recorded(game, only(game)) == [("winter", {"recall": {}})]
    assert game.state.winter_begun and game.state.kingdoms["ana"].food == 2


def test_a_kingdom_without_its_capital_recalls_to_its_first_city_every_army_is_placed_anew_at_deploy() -> None:
    game = Game().two_kingdoms()
    del game.state.settlement["2,0"]
    game.state.kingdoms["bo"].capital = None
    game.state.month = 6
    game.orders(**{"ana-1": "defend", "bo-1": "defend"})
    resolved_all(game)
    game("reform", order=["ana", "bo"])
    assert recorded(game, only(game)) == [("winter", {"recall": {"bo": "1,0"}})]
    assert game.army("bo-1").tile == "1,0"


def test_a_missed_feeding_passes_the_purchases_and_feeds_what_the_food_feeds() -> None:
    game = to_winter(Game().two_kingdoms())
    assert recorded(game, only(game, "ana")) == [("feed", {"player": "ana", "unfed": []})]
    assert "ana" in game.state.fed and game.army("ana-1").id == "ana-1"


def test_a_feeding_short_of_food_removes_the_weakest_armies_the_newest_first() -> None:
    game = to_winter(Game().two_kingdoms())
    from cok.rulesets.mighty_kingdoms.rules.state import Army

    for number, points in ((2, 300), (3, 500), (4, 500)):
        game.state.add_army(Army(f"ana-{number}", "ana", "-2,0", points=points, deployed=False))
    assert game.state.kingdoms["ana"].food == 2
    assert recorded(game, only(game, "ana")) == [("feed", {"player": "ana", "unfed": ["ana-2", "ana-4"]})]
    assert [a.id for a in game.state.armies_of("ana")] == ["ana-1", "ana-3"]


def test_a_missed_deployment_places_every_army_at_home_capital_first_within_the_limits() -> None:
    game = to_winter(Game().two_kingdoms())
    from cok.rulesets.mighty_kingdoms.rules.state import Army

    for number in (2, 3, 4):
        game.state.add_army(Army(f"ana-{number}", "ana", "-2,0", deployed=False))
    game.state.kingdoms["ana"].food = 4
    game("feed", player="ana", unfed=[])
    game("feed", player="bo", unfed=[])
    drafts = recorded(game, only(game, "ana"))
    assert drafts == [
        ("deploy", {"army": "ana-1", "tile": "-2,0"}),
        ("deploy", {"army": "ana-2", "tile": "-2,0"}),
        ("deploy", {"army": "ana-3", "tile": "-2,0"}),
        ("deploy", {"army": "ana-4", "tile": "-2,-1"}),  # the capital holds 3; the fortress next
    ]
    assert [w.who for w in waits(game.state)] == ["bo"]


def test_a_missed_spring_starts_the_next_year() -> None:
    game = to_winter(Game().two_kingdoms())
    game("feed", player="ana", unfed=[])
    game("feed", player="bo", unfed=[])
    game("deploy", army="ana-1", tile="-2,0")
    game("deploy", army="bo-1", tile="2,0")
    assert recorded(game, only(game), dice=FixedDice(6, 1)) == [("spring", {"order": ROLL})]
    assert (game.state.year, game.state.month, game.state.order) == (2, 1, ["ana", "bo"])


def test_a_default_of_none_records_nothing_at_any_step() -> None:
    game = three()
    for wait in waits(game.state):
        assert defaults(game.state, wait, NONE) == []
    game.orders(**{"ana-1": "defend", "bo-1": "defend", "cy-1": "defend"})
    assert defaults(game.state, only(game), NONE) == []


def test_a_default_for_a_wait_no_longer_open_records_nothing() -> None:
    game = three()
    wait = only(game, "ana")
    game.orders(**{"ana-1": "defend"})
    assert defaults(game.state, wait, "defend") == []


@pytest.mark.parametrize(
    ("seed", "settings"),
    [
        *((seed, Settings()) for seed in range(6)),
        *((seed, Settings(battles="kings-of-war", army_limit=3, advanced=("wizards-towers",))) for seed in range(3)),
    ],
)
def test_every_waits_default_is_legal_under_the_real_rules_and_closes_that_wait(seed: int, settings: Settings) -> None:
    """A table played by chance (simple battles; Kings of War with its Unit Strength losses at
    Reform, and wizard's towers' rerolls): at every point, each open wait's default (the step's
    first choice) builds through the intents into events the rules accept, and the wait it was
    recorded for is no longer open after it."""
    table = Table(new_state(settings), seed)
    seen: set[str] = set()
    for _ in range(900):
        table.step()
        for wait in waits(table.state):
            trial = Game.__new__(Game)
            trial.state = table.state.copy()
            drafts = recorded(trial, wait, dice=RandomDice())
            if drafts:
                seen.add(wait.step)
                assert wait.key not in {w.key for w in waits(trial.state)}
    assert {"orders", "resolution", "reform", "winter"} <= seen


def test_what_a_missed_wait_records_is_said_in_words_for_the_kingdoms_page() -> None:
    from cok.rulesets.mighty_kingdoms.deadlines import missed

    game = three()
    assert missed(game.state, only(game, "ana"), "defend") == "ana-1 defends"
    game.orders(**{"ana-1": "move 0,0", "bo-1": "defend", "cy-1": "defend"})
    assert missed(game.state, only(game), "as-ordered") == "ana-1's move is resolved as ordered"
    game = Game().meeting()
    assert missed(game.state, only(game), NONE) == "the organisers are told (nothing is recorded)"


def test_a_missed_reform_rolls_off_the_kingdoms_tied_once_reform_step_4_removed_the_armies_with_no_unit() -> None:
    """Kings of War: ana's second army has lost its last unit (−2 Unit Strength): Reform removes
    it before ordering the players, which ties ana with bo, so the default rolls off."""
    from cok.rulesets.mighty_kingdoms.rules.state import Army

    game = Game(battles="kings-of-war").two_kingdoms()
    game.state.add_army(Army("ana-2", "ana", "-1,-1", list="ana 500", units={"Spearmen": 2}, changes={"Spearmen": -4}))
    game.orders(**{"ana-1": "defend", "ana-2": "defend", "bo-1": "defend"})
    resolved_all(game)
    assert recorded(game, only(game), dice=FixedDice(1, 6)) == [("reform", {"order": ROLL})]
    assert "ana-2" not in game.state.armies and game.state.order == ["bo", "ana"]
