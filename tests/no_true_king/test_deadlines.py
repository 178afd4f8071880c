"""No True King's deadlines (issue 48; docs/no-true-king.md "Deadlines"): what the ledger
waits for from each conspiracy, each turn its own wait, and what a missed turn records — built
through the game's intents and decided by the real rules. One test per sentence of the docs."""

from __future__ import annotations

from copy import deepcopy

import pytest

from cok.core.deadlines import NONE, Wait
from cok.core.dice import FixedDice
from cok.rulesets.no_true_king import RULESET
from cok.rulesets.no_true_king.deadlines import PASS, STEPS, defaults, waits
from cok.rulesets.no_true_king.intents import build
from cok.rulesets.no_true_king.rules.apply import apply
from cok.rulesets.no_true_king.rules.outcomes import Outcome
from cok.rulesets.no_true_king.rules.state import State
from tests.no_true_king.game import event_of, new_game, next_event
from tests.no_true_king.helpers import begun, give, move, placed, put, rec, refused, resolving

DICE = FixedDice()


def turn_of(state: State, player: str) -> Wait:
    (found,) = [w for w in waits(state) if w.who == player]
    return found


def missed(state: State, player: str, choice: str = PASS) -> list[Outcome]:
    """The defaults of the player's turn, built as `cok ntk …` would send them and applied
    as the ledger records them (`default: deadline`)."""
    done = []
    for type, fields in defaults(state, turn_of(state, player), choice):
        event = build(state, type, fields, {}, DICE)
        assert event is not None
        data = event.model_dump(mode="json", by_alias=True, exclude_none=True)
        done.append(apply(state, event_of({**data, "default": "deadline"})))
    return done


# ---------------------------------------------------------------- the steps


def test_the_game_names_its_steps_turn_and_unseal_with_the_safest_default_first() -> None:
    assert [(s.key, s.defaults) for s in RULESET.deadline_steps] == [("turn", (PASS, NONE)), ("unseal", (NONE,))]
    assert RULESET.waits is waits and RULESET.defaults is defaults and RULESET.deadline_steps is STEPS


# ---------------------------------------------------------------- the waits, each its own


def test_setup_is_the_organisers_and_waits_for_no_conspiracy() -> None:
    state = begun()
    state.phase, state.active = "setup", None
    assert waits(state) == []


def test_a_placement_is_a_turn_keyed_by_its_round_player_and_the_agent_placed() -> None:
    state = begun()
    assert waits(state) == [Wait("turn", "ana", "ana to place an agent", "turn:r1:place:ana:1")]
    rec(state, type="place", player="ana", house="stark", space="maester")
    assert turn_of(state, "bo").key == "turn:r1:place:bo:1"
    rec(state, type="place", player="bo", house="stark", space="marshal")
    rec(state, type="place", player="cy", house="stark", space="lord")
    assert turn_of(state, "ana").key == "turn:r1:place:ana:2"  # ana's next turn is a new wait


def test_a_resolution_is_a_turn_keyed_by_the_agents_that_may_resolve() -> None:
    state = placed(
        [
            ("stark", "maester"),
            ("tyrell", "maester"),
            ("greyjoy", "maester"),
            ("lannister", "maester"),
            ("baratheon", "maester"),
            ("greyjoy", "lord"),
            ("stark", "lord"),
            ("tyrell", "lord"),
            ("lannister", "lord"),
        ]
    )
    assert state.phase == "resolution"
    wait = turn_of(state, "ana")
    assert wait.key == "turn:r1:resolve:ana:lannister-maester,stark-maester" and wait.step == "turn"
    missed(state, "ana")
    missed(state, "bo")
    missed(state, "cy")
    assert turn_of(state, "ana").key == "turn:r1:resolve:ana:lannister-maester"  # one fewer: a new wait


def test_a_card_in_a_combat_is_waited_for_from_a_player_who_is_not_the_active_one() -> None:
    state = karhold()
    rec(state, type="card", player="ana", house="stark", to="Karhold")
    wait = turn_of(state, "bo")
    assert wait.step == "turn" and wait.key == "turn:r1:card:bo:ana:stark-maester:stark@Karhold"
    assert "play a card, or none, in the combat in Karhold" in wait.what
    assert all(w.who != "ana" for w in waits(state))  # the active player waits for the card


def test_an_exchange_or_pass_is_a_turn_once_a_round() -> None:
    state = begun()
    state.phase, state.active = "exchanges", "bo"
    assert waits(state) == [Wait("turn", "bo", "bo to exchange two loyalty tokens or pass", "turn:r1:exchange:bo")]


