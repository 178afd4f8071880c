"""Cards played from each player's own phone before the combat is recorded (§4.4 Cards:
"starting with the active player and moving clockwise, each player may choose to play a House
Card"; docs/no-true-king.md, the `card` event): one test per sentence."""

from __future__ import annotations

from pathlib import Path
from typing import Any

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


def test_the_cards_on_the_table_come_back_the_same_from_the_cache(tmp_path: Path, monkeypatch: Any) -> None:
    """The state's new fields (`table`, `fight_at`) keep their shapes through the replay cache."""
    from cok.core.campaign import open_campaign
    from cok.service import Draft, record
    from tests.conftest import Cok

    monkeypatch.setenv("COK_CACHE_DIR", str(tmp_path / "cache"))
    assert Cok(tmp_path)("init", "game", "--ruleset", "no-true-king").exit_code == 0
    folder = tmp_path / "game"
    settings = folder / "campaign.yaml"
    settings.write_text(settings.read_text(encoding="utf-8").replace("sealed", "open"), encoding="utf-8")
    cards = {"ana": ["baratheon", "stark", "lannister", "greyjoy", "tyrell"]}
    cards["bo"] = list(reversed(cards["ana"]))
    drafts = [
        Draft("conspiracy", {"player": p, "symbol": s, "loyalty": cards[p]})
        for p, s in (("ana", "crown"), ("bo", "torch"))
    ]
    drafts.append(Draft("begin", {"seats": ["ana", "bo"], "first": "ana"}))
    spots = [("greyjoy", "maester"), ("stark", "maester"), ("lannister", "lord"), ("tyrell", "lord")]
    spots += [("baratheon", "lord"), ("greyjoy", "lord")]
    for i, (house, space) in enumerate(spots):
        who = ("ana", "bo")[i % 2]
        drafts.append(Draft("place", {"player": who, "house": house, "space": space}))
    move = {"move": {"from": "Greywater Watch", "to": "Moat Cailin", "units": ["footman"]}}
    drafts.append(Draft("resolve", {"player": "ana", "house": "greyjoy", "space": "maester", "actions": [move]}))
    drafts.append(Draft("resolve", {"player": "bo", "house": "stark", "space": "maester", "actions": [{"draw": True}]}))
    drafts.append(Draft("card", {"player": "ana", "house": "greyjoy", "to": "Winterfell"}))
    for draft in drafts:
        record(folder, [draft], by="Ann")
    cold = open_campaign(folder, use_cache=False).state
    assert open_campaign(folder).state.table == cold.table  # fills the cache
    warm = open_campaign(folder).state
    assert cold.table == warm.table == [("ana", None)] and cold.fight_at == warm.fight_at == ("greyjoy", "Winterfell")


def moat_cailin() -> State:
    """ana (active) moves Greyjoy from Greywater Watch into Moat Cailin, held by one Stark
    footman, playing Asha Greyjoy; Asha's move takes the ships of Ironman's Bay into The Golden
    Sound, held by a Lannister ship. bo holds a Lannister card."""
    state = begun()
    resolving(state, "ana", "greyjoy", "maester")
    give(state, "ana", "greyjoy")
    give(state, "bo", "lannister")
    put(state, "Greywater Watch", "greyjoy", 3)
    put(state, "Moat Cailin", "stark", 1)
    put(state, "The Golden Sound", "lannister", s=1)
    rec(state, type="card", player="ana", card="Asha Greyjoy", house="greyjoy", to="Moat Cailin")
    return state


def test_ashas_combat_has_its_own_table_opened_by_the_active_player_once_the_first_is_played() -> None:
    """§4.4: Asha's move "may enter another house's troops, and that combat is resolved at once
    as in this section": its cards too, from the active player clockwise."""
    state = moat_cailin()
    refused(state, "the active player, opens the table of Asha", type="card", player="bo", house="greyjoy",
            to="The Golden Sound")  # fmt: skip
    refused(state, "grants a move for greyjoy", type="card", player="ana", house="stark", to="The Golden Sound")
    rec(state, type="card", player="ana", house="greyjoy", to="The Golden Sound")
    assert state.won_at == ("greyjoy", "Moat Cailin") and state.fight_at == ("greyjoy", "The Golden Sound")
    refused(state, "already been played", type="card", player="bo", card="Asha Greyjoy")
    rec(state, type="card", player="bo", card="Tywin Lannister")
    assert state.table == [("ana", None), ("bo", "Tywin Lannister")]
    first = move("ana", "greyjoy", "maester", "Greywater Watch", "Moat Cailin", ["footman"] * 3)
    refused(state, "Asha Greyjoy's move into The Golden Sound", **first, combat={"cards": {"ana": "Asha Greyjoy"}})
    granted = {"move": {"from": "Ironman's Bay", "to": "The Golden Sound", "units": ["ship", "ship"]}}
    refused(state, "the ones played from the phones", **first, combat={"cards": {"ana": "Asha Greyjoy"},
            "after": [{**granted, "combat": {"cards": {}}}]})  # fmt: skip
    after = [{**granted, "combat": {"cards": {"bo": "Tywin Lannister"}}}]
    done = rec(state, **first, combat={"cards": {"ana": "Asha Greyjoy"}, "after": after})
    second = done.result.done[0][1].after[0][1]
    assert second.sides.area == "The Golden Sound" and second.sides.cards == (("bo", "Tywin Lannister"),)
    assert state.table == [] and state.won_table == [] and state.fight_at is None and state.won_at is None


def test_a_card_played_in_the_first_combat_is_spent_for_ashas() -> None:
    """bo's only Greyjoy card, played in the first combat, is not bo's to play in Asha's; bo is
    asked there only for the Lannister card still held."""
    state = begun()
    resolving(state, "ana", "greyjoy", "maester")
    give(state, "ana", "greyjoy")
    give(state, "bo", "greyjoy")
    put(state, "Greywater Watch", "greyjoy", 3)
    put(state, "Moat Cailin", "stark", 1)
    put(state, "The Golden Sound", "lannister", s=1)
    rec(state, type="card", player="ana", card="Asha Greyjoy", house="greyjoy", to="Moat Cailin")
    rec(state, type="card", player="bo", card="Balon Greyjoy")
    rec(state, type="card", player="ana", house="greyjoy", to="The Golden Sound")
    refused(state, "every card is played", type="card", player="bo", card="Victarion Greyjoy")
