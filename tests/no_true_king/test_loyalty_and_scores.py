"""Contract §4.5 House rankings and §4.6 Loyalty, exchanges and the end: one test per sentence."""

from __future__ import annotations

import hashlib

from cok.rulesets.no_true_king.rules.loyalty import score, seal_of
from cok.rulesets.no_true_king.rules.ranking import rank_houses
from cok.rulesets.no_true_king.rules.scores import final_standings
from cok.rulesets.no_true_king.rules.state import State
from tests.no_true_king.helpers import CARDS, SECRET, begun, fresh, put, rec, refused

# §4.5 ------------------------------------------------------------------------------


def test_houses_are_ranked_by_crowns_of_the_areas_they_control() -> None:
    state = fresh()
    put(state, "King's Landing", "tyrell", f=1)  # 2 crowns
    put(state, "The Twins", "tyrell", f=1)
    assert rank_houses(state)["tyrell"] == 1


def test_then_castles_then_towns_then_barrels() -> None:
    state = fresh()
    # at the start every house holds 1 castle; baratheon 2 crowns; stark a town (White Harbor)
    assert rank_houses(state) == {"baratheon": 1, "stark": 2, "lannister": 3, "greyjoy": 3, "tyrell": 3}
    state.flags["Oldtown"] = "tyrell"  # a second castle beats stark's town
    assert rank_houses(state)["tyrell"] == 2 and rank_houses(state)["stark"] == 3
    state.flags["Searoad Marches"] = "lannister"  # a third barrel
    assert rank_houses(state)["lannister"] == 4 and rank_houses(state)["greyjoy"] == 5


def test_houses_equal_in_all_four_share_a_rank_1_2_2_4() -> None:
    assert sorted(rank_houses(fresh()).values()) == [1, 2, 3, 3, 3]
    state = fresh()
    state.flags["Searoad Marches"] = "lannister"
    assert sorted(rank_houses(state).values()) == [1, 2, 3, 4, 4]


def test_a_flag_counts_for_control() -> None:
    state = fresh()
    state.flags["King's Landing"] = "greyjoy"
    assert rank_houses(state)["greyjoy"] == 1


# §4.6 ------------------------------------------------------------------------------


def test_the_seal_is_sha256_of_the_card_and_secret() -> None:
    text = f"ntk-loyalty:ana:{','.join(CARDS['ana'])}:{SECRET}"
    assert seal_of("ana", CARDS["ana"], SECRET) == hashlib.sha256(text.encode("utf-8")).hexdigest()


def test_a_sealed_conspiracy_carries_only_seal_an_open_one_only_loyalty() -> None:
    state = fresh("sealed")
    refused(state, "only `seal`", type="conspiracy", player="ana", symbol="crown", loyalty=CARDS["ana"])
    refused(state, "only `seal`", type="conspiracy", player="ana", symbol="crown")
    state = fresh("open")
    refused(state, "only `loyalty`", type="conspiracy", player="ana", symbol="crown", seal="a" * 64)


def exchanging(loyalty: str = "sealed") -> State:
    state = begun(("ana", "bo"), loyalty=loyalty)
    state.phase, state.active = "exchanges", "ana"
    return state


def test_an_exchange_swaps_two_positions_and_reveals_one_of_the_two() -> None:
    state = exchanging("open")
    rec(state, type="exchange", player="ana", swap=[1, "left"], reveal={1: "tyrell"})
    assert state.players["ana"].card == ["tyrell", "stark", "lannister", "greyjoy", "baratheon"]
    assert state.players["ana"].shown == ["tyrell", "", "", "", ""]


def test_the_reveal_must_be_one_of_the_swapped_tokens_when_either_was_face_down() -> None:
    state = exchanging()
    refused(state, "one of the two swapped", type="exchange", player="ana", swap=[1, 2], reveal={3: "lannister"})
    refused(state, "reveals a token", type="exchange", player="ana", swap=[1, 2])


def test_when_both_swapped_were_revealed_another_face_down_token_is_revealed() -> None:
    state = exchanging()
    state.players["ana"].shown = ["baratheon", "stark", "", "", ""]
    refused(state, "not one of the two swapped", type="exchange", player="ana", swap=[1, 2], reveal={1: "stark"})
    rec(state, type="exchange", player="ana", swap=[1, 2], reveal={4: "greyjoy"})
    assert state.players["ana"].shown == ["stark", "baratheon", "", "greyjoy", ""]


def test_with_every_token_face_up_an_exchange_reveals_none() -> None:
    state = exchanging()
    state.players["ana"].shown = ["baratheon", "stark", "lannister", "greyjoy", "tyrell"]
    refused(state, "reveals none", type="exchange", player="ana", swap=[1, 2], reveal={1: "stark"})
    rec(state, type="exchange", player="ana", swap=[1, 2])


def test_open_loyalty_a_reveal_not_matching_the_card_is_an_error_at_once() -> None:
    state = exchanging("open")
    refused(state, "is not greyjoy", type="exchange", player="ana", swap=[1, 2], reveal={2: "greyjoy"})
    refused(state, "is not baratheon", type="exchange", player="ana", swap=[1, 2], reveal={1: "baratheon"})