def test_unsealing_is_a_wait_of_every_player_still_sealed() -> None:
    state = begun()
    state.phase, state.active = "unseal", None
    state.players["bo"].unsealed = True
    assert [(w.step, w.who, w.key) for w in waits(state)] == [
        ("unseal", "ana", "unseal:ana"),
        ("unseal", "cy", "unseal:cy"),
    ]


def test_the_game_over_waits_for_no_one() -> None:
    state = begun()
    state.phase, state.active = "over", None
    assert waits(state) == []


def test_every_turn_of_a_whole_game_is_a_new_wait() -> None:
    """Each key opens once: a key seen again later would share the first turn's opening time
    and its default (a second default for the same wait is refused)."""
    game = new_game(7)
    seen: list[str] = []
    while game.state.phase not in ("unseal", "over"):
        keys = [w.key for w in waits(game.state)]
        if not seen or seen[-1] != keys[0]:
            seen.append(keys[0])
        game.record(next_event(game))
    assert len(seen) == len(set(seen)) and len(seen) > 30


# ---------------------------------------------------------------- the defaults


def test_a_missed_placement_passes_the_turn_with_nothing_placed() -> None:
    state = begun()
    assert defaults(state, turn_of(state, "ana"), PASS) == [("pass", {"player": "ana"})]
    (done,) = missed(state, "ana")
    assert state.agents == {} and state.placed["ana"] == 1 and state.active == "bo"
    assert "places no agent" in RULESET.tell(state, done)


def test_at_the_table_every_conspiracy_places_three_agents_and_passes_no_placement() -> None:
    refused(begun(), "every conspiracy places three agents", type="pass", player="ana")


def test_a_round_in_which_no_agent_is_placed_goes_to_its_rankings() -> None:
    state = begun()
    for _ in range(9):
        missed(state, str(state.active))
    assert state.phase == "exchanges" and state.active == "ana" and len(state.ranked) == 1


def test_a_missed_resolution_resolves_the_agent_taking_no_action_and_it_moves_up() -> None:
    state = begun()
    resolving(state, "ana", "stark", "maester")
    before = dict(state.troops)
    assert defaults(state, turn_of(state, "ana"), PASS) == [
        ("resolve", {"player": "ana", "house": "stark", "space": "maester", "actions": []})
    ]
    (done,) = missed(state, "ana")
    assert state.agents == {("stark", "marshal"): "ana"} and state.troops == before
    assert "takes no action; the agent moves up to Stark marshal" in RULESET.tell(state, done)


def test_a_missed_resolution_returns_the_agent_when_the_space_above_is_held() -> None:
    state = begun()
    resolving(state, "ana", "stark", "maester")
    state.agents[("stark", "marshal")] = "bo"
    missed(state, "ana")
    assert state.agents == {("stark", "marshal"): "bo"} and state.active == "bo"


def test_a_missed_lord_resolves_taking_no_action_and_returns() -> None:
    state = begun()
    resolving(state, "ana", "tyrell", "lord")
    missed(state, "ana")
    assert state.agents == {} and state.phase == "exchanges"


def test_the_missed_agent_is_the_first_in_the_boards_order_of_houses() -> None:
    state = begun()
    resolving(state, "ana", "tyrell", "maester")
    state.agents[("baratheon", "maester")] = "ana"
    assert defaults(state, turn_of(state, "ana"), PASS)[0][1]["house"] == "baratheon"


def test_a_players_own_resolve_still_takes_its_actions() -> None:
    state = begun()
    resolving(state, "ana", "stark", "maester")
    refused(state, "a maester takes exactly one action", type="resolve", player="ana", house="stark", space="maester")


def karhold() -> State:
    """ana (active) moves Stark into Karhold, held by a Greyjoy footman; bo holds a Greyjoy card."""
    state = begun()
    put(state, "Karhold", "greyjoy", 1)
    resolving(state, "ana", "stark", "maester")
    give(state, "bo", "greyjoy")
    return state


def test_a_missed_card_plays_no_card() -> None:
    state = karhold()
    rec(state, type="card", player="ana", house="stark", to="Karhold")
    assert defaults(state, turn_of(state, "bo"), PASS) == [("card", {"player": "bo"})]
    missed(state, "bo")
    assert state.table == [("ana", None), ("bo", None)] and turn_of(state, "ana").what.startswith("ana to resolve")
    rec(state, **move("ana", "stark", "maester", "Winterfell", "Karhold", ["footman", "knight"], cards={}))
    assert state.troops["Karhold"][0] == "stark"


def test_a_missed_resolution_after_the_cards_were_played_fights_no_combat_and_the_cards_stay_in_hand() -> None:
    state = karhold()
    rec(state, type="card", player="ana", house="stark", to="Karhold")
    rec(state, type="card", player="bo", card="Balon Greyjoy")
    missed(state, "ana")
    assert state.table == [] and state.fight_at is None and state.played == []
    assert state.held[("bo", "greyjoy")] == 1 and state.troops["Karhold"] == ("greyjoy", 1, 0, 0)


