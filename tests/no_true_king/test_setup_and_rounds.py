"""Contract §4.1 Setup and §4.2 A round: one test per sentence, named after it."""

from __future__ import annotations

from cok.rulesets.no_true_king.rules.loyalty import seal_of
from cok.rulesets.no_true_king.rules.turns import waiting_for
from tests.no_true_king.helpers import CARDS, SECRET, begun, fresh, joined, placed, rec, refused, resolving

# §4.1 --------------------------------------------------------------------------------


def test_2_to_4_players_each_with_a_different_conspiracy_symbol() -> None:
    state = joined(("ana",))
    refused(state, "2 to 4", type="begin", seats=["ana"], first="ana")
    state = joined(("ana", "bo", "cy", "di"))
    refused(state, "2 to 4", type="conspiracy", player="ed", symbol="crown", seal="0" * 64)
    state = joined(("ana",))
    refused(state, "symbol", type="conspiracy", player="bo", symbol="crown", seal="0" * 64)


def test_a_seal_belongs_to_one_conspiracy() -> None:
    """§4.6 (turn 3): a conspiracy whose seal is already another's is refused."""
    state = joined(("ana",))
    taken = state.players["ana"].seal
    message = refused(state, "already ana's", type="conspiracy", player="bo", symbol="torch", seal=taken)
    assert "bo" not in state.players and "seal" in message


def test_each_loyalty_card_is_a_permutation_of_the_five_houses() -> None:
    state = fresh("open")
    refused(state, "each once", type="conspiracy", player="ana", symbol="crown", loyalty=["stark"] * 5)


def test_the_starting_units_are_on_the_board() -> None:
    state = fresh()
    assert state.troops["Winterfell"] == ("stark", 1, 1, 0)
    assert state.troops["Shipbreaker Bay"] == ("baratheon", 0, 0, 2)
    assert state.troops["Redwyne Straights"] == ("tyrell", 0, 0, 1)
    assert sum(f + k + s for _, f, k, s in state.troops.values()) == 5 * 3 + 2 + 1 + 2 + 2 + 1


def test_each_house_controls_the_areas_where_it_has_units() -> None:
    state = fresh()
    assert sorted(state.controlled("greyjoy")) == ["Greywater Watch", "Ironman's Bay", "Pyke"]


def test_no_flags_every_card_in_its_deck_no_agents_at_setup() -> None:
    state = fresh()
    assert state.flags == {} and state.held == {} and state.drawn == {} and state.agents == {}


def test_initial_rankings_before_round_1() -> None:
    """Baratheon 1, Stark 2, Lannister and Greyjoy 3, Tyrell 5 (§4.7 Ranks)."""
    state = begun()
    assert state.ranks == {"baratheon": 1, "stark": 2, "lannister": 3, "greyjoy": 3, "tyrell": 5}


def test_begin_names_every_player_once_and_the_first_player() -> None:
    state = joined()
    refused(state, "every player once", type="begin", seats=["ana", "bo"], first="ana")
    refused(state, "every player once", type="begin", seats=["ana", "bo", "bo"], first="ana")
    refused(state, "not seated", type="begin", seats=["ana", "bo", "cy"], first="di")
    rec(state, type="begin", seats=["cy", "ana", "bo"], first="ana")
    assert (state.seats, state.first, state.round) == (["cy", "ana", "bo"], "ana", 1)


def test_a_game_has_as_many_rounds_as_players() -> None:
    assert begun(("ana", "bo")).rounds == 2
    assert begun(("ana", "bo", "cy", "di")).rounds == 4


def test_a_conspiracy_cannot_join_after_begin() -> None:
    state = begun()
    refused(state, "before `begin`", type="conspiracy", player="di", symbol="gauntlet", seal="0" * 64)


# §4.2.1 Placement -------------------------------------------------------------------


