"""Contract §4.4 Combat and its fine points in §4.7: one test per sentence."""

from __future__ import annotations

import pytest

from cok.core.errors import ChoiceNeeded
from cok.rulesets.no_true_king.rules.combat import kill
from tests.no_true_king.helpers import begun, fight, give, move, put, rec, refused, resolving


def karhold(greyjoy: tuple[int, int, int] = (1, 0, 0)):  # type: ignore[no-untyped-def]
    state = begun()
    put(state, "Karhold", "greyjoy", *greyjoy)
    return state


# Power -----------------------------------------------------------------------------


def test_on_land_a_footman_is_1_power_and_a_knight_2() -> None:
    fought = fight(
        karhold((1, 1, 0)),
        "stark",
        "Winterfell",
        "Karhold",
        ["footman", "knight"],
        winner="stark",
        retreat="Castle Black",
    )
    assert fought.sides.power == {"stark": 3, "greyjoy": 3}


def test_at_sea_a_ship_and_a_knight_are_1_power_and_a_footman_0() -> None:
    state = begun()
    put(state, "The Narrow Sea", "greyjoy", f=1, k=1, s=2)
    fought = fight(
        state,
        "greyjoy",
        "The Narrow Sea",
        "The Shivering Sea",
        ["ship", "ship", "knight", "footman"],
        retreat="The Narrow Sea",
    )
    assert fought.sides.sea and fought.sides.power == {"greyjoy": 3, "stark": 1}


def test_a_defender_adds_4_in_a_castle() -> None:
    state = karhold((3, 1, 0))
    fought = fight(
        state, "greyjoy", "Karhold", "Winterfell", ["footman", "footman", "footman", "knight"], retreat="Castle Black"
    )
    assert fought.sides.fort == 4 and fought.sides.power == {"greyjoy": 5, "stark": 7} and fought.winner == "stark"


def test_a_defender_adds_2_in_a_town() -> None:
    state = begun()
    put(state, "Widow's Watch", "greyjoy", f=2)
    fought = fight(state, "greyjoy", "Widow's Watch", "White Harbor", ["footman", "footman"], retreat="Widow's Watch")
    assert fought.sides.fort == 2 and fought.sides.power == {"greyjoy": 2, "stark": 3}


def test_no_fort_bonus_for_the_attacker() -> None:
    state = begun()
    put(state, "Karhold", "greyjoy", f=1)
    put(state, "Winterfell", "stark", k=1)
    fought = fight(state, "stark", "Winterfell", "Karhold", ["knight"], retreat="Castle Black")
    assert fought.sides.power == {"stark": 2, "greyjoy": 1}


# Cards ------------------------------------------------------------------------------


def test_a_card_adds_its_strength_to_its_house() -> None:
    state = karhold((3, 0, 0))
    give(state, "bo", "greyjoy")
    fought = fight(
        state,
        "stark",
        "Winterfell",
        "Karhold",
        ["footman", "knight"],
        cards={"bo": "Balon Greyjoy"},
        retreat="Castle Black",
    )
    assert fought.sides.power == {"stark": 3, "greyjoy": 5}


def test_cards_are_played_from_the_active_player_clockwise() -> None:
    state = karhold((3, 0, 0))
    give(state, "cy", "greyjoy")
    give(state, "ana", "stark")
    give(state, "bo", "stark")
    cards = {"cy": "Balon Greyjoy", "bo": "Robb Stark", "ana": "Roose Bolton"}
    fought = fight(
        state, "stark", "Winterfell", "Karhold", ["footman", "knight"], player="bo", cards=cards, retreat="Castle Black"
    )
    assert [p for p, _ in fought.sides.cards] == ["bo", "cy", "ana"]


def test_a_card_must_be_of_a_house_in_the_combat() -> None:
    state = karhold()
    give(state, "bo", "tyrell")
    resolving(state, "ana", "stark", "maester")
    refused(
        state,
        "but the combat is stark against greyjoy",
        **move("ana", "stark", "maester", "Winterfell", "Karhold", ["knight"], cards={"bo": "Mace Tyrell"}),
    )


def test_the_player_must_hold_a_card_of_that_house() -> None:
    state = karhold()
    resolving(state, "ana", "stark", "maester")
    refused(
        state,
        "holds no stark card",
        **move("ana", "stark", "maester", "Winterfell", "Karhold", ["knight"], cards={"bo": "Robb Stark"}),
    )