def test_a_missed_exchange_is_a_pass() -> None:
    state = begun()
    state.phase, state.active = "exchanges", "ana"
    assert defaults(state, turn_of(state, "ana"), PASS) == [("pass", {"player": "ana"})]
    (done,) = missed(state, "ana")
    assert "keeps their loyalty tokens" in RULESET.tell(state, done) and state.active == "bo"


@pytest.mark.parametrize("phase", ["placement", "resolution", "card", "exchanges"])
def test_none_records_nothing(phase: str) -> None:
    state = karhold() if phase in ("resolution", "card") else begun()
    if phase == "card":
        rec(state, type="card", player="ana", house="stark", to="Karhold")
    if phase == "exchanges":
        state.phase, state.active = "exchanges", "ana"
    wait = waits(state)[0]
    assert defaults(state, wait, NONE) == [] and defaults(state, wait, PASS) != []


def test_a_default_never_unseals_for_a_player() -> None:
    state = begun()
    state.phase, state.active = "unseal", None
    assert all(defaults(state, w, choice) == [] for w in waits(state) for choice in (PASS, NONE))


def test_a_wait_no_longer_open_gets_no_default() -> None:
    state = begun()
    gone = turn_of(state, "ana")
    rec(state, type="place", player="ana", house="stark", space="maester")
    assert defaults(state, gone, PASS) == []


def test_a_whole_game_in_which_one_conspiracy_stops_acting_goes_on_to_its_unsealing() -> None:
    """bo places its first round's agents, then never acts again: each of bo's turns is
    defaulted (its agents resolve idle, its placements and exchanges pass), the others play;
    every round completes and the game waits, at the end, only for the unseal no default makes."""
    game = new_game(11)
    defaulted: list[str] = []
    while game.state.phase not in ("unseal", "over"):
        mine = [w for w in waits(game.state) if w.who == "bo"]
        if mine and not (game.state.round == 1 and game.state.phase == "placement"):
            defaulted.append(mine[0].key)
            assert missed(game.state, "bo")
        else:
            game.record(next_event(game))
    assert game.state.round == 3 and len(game.state.ranked) == 3
    assert all(any(f":{what}:" in k for k in defaulted) for what in ("place", "resolve", "exchange"))
    assert "bo" not in game.state.agents.values()
    for player in ("ana", "cy"):
        game.record(
            {"type": "unseal", "player": player, "loyalty": game.sealed[player], "secret": game.secrets[player]}
        )
    assert [w.key for w in waits(game.state)] == ["unseal:bo"]


def test_a_default_needs_no_secret_under_sealed_loyalty() -> None:
    """Every draft a default makes names only public fields: no loyalty, secret or swap."""
    game = new_game(5)
    while game.state.phase not in ("unseal", "over"):
        for wait in waits(game.state):
            for _, fields in defaults(game.state, wait, PASS):
                assert set(fields) <= {"player", "house", "space", "actions"}
        game.record(next_event(game))


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_turn_of_a_game_can_be_defaulted_by_the_real_rules_and_closes_its_wait(seed: int) -> None:
    """At every position of a whole game, each open turn's default, on a copy of the state,
    is an event the rules accept, and the turn it was for is no longer waited for."""
    game = new_game(seed)
    tried = 0
    while game.state.phase not in ("unseal", "over"):
        for wait in waits(game.state):
            copy = deepcopy(game.state)
            assert missed(copy, str(wait.who))
            assert wait.key not in {w.key for w in waits(copy)}
            tried += 1
        game.record(next_event(game))
    assert tried > 30


def test_a_missed_resolution_with_ashas_table_open_fights_neither_combat() -> None:
    """Asha Greyjoy's granted move had its own table opened (§4.4): an idle agent makes no
    move, so neither combat is fought and Asha stays in her player's hand."""
    state = begun()
    resolving(state, "ana", "greyjoy", "marshal")
    give(state, "ana", "greyjoy")
    state.won_table, state.won_at = [("ana", "Asha Greyjoy"), ("bo", None)], ("greyjoy", "The Golden Sound")
    state.table, state.fight_at = [("ana", None), ("bo", None)], ("greyjoy", "Moat Cailin")
    assert turn_of(state, "ana").what.startswith("ana to resolve")
    missed(state, "ana")
    assert (state.table, state.fight_at, state.won_table, state.won_at) == ([], None, [], None)
    assert "Asha Greyjoy" not in state.played and state.held[("ana", "greyjoy")] == 1
