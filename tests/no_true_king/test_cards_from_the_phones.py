"""Cards played from each player's own phone before the combat is recorded (§4.4 Cards:
"starting with the active player and moving clockwise, each player may choose to play a House
Card"; docs/no-true-king.md, the `card` event): one test per sentence."""

from __future__ import annotations

from cok.rulesets.no_true_king.rules.state import State
from tests.no_true_king.helpers import begun, give, move, put, rec, refused, resolving


def karhold() -> State:
    """ana (active) moves Stark from Winterfell into Karhold, held by one Greyjoy footman; bo
    holds a Greyjoy card, cy a Tyrell card only."""
    state = begun()
    put(state, "Karhold", "greyjoy", 1)
    resolving(state, "ana", "stark", "maester")
    give(state, "bo", "greyjoy")
    give(state, "cy", "tyrell")
    return state


def test_the_active_player_plays_first_and_names_the_combat() -> None:
    state = karhold()
    refused(state, "ana, the active player, plays first", type="card", player="bo", card="Balon Greyjoy")
    refused(state, "names the combat", type="card", player="ana")
    refused(state, "no other house's troops", type="card", player="ana", house="stark", to="Castle Black")
    rec(state, type="card", player="ana", house="stark", to="Karhold")
    assert state.fight_at == ("stark", "Karhold") and state.table == [("ana", None)]


def test_then_each_player_who_could_play_plays_in_turn_and_one_holding_none_is_not_asked() -> None:
    state = karhold()
    rec(state, type="card", player="ana", house="stark", to="Karhold")
    refused(state, "a tyrell card", type="card", player="bo", card="Mace Tyrell")
    rec(state, type="card", player="bo", card="Balon Greyjoy")
    refused(state, "every card is played", type="card", player="cy")  # cy holds no Stark or Greyjoy card
    assert state.table == [("ana", None), ("bo", "Balon Greyjoy")]


def test_the_resolve_waits_for_the_cards_then_fights_there_with_them() -> None:
    state = karhold()
    rec(state, type="card", player="ana", house="stark", to="Karhold")
    fight = move("ana", "stark", "maester", "Winterfell", "Karhold", ["footman", "knight"])
    refused(state, "bo to play a card", **fight)
    rec(state, type="card", player="bo", card="Balon Greyjoy")
    refused(state, "played for stark's combat in Karhold", **move("ana", "stark", "maester", "Winterfell",
            "Castle Black", ["footman"]))  # fmt: skip
    refused(state, "the ones played from the phones", **fight, combat={"cards": {"bo": None}})
    done = rec(state, **fight, combat={"cards": {"bo": "Balon Greyjoy", "ana": None}, "winner": "stark"})
    assert done.result.done[0][1].sides.cards == (("bo", "Balon Greyjoy"),)
    assert state.table == [] and state.fight_at is None and "Balon Greyjoy" in state.played
