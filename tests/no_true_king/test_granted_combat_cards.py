"""Issue 35 (third pass): the combat Asha Greyjoy's granted move fights (§4.4: "resolved at
once as in this section"), its cards played as the first combat's are: "each player plays
their own card from their own phone, in seat order from the active player; a card is
recorded only by its player (or an organiser)"."""

from __future__ import annotations

import html
import re
from pathlib import Path

from cok.rulesets.no_true_king.rules.loyalty import seal_of
from tests.no_true_king.pages.test_table import CARDS, SECRETS, Phones, game, phones

__all__ = ["game", "phones"]  # the fixtures, used by name

#: ana's Greyjoy marshal: its ships fight Lannister's in The Golden Sound with Asha Greyjoy,
#: and Asha's move takes Greywater Watch's footman into Moat Cailin, where bo's Stark stands.
ATTACK = {
    "agent": "greyjoy:marshal",
    "plan": "muster move",
    "route": "Ironman's Bay|The Golden Sound",
    "footmen": "0",
    "ships": "2",
    "card": "Asha Greyjoy",
    "then": "move",
    "then-route": "Greywater Watch|Moat Cailin",
    "then-footmen": "1",
}


def before_ashas_move(phones: Phones) -> None:
    """bo (first) draws a Stark card and marches Stark into Moat Cailin; ana draws the
    Greyjoy card she plays as Asha."""
    for name, symbol, full in (("ana", "crown", "Ana Stone"), ("bo", "torch", "Bo Reed")):
        seal = seal_of(name, CARDS[name], SECRETS[name])
        assert phones.post(name, "/play/join", symbol=symbol, seal=seal, name=full)[0] == 200
    assert phones.post("Ann", "/play/begin", seats="ana bo", first="bo")[0] == 200
    for name, spot in [
        ("bo", "stark:maester"),
        ("ana", "greyjoy:maester"),
        ("bo", "tyrell:lord"),
        ("ana", "lannister:lord"),
        ("bo", "baratheon:lord"),
        ("ana", "greyjoy:lord"),
    ]:
        assert phones.post(name, "/play/place", spot=spot)[0] == 200
    assert phones.post("bo", "/play/resolve", agent="stark:maester", plan="draw")[0] == 200
    assert phones.post("ana", "/play/resolve", agent="greyjoy:maester", plan="draw")[0] == 200
    status, page = phones.post(
        "bo", "/play/resolve", agent="stark:marshal", plan="muster move", route="Winterfell|Moat Cailin", footmen="1"
    )
    assert status == 200, page


def answered(phones: Phones, who: str, status: int, page: str) -> tuple[int, str]:
    """Each of the rules' questions answered with its first choice, until it is recorded."""
    while status == 409 and 'name="answer:' in page:
        main = page.split("<main", 1)[1]
        field, value = re.findall(r'name="answer:([^"]+)" value="([^"]*)"', main)[0]
        hidden = {
            k: html.unescape(v) for k, v in re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', main)
        }
        hidden.pop("csrf", None)
        status, page = phones.post(who, "/record", **hidden, **{f"answer:{field}": html.unescape(value)})
    return status, page