def test_a_played_card_is_gone_for_the_game() -> None:
    state = karhold((3, 0, 0))
    give(state, "bo", "greyjoy", 2)
    fight(
        state,
        "stark",
        "Winterfell",
        "Karhold",
        ["footman", "knight"],
        cards={"bo": "Balon Greyjoy"},
        retreat="Castle Black",
    )
    assert state.held[("bo", "greyjoy")] == 1 and "Balon Greyjoy" in state.played
    put(state, "Castle Black", "stark", f=1)
    resolving(state, "ana", "stark", "maester")
    refused(
        state,
        "already been played",
        **move("ana", "stark", "maester", "Castle Black", "Karhold", ["footman"], cards={"bo": "Balon Greyjoy"}),
    )


def test_the_sources_card_spellings_are_accepted() -> None:
    from cok.rulesets.no_true_king.rules.places import find_card
    from tests.no_true_king.game import board

    assert find_card(board(), "Jaime Lannister").name == "Ser Jaime Lannister"
    assert find_card(board(), "Saalador Saan").name == "Salladhor Saan"


# Replacement effects ------------------------------------------------------------------


def test_brienne_of_tarth_ignores_the_defenders_fort_when_baratheon_attacks() -> None:
    state = begun()
    put(state, "Karhold", "baratheon", f=3)
    give(state, "bo", "baratheon")
    fought = fight(
        state,
        "baratheon",
        "Karhold",
        "Winterfell",
        ["footman"] * 3,
        cards={"bo": "Brienne of Tarth"},
        retreat="Castle Black",
    )
    assert fought.sides.fort == 0 and fought.sides.power == {"baratheon": 5, "stark": 3}


def test_brienne_of_tarth_has_no_effect_when_baratheon_defends() -> None:
    state = begun()
    put(state, "Karhold", "stark", f=2)
    put(state, "Winterfell", "baratheon", f=1)
    give(state, "bo", "baratheon")
    fought = fight(
        state,
        "stark",
        "Karhold",
        "Winterfell",
        ["footman", "footman"],
        cards={"bo": "Brienne of Tarth"},
        retreat="Castle Black",
    )
    assert fought.sides.fort == 4


def test_catelyn_stark_doubles_starks_fort_bonus_as_defender() -> None:
    state = karhold((3, 1, 0))
    give(state, "bo", "stark")
    fought = fight(
        state,
        "greyjoy",
        "Karhold",
        "Winterfell",
        ["footman"] * 3 + ["knight"],
        cards={"bo": "Catelyn Stark"},
        retreat="Castle Black",
    )
    assert fought.sides.fort == 8


def test_brienne_wins_over_catelyn_the_fort_bonus_is_0() -> None:
    state = begun()
    put(state, "Karhold", "baratheon", f=3)
    give(state, "bo", "baratheon")
    give(state, "cy", "stark")
    cards = {"bo": "Brienne of Tarth", "cy": "Catelyn Stark"}
    fought = fight(state, "baratheon", "Karhold", "Winterfell", ["footman"] * 3, cards=cards, retreat="Castle Black")
    assert fought.sides.fort == 0


def test_salladhor_saan_adds_baratheons_ships_in_bordering_seas() -> None:
    state = begun()
    put(state, "Kingswood", "stark", f=1)
    put(state, "Storm's End", "baratheon", f=1)
    put(state, "Blackwater Bay", "baratheon", s=2)  # Shipbreaker Bay holds 2 at the start
    give(state, "bo", "baratheon")
    fought = fight(
        state,
        "baratheon",
        "Storm's End",
        "Kingswood",
        ["footman"],
        cards={"bo": "Saalador Saan"},
        retreat="The Boneway",
    )
    assert fought.sides.power["baratheon"] == 1 + 1 + 4


def test_asha_greyjoy_grants_her_player_a_move_for_greyjoy_when_greyjoy_wins() -> None:
    state = karhold((3, 0, 0))
    put(state, "Castle Black", "stark", f=1)
    give(state, "bo", "greyjoy")
    after = [
        {
            "move": {"from": "Karhold", "to": "Castle Black", "units": ["footman", "footman"]},
            "combat": {"cards": {}, "retreat": "Winterfell"},
        }
    ]
    fought = fight(
        state,
        "stark",
        "Winterfell",
        "Karhold",
        ["footman"],
        cards={"bo": "Asha Greyjoy"},
        retreat="Winterfell",
        after=after,
    )
    assert fought.winner == "greyjoy"
    (granted,) = fought.after
    moved, inner = granted
    assert moved.house == "greyjoy" and inner.winner == "greyjoy" and state.troops["Castle Black"][0] == "greyjoy"


