"""The resolve form's fields read back into the log's shapes (issue 35: a muster of several
areas and pieces; Asha's and Jaime's granted actions, Cersei's removal and Melisandre's
discard had no fields)."""

from __future__ import annotations

from cok.rulesets.no_true_king.offers import asha_fights
from cok.rulesets.no_true_king.table.resolve_form import actions, granted, muster_spec


def test_a_muster_spends_every_point_over_several_areas_pieces_and_promotions() -> None:
    form = {
        "add:Lannisport": "2",
        "ships:Pyke": "1",
        "sea:Pyke": "Ironman's Bay",
        "promote:Lannisport": "1",
        "promote:Riverrun": "1",
        "add:Seagard": "0",
    }
    assert muster_spec(form) == {
        "Lannisport": ["footman", "footman"],
        "Pyke": [{"ship": "Ironman's Bay"}],
        "promote": ["Lannisport", "Riverrun"],
    }


def test_the_plan_orders_the_actions_as_the_turn_is_played() -> None:
    form = {"plan": "move muster", "route": "Pyke|Ironman's Bay", "knights": "1", "add:Pyke": "1"}
    assert actions(form) == [
        {"move": {"from": "Pyke", "to": "Ironman's Bay", "units": ["knight"]}},
        {"muster": {"Pyke": ["footman"]}},
    ]


def test_asha_moves_jaime_musters_cersei_removes_and_melisandre_discards() -> None:
    asha = granted({"then": "move", "then-route": "Pyke|Seagard", "then-knights": "1"})
    assert asha == {"after": [{"move": {"from": "Pyke", "to": "Seagard", "units": ["knight"]}}]}
    jaime = granted({"then": "muster", "then-add:Lannisport": "1", "then-ships:Lannisport": "1",
                     "then-sea:Lannisport": "The Golden Sound"})  # fmt: skip
    assert jaime == {"after": [{"muster": {"Lannisport": ["footman", {"ship": "The Golden Sound"}]}}]}
    others = granted({"remove": "lannister:lord", "discard-player": "bo", "discard-house": "greyjoy"})
    assert others == {
        "remove": {"house": "lannister", "space": "lord"},
        "discard": {"player": "bo", "house": "greyjoy"},
    }
    assert granted({"then": "", "discard-player": "bo"}) == {}  # nothing chosen: nothing taken


def test_ashas_move_that_fights_is_recorded_from_the_phone_with_its_own_combat() -> None:
    """Issue 35 (second pass): Asha's move into troops had no combat from the phone, so the rules
    refused it; the form's own card for that combat (`then-card`) goes with it."""
    from cok.rulesets.no_true_king.rules.combat import ASHA
    from tests.no_true_king.helpers import begun, give, put, rec, resolving

    state = begun()
    resolving(state, "ana", "greyjoy", "maester")
    give(state, "ana", "greyjoy", 2)
    put(state, "Greywater Watch", "greyjoy", f=3)
    put(state, "Moat Cailin", "stark", f=1)
    put(state, "The Golden Sound", "lannister", s=1)
    form = {
        "plan": "move",
        "route": "Greywater Watch|Moat Cailin",
        "footmen": "3",
        "then": "move",
        "then-route": "Ironman's Bay|The Golden Sound",
        "then-ships": "2",
        "then-card": "Balon Greyjoy",
    }
    effects = granted(form, "ana", asha_fights(state, "The Golden Sound"))
    assert effects["after"][0]["combat"] == {"cards": {"ana": "Balon Greyjoy"}}
    fight = {"cards": {"ana": ASHA}, **effects}
    done = rec(
        state, type="resolve", player="ana", house="greyjoy", space="maester", actions=actions(form), combat=fight
    )
    assert state.troops["The Golden Sound"][0] == "greyjoy" and done is not None


def test_a_marshal_that_musters_then_moves_is_offered_a_route_from_the_area_it_musters_in() -> None:
    """Issue 49: on Bo's phone, Greyjoy's marshal mustering a footman in Greywater Watch (held
    by Greyjoy's flag, no troops) could not choose Greywater Watch → Seagard, which the rules
    (and `cok ntk resolve … --muster "Greywater Watch=footman" --move "Greywater Watch" Seagard`)
    accept: every route the rules accept after the muster is offered, marked as such."""
    from cok.rulesets.no_true_king.offers import offer
    from tests.no_true_king.helpers import begun, put, rec, resolving

    state = begun()
    resolving(state, "bo", "greyjoy", "marshal")
    put(state, "Greywater Watch", "greyjoy")
    state.flags["Greywater Watch"] = "greyjoy"
    found = offer(state, "greyjoy", "marshal")
    assert "Greywater Watch" in [m.name for m in found.musters]
    offered = {(r.origin, r.to): r for r in found.routes}
    assert ("Greywater Watch", "Seagard") in offered and offered["Greywater Watch", "Seagard"].mustered
    form = {"plan": "muster move", "add:Greywater Watch": "1", "route": "Greywater Watch|Seagard", "footmen": "1"}
    done = rec(state, type="resolve", player="bo", house="greyjoy", space="marshal", actions=actions(form))
    assert done is not None and state.troops["Seagard"][:2] == ("greyjoy", 1)