def test_the_defender_plays_their_card_in_ashas_combat_from_their_own_phone(phones: Phones) -> None:
    before_ashas_move(phones)
    # bo holds only a Stark card: nobody but ana plays in The Golden Sound, yet Asha's combat
    # in Moat Cailin is bo's to play in, so ana's phone opens the table with Asha
    status, page = phones.post("ana", "/play/resolve", **ATTACK)
    assert status == 200, page
    first = phones.events()[-1]
    assert first["type"] == "card" and first["card"] == "Asha Greyjoy" and first["to"] == "The Golden Sound"
    _, page = phones.get("ana", "/play/conspiracy")
    assert 'value="move" checked> Asha Greyjoy' in page, page
    status, page = phones.post("ana", "/play/resolve", **ATTACK)  # Asha's move fights: its own table
    assert status == 200 and "Bo Reed to play a card, or none, in the combat in Moat Cailin" in page, page
    opened = phones.events()[-1]
    assert opened["type"] == "card" and opened["house"] == "greyjoy" and opened["to"] == "Moat Cailin"
    before = phones.events()
    assert phones.post("ana", "/play/card", player="bo", card="")[0] in (409, 422)  # never bo's from ana's
    assert phones.events() == before
    _, page = phones.get("bo", "/play/conspiracy")
    assert "Asha Greyjoy&#39;s move: Greyjoy moves into Moat Cailin" in page, page
    cards = re.findall(r'name="card" value="([^"]+)"', page)
    assert cards, page
    assert phones.post("bo", "/play/card", card=cards[0])[0] == 200
    _, page = phones.get("ana", "/play/conspiracy")
    assert "and for Asha Greyjoy's move into Moat Cailin" in page, page
    assert 'value="move" checked> Asha Greyjoy' in page and '<details class="ntk-more" open>' in page
    _, seen = phones.post("ana", "/play/combat", **ATTACK)  # the first combat's cards, not Asha's table's
    assert "Cards played: Ana Stone: Asha Greyjoy." in seen and "Eddard" not in seen.split("Cards played")[1][:80], seen
    without = {k: v for k, v in ATTACK.items() if not k.startswith("then")}
    status, page = phones.post("ana", "/play/resolve", **without)  # Asha's move left out: refused
    assert (
        status == 422
        and "Asha Greyjoy's move into Moat Cailin" in html.unescape(page)
        and phones.events()
        == [
            *before,
            phones.events()[-1],
        ]
    )
    status, page = phones.post("ana", "/play/resolve", **ATTACK)
    status, page = answered(phones, "ana", status, page)
    assert status == 200 and "<h1>Recorded</h1>" in page, page
    resolved = phones.events()[-1]
    assert resolved["type"] == "resolve" and resolved["by"] == "ana"
    assert resolved["combat"]["cards"] == {"ana": "Asha Greyjoy"}
    (after,) = resolved["combat"]["after"]
    assert after["move"]["to"] == "Moat Cailin" and after["combat"]["cards"]["bo"] == cards[0]
    bo_card = next(e for e in phones.events() if e["type"] == "card" and e["player"] == "bo")
    assert bo_card["by"] == "bo" and bo_card["card"] == cards[0]


def test_melisandres_discard_has_its_fields_on_the_lords_page(phones: Phones) -> None:
    """Issue 35: "Melisandre's discard has no fields": a Baratheon lord that may draw her offers
    the opponent who discards and the house of the card, by name."""
    from tests.no_true_king.pages.test_table import placed

    placed(phones)
    for who, agent in (("ana", "greyjoy:maester"), ("bo", "stark:maester")):
        assert phones.post(who, "/play/resolve", agent=agent, plan="draw")[0] == 200
    marshals = [
        ("ana", "greyjoy:marshal", {"add:Pyke": "1", "route": "Greywater Watch|Moat Cailin"}),
        ("bo", "stark:marshal", {"add:Winterfell": "1", "route": "Winterfell|Castle Black"}),
    ]
    for who, agent, fields in marshals:
        assert phones.post(who, "/play/resolve", agent=agent, plan="muster move", footmen="1", **fields)[0] == 200
    _, page = phones.get("ana", "/play/conspiracy?agent=baratheon:lord")
    assert "Melisandre (Baratheon) — a card you draw first" in page, page
    discards = page.split('name="discard-player"')[1].split("</select>")[0]
    assert '<option value="bo">' in discards and '<option value="ana">' not in discards
    assert 'name="discard-house"' in page and "Melisandre: the conspiracy who discards" in page


def test_a_players_resolve_giving_ashas_combat_before_its_cards_is_refused_saying_why(
    phones: Phones, game: Path
) -> None:
    """The API took the active player's resolve with Asha's move into bo's troops, playing
    "none" for bo: a card is recorded only by its player (403, in the game's words)."""
    from cok.links import invites

    before_ashas_move(phones)
    greyjoy = {"move": {"from": "Ironman's Bay", "to": "The Golden Sound", "units": ["ship", "ship"]}}
    asha = {"move": {"from": "Greywater Watch", "to": "Moat Cailin", "units": ["footman"]}, "combat": {"cards": {}}}
    resolve = {
        "type": "resolve",
        "player": "ana",
        "house": "greyjoy",
        "space": "marshal",
        "actions": [{"muster": {}}, greyjoy],
        "combat": {"cards": {"ana": "Asha Greyjoy"}, "after": [asha]},
    }
    token = invites.invite(game, "ana")
    before = phones.events()
    answer = phones.clients["ana"].post("/api/events", json=resolve, headers={"authorization": f"Bearer {token}"})
    assert answer.status_code == 403 and phones.events() == before, answer.text
    assert "Asha Greyjoy's move into Moat Cailin fights" in answer.text and "`card`" in answer.text