def test_asha_greyjoys_move_into_troops_needs_its_own_combat() -> None:
    state = karhold((2, 0, 0))
    put(state, "Castle Black", "stark", f=1)
    give(state, "bo", "greyjoy")
    resolving(state, "ana", "stark", "maester")
    after = [{"move": {"from": "Karhold", "to": "Castle Black", "units": ["footman"]}}]
    data = move(
        "ana",
        "stark",
        "maester",
        "Winterfell",
        "Karhold",
        ["footman"],
        cards={"bo": "Asha Greyjoy"},
        retreat="Winterfell",
        after=after,
    )
    refused(state, "record the `combat`", **data)


def test_jaime_lannister_grants_a_muster_for_lannister_when_lannister_wins() -> None:
    state = begun()
    put(state, "Riverrun", "lannister", f=2)
    put(state, "Stoney Sept", "greyjoy", f=1)
    give(state, "bo", "lannister")
    after = [{"muster": {"Riverrun": ["footman"]}}]
    fought = fight(
        state,
        "lannister",
        "Riverrun",
        "Stoney Sept",
        ["footman"],
        cards={"bo": "Jaime Lannister"},
        retreat="Blackwater",
        after=after,
    )
    assert fought.winner == "lannister" and state.troops["Riverrun"] == ("lannister", 2, 0, 0)


def test_a_granted_action_only_when_its_card_was_played_and_its_house_won() -> None:
    state = karhold((3, 0, 0))
    give(state, "bo", "stark")
    resolving(state, "ana", "stark", "maester")
    data = move(
        "ana",
        "stark",
        "maester",
        "Winterfell",
        "Karhold",
        ["knight"],
        cards={"bo": "Robb Stark"},
        retreat="Castle Black",
        after=[{"draw": True}],
    )
    refused(state, "granted by Asha Greyjoy or Ser Jaime Lannister", **data)


def test_cersei_lannister_removes_an_unresolved_agent_from_a_lannister_space() -> None:
    state = begun()
    put(state, "Riverrun", "lannister", f=2)
    put(state, "Stoney Sept", "greyjoy", f=1)
    give(state, "bo", "lannister")
    resolving(state, "ana", "lannister", "maester")
    state.agents[("lannister", "lord")] = "cy"
    data = move(
        "ana",
        "lannister",
        "maester",
        "Riverrun",
        "Stoney Sept",
        ["footman", "footman"],
        cards={"bo": "Cersei Lannister"},
        retreat="Blackwater",
        remove={"house": "lannister", "space": "lord"},
    )
    outcome = rec(state, **data)
    assert outcome.result.done[0][1].removed == ("lannister", "lord", "cy")
    assert ("lannister", "lord") not in state.agents


def test_melisandre_makes_an_opponent_discard_a_card_of_her_players_choice() -> None:
    state = begun()
    put(state, "Karhold", "baratheon", f=3)
    give(state, "bo", "baratheon")
    give(state, "cy", "tyrell")
    discard = {"player": "cy", "house": "tyrell"}
    put(state, "Castle Black", "stark", f=1)
    fought = fight(
        state,
        "baratheon",
        "Karhold",
        "Castle Black",
        ["footman"] * 3,
        cards={"bo": "Melisandre"},
        retreat="Winterfell",
        discard=discard,
    )
    assert fought.discard == ("bo", "cy", "tyrell") and state.held[("cy", "tyrell")] == 0
    state = begun()
    put(state, "Karhold", "baratheon", f=3)
    put(state, "Castle Black", "stark", f=1)
    give(state, "bo", "baratheon")
    resolving(state, "ana", "baratheon", "maester")
    data = move(
        "ana",
        "baratheon",
        "maester",
        "Karhold",
        "Castle Black",
        ["footman"],
        cards={"bo": "Melisandre"},
        retreat="Winterfell",
        discard={"player": "bo", "house": "baratheon"},
    )
    refused(state, "an opponent", **data)


def test_no_other_printed_card_text_applies() -> None:
    state = karhold((3, 0, 0))
    give(state, "bo", "stark")
    fought = fight(
        state,
        "stark",
        "Winterfell",
        "Karhold",
        ["footman", "knight"],
        cards={"bo": "The Blackfish"},
        retreat="Castle Black",
    )
    assert fought.sides.power["stark"] == 3 + 1