def test_placement_goes_clockwise_from_the_first_player_one_agent_a_turn() -> None:
    state = begun(first="bo")
    order = []
    for house in ["stark", "tyrell", "greyjoy", "lannister", "baratheon", "stark", "tyrell", "greyjoy", "lannister"]:
        order.append(state.active)
        space = "maester" if (house, "maester") not in state.agents else "marshal"
        rec(state, type="place", player=state.active, house=house, space=space)
    assert order == ["bo", "cy", "ana"] * 3
    assert state.phase == "resolution"


def test_a_place_out_of_turn_says_whose_turn_it_is() -> None:
    state = begun(first="bo")
    message = refused(state, "bo to place an agent", type="place", player="ana", house="stark", space="lord")
    assert "not now" in message


def test_a_place_on_an_occupied_space_lists_the_free_spaces() -> None:
    state = begun()
    rec(state, type="place", player="ana", house="stark", space="lord")
    message = refused(state, "already holds ana's agent", type="place", player="bo", house="stark", space="lord")
    assert "free spaces: baratheon maester" in message and "stark lord," not in message


# §4.2.2 Resolution ------------------------------------------------------------------

SPACES9 = [
    ("stark", "maester"),
    ("tyrell", "lord"),
    ("greyjoy", "marshal"),
    ("lannister", "maester"),
    ("baratheon", "lord"),
    ("greyjoy", "lord"),
    ("tyrell", "marshal"),
    ("baratheon", "marshal"),
    ("stark", "lord"),
]  # ana, bo, cy, ana, bo, cy, ana, bo, cy


def draw(player: str, house: str, space: str) -> dict[str, object]:
    return {"type": "resolve", "player": player, "house": house, "space": space, "actions": [{"draw": True}]}


def test_resolution_starts_with_the_first_player() -> None:
    state = placed(SPACES9)
    assert state.active == "ana"


def test_no_marshal_resolves_while_a_maester_is_unresolved() -> None:
    state = placed(SPACES9)
    refused(state, "no marshal may resolve while a maester", **draw("ana", "tyrell", "marshal"))


def test_a_player_with_no_agent_that_may_resolve_is_skipped() -> None:
    state = placed(SPACES9)
    rec(state, **draw("ana", "stark", "maester"))  # stark marshal is empty: ana's agent moves up
    # maesters left: ana's lannister; bo and cy have none, so ana goes again
    assert state.active == "ana"
    assert waiting_for(state)[0].agents == (("lannister", "maester"),)


def test_a_maester_takes_exactly_one_action() -> None:
    state = placed(SPACES9)
    two = draw("ana", "stark", "maester") | {"actions": [{"draw": True}, {"muster": {}}]}
    refused(state, "exactly one action", **two)


def test_a_maester_moves_up_to_an_empty_marshal_space() -> None:
    state = placed(SPACES9)
    outcome = rec(state, **draw("ana", "stark", "maester"))
    assert outcome.result.up == "marshal" and state.agents[("stark", "marshal")] == "ana"


def test_a_maester_returns_when_the_marshal_space_is_taken() -> None:
    spaces = [("stark", "maester"), ("stark", "marshal"), *SPACES9[2:]]
    state = placed(spaces)
    outcome = rec(state, **draw("ana", "stark", "maester"))
    assert outcome.result.up is None and state.agents[("stark", "marshal")] == "bo"


def test_a_marshal_takes_a_muster_and_a_move_in_either_order() -> None:
    state = placed(SPACES9)
    state.agents = {("stark", "marshal"): "ana", ("stark", "lord"): "cy"}
    state.active = "ana"
    refused(state, "a marshal takes a muster and a move", **draw("ana", "stark", "marshal"))
    moved = {
        "type": "resolve",
        "player": "ana",
        "house": "stark",
        "space": "marshal",
        "actions": [{"move": {"from": "White Harbor", "to": "Widow's Watch", "units": ["footman"]}}, {"muster": {}}],
    }
    outcome = rec(state, **moved)
    assert outcome.result.up is None  # stark lord is taken by cy