def ended(exchange: dict[str, object] | None = None) -> State:
    state = begun(("ana", "bo"))
    state.round, state.phase, state.active = 2, "exchanges", "ana"
    rec(state, **(exchange or {"type": "pass", "player": "ana"}))
    rec(state, type="pass", player="bo")
    return state


def test_unseal_checks_the_seal_and_names_a_wrong_secret() -> None:
    state = ended()
    refused(
        state, "does not match this card and secret", type="unseal", player="ana", loyalty=CARDS["ana"], secret="x" * 16
    )
    refused(state, "does not match", type="unseal", player="ana", loyalty=CARDS["bo"], secret=SECRET)


def test_unseal_applies_the_swaps_and_every_reveal_must_match_naming_the_exchange() -> None:
    lie = {"type": "exchange", "player": "ana", "swap": [1, 2], "reveal": {1: "tyrell"}, "id": "ex-42"}
    state = ended(lie)
    message = refused(
        state,
        "the exchange ex-42 .round 2. revealed tyrell",
        type="unseal",
        player="ana",
        loyalty=CARDS["ana"],
        secret=SECRET,
    )
    assert "stark there" in message
    honest = {"type": "exchange", "player": "ana", "swap": [1, 2], "reveal": {1: "stark"}}
    state = ended(honest)
    rec(state, type="unseal", player="ana", loyalty=CARDS["ana"], secret=SECRET)
    assert state.players["ana"].card == ["stark", "baratheon", "lannister", "greyjoy", "tyrell"]


def test_a_secret_shorter_than_16_characters_is_refused_by_the_log() -> None:
    import pydantic
    import pytest

    from cok.rulesets.no_true_king.events import Unseal

    with pytest.raises(pydantic.ValidationError):
        Unseal(player="ana", loyalty=CARDS["ana"], secret="short")


def test_scores_6_4_3_2_for_positions_whose_house_holds_that_rank() -> None:
    ranks = {"baratheon": 1, "stark": 2, "lannister": 3, "greyjoy": 4, "tyrell": 5}
    assert score(["baratheon", "stark", "lannister", "greyjoy", "tyrell"], ranks) == 15
    assert score(["stark", "baratheon", "lannister", "tyrell", "greyjoy"], ranks) == 3


def test_shared_ranks_score_every_rank_they_span() -> None:
    ranks = {"baratheon": 1, "stark": 2, "lannister": 2, "greyjoy": 4, "tyrell": 5}
    assert score(["baratheon", "lannister", "stark", "tyrell", "greyjoy"], ranks) == 6 + 4 + 3
    assert score(["stark", "baratheon", "greyjoy", "lannister", "tyrell"], ranks) == 0


def over(ranks: dict[str, int], cards: dict[str, list[str]], first: str = "ana") -> State:
    state = begun(("ana", "bo", "cy"), first=first, loyalty="open")
    state.phase, state.ranks = "over", ranks
    for p, card in cards.items():
        state.players[p].card = card
    return state


RANKS = {"baratheon": 1, "stark": 2, "lannister": 3, "greyjoy": 4, "tyrell": 5}


def test_the_winner_has_most_points() -> None:
    state = over(RANKS, {"ana": CARDS["ana"], "bo": CARDS["bo"], "cy": CARDS["cy"]})
    table = final_standings(state)
    assert [(s.player, s.score, s.rank) for s in table] == [("ana", 15, 1), ("cy", 3, 2), ("bo", 2, 3)]
    assert table[0].decided_by == "points"


def test_ties_are_broken_by_fewest_revealed_tokens() -> None:
    same = CARDS["bo"]
    state = over(RANKS, {"ana": same, "bo": same, "cy": same})
    state.players["ana"].shown = ["stark", "", "", "", ""]
    table = final_standings(state)
    assert table[-1].player == "ana" and table[1].decided_by == "fewer revealed tokens"


def test_then_by_most_cards_of_the_first_ranked_house_then_the_next() -> None:
    same = CARDS["bo"]
    state = over(RANKS, {"ana": same, "bo": same, "cy": same})
    state.held = {("cy", "baratheon"): 1, ("ana", "stark"): 2, ("bo", "stark"): 1}
    table = final_standings(state)
    assert [s.player for s in table] == ["cy", "ana", "bo"]
    assert table[0].decided_by == "more cards of baratheon" and table[1].decided_by == "more cards of stark"


def test_then_the_player_who_would_be_first_player_next_or_nearest_clockwise() -> None:
    same = CARDS["bo"]
    state = over(RANKS, {"ana": same, "bo": same, "cy": same}, first="bo")  # next first: cy
    table = final_standings(state)
    assert [s.player for s in table] == ["cy", "ana", "bo"]
    assert table[0].decided_by == "nearer the next first player"


def test_no_score_before_the_game_is_over() -> None:
    state = begun()
    assert all(s.score is None and s.rank is None for s in final_standings(state))


def test_a_sealed_reveal_of_a_house_already_face_up_is_refused_at_once() -> None:
    state = exchanging()
    state.players["ana"].shown = ["", "", "", "", "stark"]
    refused(state, "already face up at position left", type="exchange", player="ana", swap=[1, 2], reveal={1: "stark"})