# Winner, retreat, casualties ------------------------------------------------------------


def test_more_power_wins() -> None:
    fought = fight(karhold(), "stark", "Winterfell", "Karhold", ["footman", "knight"], retreat="Castle Black")
    assert (fought.winner, fought.loser) == ("stark", "greyjoy")


def test_on_a_tie_the_active_player_names_the_winner() -> None:
    state = karhold((1, 1, 0))
    with pytest.raises(ChoiceNeeded) as need:
        fight(state, "stark", "Winterfell", "Karhold", ["footman", "knight"])
    assert need.value.field == "winner" and need.value.options == ["stark", "greyjoy"]
    fought = fight(
        karhold((1, 1, 0)),
        "stark",
        "Winterfell",
        "Karhold",
        ["footman", "knight"],
        winner="greyjoy",
        retreat="Winterfell",
    )
    assert fought.winner == "greyjoy" and fought.retreat == "Winterfell"


def test_a_named_winner_must_agree_with_the_power() -> None:
    state = karhold()
    resolving(state, "ana", "stark", "maester")
    refused(
        state,
        "stark wins on power",
        **move("ana", "stark", "maester", "Winterfell", "Karhold", ["knight"], cards={}, winner="greyjoy"),
    )


def test_the_loser_retreats_to_a_bordering_area_it_could_move_to_without_a_combat() -> None:
    state = karhold((3, 0, 0))
    put(state, "Winterfell", "stark", f=2, k=1)
    with pytest.raises(ChoiceNeeded) as need:
        fight(state, "stark", "Winterfell", "Karhold", ["footman", "footman", "knight"], cards={})
    assert need.value.field == "retreat" and need.value.options == ["Castle Black", "Winterfell"]
    state = karhold((2, 0, 0))
    resolving(state, "ana", "stark", "maester")
    refused(
        state,
        "may retreat to Castle Black, Winterfell",
        **move(
            "ana",
            "stark",
            "maester",
            "Winterfell",
            "Karhold",
            ["footman", "knight"],
            cards={},
            retreat="The Shivering Sea",
        ),
    )


def test_a_loser_whose_casualties_take_every_figure_is_not_asked_where_to_retreat() -> None:
    state = karhold((2, 0, 0))
    fought = fight(state, "stark", "Winterfell", "Karhold", ["footman", "knight"], cards={})
    assert fought.winner == "stark" and fought.retreat is None
    assert fought.kills["greyjoy"] == (2, 0, 0) and state.troops["Karhold"][0] == "stark"


def test_the_retreating_troops_go_together_and_leave_no_flag() -> None:
    state = karhold((3, 0, 0))
    put(state, "Winterfell", "stark", f=2, k=1)
    fought = fight(state, "stark", "Winterfell", "Karhold", ["footman", "footman", "knight"], retreat="Castle Black")
    assert state.troops["Castle Black"] == ("greyjoy", 1, 0, 0) and state.flags.get("Karhold") is None
    assert fought.kills["greyjoy"] == (2, 0, 0)


def test_with_nowhere_to_retreat_the_losers_troops_are_all_killed() -> None:
    state = begun()
    put(state, "Pyke", "greyjoy", f=3)
    put(state, "Ironman's Bay", "stark", k=2, s=2)
    fought = fight(state, "stark", "Ironman's Bay", "Pyke", ["knight", "knight"], retreat="Ironman's Bay")
    assert fought is not None and fought.sides.power == {"stark": 4, "greyjoy": 7}
    assert fought.winner == "greyjoy" and fought.retreat == "Ironman's Bay"
    state = begun()
    put(state, "Pyke", "greyjoy", f=1)
    put(state, "Ironman's Bay", "stark", k=2, s=2)
    give(state, "ana", "stark")
    fought = fight(state, "stark", "Ironman's Bay", "Pyke", ["knight", "knight"], cards={"ana": "Eddard Stark"})
    assert fought.retreat is None and fought.kills["greyjoy"] == (1, 0, 0) and state.troops["Pyke"][0] == "stark"