def test_a_lord_takes_two_different_actions_then_returns() -> None:
    state = begun()
    resolving(state, "ana", "stark", "lord")
    twice = draw("ana", "stark", "lord") | {"actions": [{"draw": True}, {"draw": True}]}
    refused(state, "two different actions", **twice)
    outcome = rec(state, **(draw("ana", "stark", "lord") | {"actions": [{"draw": True}, {"muster": {}}]}))
    assert outcome.result.up is None and ("stark", "lord") not in state.agents


def test_rankings_are_worked_out_after_the_last_agent_and_exchanges_begin() -> None:
    state = begun(("ana", "bo"))
    state.phase, state.agents, state.active = "resolution", {("stark", "lord"): "ana"}, "ana"
    outcome = rec(state, **(draw("ana", "stark", "lord") | {"actions": [{"draw": True}, {"muster": {}}]}))
    assert outcome.then is not None and outcome.then.ranks == state.ranks == state.ranked[0]
    assert (state.phase, state.active) == ("exchanges", "ana")


def test_exchanges_go_clockwise_from_the_first_player_then_the_next_round_begins() -> None:
    state = begun(("ana", "bo", "cy"), first="bo")
    state.phase, state.active = "exchanges", "bo"
    refused(state, "bo to exchange", type="pass", player="ana")
    rec(state, type="pass", player="bo")
    rec(state, type="pass", player="cy")
    rec(state, type="pass", player="ana")
    assert (state.round, state.first, state.phase, state.active) == (2, "cy", "placement", "cy")


def test_each_later_rounds_first_player_is_the_next_clockwise() -> None:
    state = begun(("ana", "bo", "cy"), first="cy")
    firsts = [state.first]
    for _ in range(2):
        state.phase, state.active = "exchanges", state.first
        for _ in range(3):
            rec(state, type="pass", player=state.active)
        firsts.append(state.first)
    assert firsts == ["cy", "ana", "bo"]


def test_after_the_last_rounds_exchanges_sealed_players_unseal() -> None:
    state = begun(("ana", "bo"), first="ana")
    state.round, state.phase, state.active = 2, "exchanges", "ana"
    rec(state, type="pass", player="ana")
    rec(state, type="pass", player="bo")
    assert state.phase == "unseal"
    assert [w.player for w in waiting_for(state)] == ["ana", "bo"]
    refused(state, "ana to unseal", type="place", player="ana", house="stark", space="lord")
    rec(state, type="unseal", player="bo", loyalty=CARDS["bo"], secret=SECRET)
    rec(state, type="unseal", player="ana", loyalty=CARDS["ana"], secret=SECRET)
    assert state.phase == "over"
    assert seal_of("ana", CARDS["ana"], SECRET) == state.players["ana"].seal


def test_an_open_game_ends_after_the_last_rounds_exchanges() -> None:
    state = begun(("ana", "bo"), loyalty="open")
    state.round, state.phase, state.active = 2, "exchanges", "ana"
    rec(state, type="pass", player="ana")
    rec(state, type="pass", player="bo")
    assert state.phase == "over"


def test_no_lord_resolves_while_a_marshal_is_unresolved() -> None:
    state = placed(SPACES9)
    state.agents = {("stark", "marshal"): "bo", ("stark", "lord"): "ana"}
    state.active = "ana"
    refused(
        state,
        "no lord may resolve while a marshal",
        **(draw("ana", "stark", "lord") | {"actions": [{"draw": True}, {"muster": {}}]}),
    )


def test_a_marshal_moves_up_to_an_empty_lord_space() -> None:
    state = placed(SPACES9)
    state.agents = {("stark", "marshal"): "ana"}
    state.active = "ana"
    moved = {
        "type": "resolve",
        "player": "ana",
        "house": "stark",
        "space": "marshal",
        "actions": [{"muster": {}}, {"move": {"from": "White Harbor", "to": "Widow's Watch", "units": ["footman"]}}],
    }
    outcome = rec(state, **moved)
    assert outcome.result.up == "lord" and state.agents == {("stark", "lord"): "ana"} and state.active == "ana"