def test_an_omitted_retreat_with_none_possible_is_fine_and_a_named_one_refused() -> None:
    state = begun()
    put(state, "Pyke", "greyjoy", f=1)
    put(state, "Ironman's Bay", "stark", k=2, s=2)
    give(state, "ana", "stark")
    resolving(state, "ana", "stark", "maester")
    refused(
        state,
        "nowhere",
        **move(
            "ana",
            "stark",
            "maester",
            "Ironman's Bay",
            "Pyke",
            ["knight", "knight"],
            cards={"ana": "Eddard Stark"},
            retreat="Ironman's Bay",
        ),
    )


def test_the_loser_kills_2_figures_and_the_winner_1() -> None:
    state = karhold((3, 0, 0))
    put(state, "Winterfell", "stark", f=2, k=1)
    fought = fight(state, "stark", "Winterfell", "Karhold", ["footman", "footman", "knight"], retreat="Castle Black")
    assert fought.kills == {"greyjoy": (2, 0, 0), "stark": (1, 0, 0)}
    assert state.troops["Karhold"] == ("stark", 1, 1, 0)


def test_swords_add_to_the_other_sides_kills_and_towers_take_from_their_own() -> None:
    state = karhold((4, 0, 0))
    put(state, "Winterfell", "stark", f=2, k=1)
    give(state, "ana", "stark")
    give(state, "bo", "greyjoy")
    cards = {"ana": "Eddard Stark", "bo": "Dagmar Cleftjaw"}  # stark: 2 swords; greyjoy: 1 sword, 1 tower
    fought = fight(
        state, "stark", "Winterfell", "Karhold", ["footman", "footman", "knight"], cards=cards, retreat="Castle Black"
    )
    assert fought.winner == "stark"
    assert fought.kills == {"greyjoy": (3, 0, 0), "stark": (2, 0, 0)}  # 2 + 2 - 1; 1 + 1


def test_kills_are_floored_at_0() -> None:
    state = karhold((3, 0, 0))
    give(state, "ana", "stark")
    fought = fight(
        state,
        "stark",
        "Winterfell",
        "Karhold",
        ["footman", "knight"],
        cards={"ana": "Ser Rodrick Cassel"},
        retreat="Castle Black",
    )
    assert fought.kills["stark"] == (0, 0, 0)


def test_figures_are_lost_in_order_footmen_knights_ships() -> None:
    assert kill((1, 1, 1), 2) == ((0, 0, 1), (1, 1, 0))
    assert kill((0, 2, 3), 3) == ((0, 0, 2), (0, 2, 1))


def test_the_winners_kills_come_from_its_figures_in_the_area() -> None:
    state = karhold((3, 0, 0))
    put(state, "Winterfell", "stark", f=1, k=2)
    fight(state, "stark", "Winterfell", "Karhold", ["knight", "knight"], retreat="Castle Black")
    assert state.troops["Karhold"] == ("stark", 0, 1, 0) and state.troops["Winterfell"] == ("stark", 1, 0, 0)


def test_a_granted_moves_choices_are_asked_as_then_options() -> None:
    state = karhold((3, 0, 0))
    put(state, "Castle Black", "stark", f=1)
    give(state, "bo", "greyjoy")
    after = [{"move": {"from": "Karhold", "to": "Castle Black", "units": ["footman"]}, "combat": {"cards": {}}}]
    with pytest.raises(ChoiceNeeded) as need:
        fight(
            state,
            "stark",
            "Winterfell",
            "Karhold",
            ["footman"],
            cards={"bo": "Asha Greyjoy"},
            retreat="Winterfell",
            after=after,
        )
    assert need.value.field == "then-winner"


def test_a_loser_killed_to_the_last_figure_is_told_none_left_to_retreat_not_nowhere_to_go() -> None:
    """Issue 35: a combat whose losers all die read "has nowhere to retreat" though retreats exist."""
    from cok.rulesets.no_true_king.preview import preview, preview_doc
    from cok.rulesets.no_true_king.words import combat_sentence

    state = karhold((1, 0, 0))  # one greyjoy footman in Karhold, Castle Black free beside it
    before = preview_doc(preview(state, "stark", "Winterfell", "Karhold", ["footman", "knight"], {}, "ana"))
    stark_wins = next(e for e in before["endings"] if e["winner"] == "stark")
    assert stark_wins["none_left"] and "Castle Black" in stark_wins["retreats"]
    fought = fight(state, "stark", "Winterfell", "Karhold", ["footman", "knight"])
    told = combat_sentence(fought)
    assert "none is left to retreat" in told and "nowhere" not in told
