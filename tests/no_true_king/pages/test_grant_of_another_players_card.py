"""§4.4: "Asha Greyjoy, Jaime Lannister: if their house wins, the player who played them takes
a move (Asha) or muster (Jaime) for that house (`after`)", when that player is not the active
one: bo resolves, ana played the card from her own phone. The grant rides in bo's one resolve
event (the log has no other place for it), so bo's form asks for ana's choice by her name, and
ana's page tells her the choice is hers; the resolve is the same as `cok ntk resolve … --then-…`."""

from __future__ import annotations

import html
import re
import shutil
from pathlib import Path
from typing import Any

import yaml

from cok.rulesets.no_true_king.rules.loyalty import seal_of
from cok.service import Draft, Who, may_record
from tests.conftest import Cok
from tests.no_true_king.pages.test_table import CARDS, SECRETS, Phones, game, phones
from tests.no_true_king.test_granted_combat_cards import answered

__all__ = ["game", "phones"]  # the fixtures, used by name

#: bo's Greyjoy lord: its ships and footman into Lannister's ships in The Golden Sound, then a draw.
GREYJOY_LORD = {
    "agent": "greyjoy:lord",
    "plan": "move draw",
    "route": "Ironman's Bay|The Golden Sound",
    "footmen": "1",
    "ships": "2",
}
#: ana's choice for Asha's move: Greywater Watch's footman into Moat Cailin, held by Stark.
ASHAS_MOVE = {"then": "move", "then-route": "Greywater Watch|Moat Cailin", "then-footmen": "1"}


def played(phones: Phones, spots: list[tuple[str, str]], resolves: list[tuple[str, dict[str, str]]]) -> None:
    """ana and bo join (sealed), bo is first; the agents placed at `spots`, then ana's
    `resolves` (agent, form fields) from her phone, each with one footman mustered."""
    for name, symbol, full in (("ana", "crown", "Ana Stone"), ("bo", "torch", "Bo Reed")):
        seal = seal_of(name, CARDS[name], SECRETS[name])
        assert phones.post(name, "/play/join", symbol=symbol, seal=seal, name=full)[0] == 200
    assert phones.post("Ann", "/play/begin", seats="ana bo", first="bo")[0] == 200
    for name, spot in spots:
        assert phones.post(name, "/play/place", spot=spot)[0] == 200
    for agent, fields in resolves:
        status, page = phones.post("ana", "/play/resolve", agent=agent, footmen="1", **fields)
        assert status == 200, page


def seated(phones: Phones) -> None:
    """bo first; ana draws a Stark and a Greyjoy card and marches Stark into Moat Cailin;
    bo's Greyjoy lord is next."""
    played(
        phones,
        [
            ("bo", "greyjoy:lord"),
            ("ana", "stark:maester"),
            ("bo", "tyrell:lord"),
            ("ana", "greyjoy:maester"),
            ("bo", "baratheon:lord"),
            ("ana", "lannister:lord"),
        ],
        [
            ("stark:maester", {"plan": "draw"}),
            ("greyjoy:maester", {"plan": "draw"}),
            ("stark:marshal", {"plan": "muster move", "add:Winterfell": "1", "route": "Winterfell|Moat Cailin"}),
            ("greyjoy:marshal", {"plan": "muster move", "add:Pyke": "1", "route": "Pyke|Ironman's Bay"}),
        ],
    )


def ana_plays_asha(phones: Phones) -> None:
    """bo's move opens the table; ana plays Asha Greyjoy from her own phone."""
    status, page = phones.post("bo", "/play/resolve", **GREYJOY_LORD)
    assert status == 200, page
    assert phones.events()[-1]["type"] == "card"
    assert phones.post("ana", "/play/card", card="Asha Greyjoy")[0] == 200


def offered(page: str, fields: dict[str, str]) -> None:
    """Each field a test sends is one the page's form has (its select holding the value sent)."""
    form = html.unescape(page.split('action="/play/resolve"', 1)[1].split("</form>", 1)[0])
    for name, value in fields.items():
        assert f'name="{name}"' in form, name
        if name.endswith("route"):
            assert f'value="{value}"' in form, value


def resolve_event(event: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in event.items() if k not in ("id", "at", "by")}


def test_the_active_players_form_asks_for_ashas_move_as_her_players_choice(phones: Phones) -> None:
    seated(phones)
    ana_plays_asha(phones)
    _, page = phones.get("bo", "/play/conspiracy")
    main = html.unescape(page.split("<main", 1)[1])
    assert "Ana Stone moves for Greyjoy (Asha Greyjoy)" in main, main
    assert "Ana Stone, who played Asha Greyjoy, chooses a move for Greyjoy" in main
    assert 'name="then-route"' in main and 'value="Greywater Watch|Moat Cailin"' in main
    _, theirs = phones.get("ana", "/play/conspiracy")
    said = html.unescape(theirs)
    assert "If Greyjoy wins in The Golden Sound, your Asha Greyjoy grants you a move for Greyjoy" in said, said
    assert "Tell Bo Reed, whose resolve records it" in said


def test_the_grant_from_the_phones_is_the_resolve_cok_ntk_resolve_records(phones: Phones, game: Path) -> None:
    """The move into Moat Cailin fights: its table opens (ana holds a Stark card), then bo's
    resolve carries ana's move in `after`, with that combat, as the command line's twin does."""
    seated(phones)
    ana_plays_asha(phones)
    _, page = phones.get("bo", "/play/conspiracy")
    offered(page, {k: v for k, v in {**GREYJOY_LORD, **ASHAS_MOVE}.items() if k != "plan"})
    assert 'value="move" checked> Ana Stone moves for Greyjoy (Asha Greyjoy)' in page, page
    status, page = phones.post("bo", "/play/resolve", **GREYJOY_LORD, **ASHAS_MOVE)
    assert status == 200, page
    opened = phones.events()[-1]
    assert opened["type"] == "card" and opened["house"] == "greyjoy" and opened["to"] == "Moat Cailin"
    _, page = phones.get("ana", "/play/conspiracy")
    assert "Asha Greyjoy&#39;s move: Greyjoy moves into Moat Cailin" in page, page
    stark = re.findall(r'name="card" value="([^"]+)"', page)
    assert stark, page
    assert phones.post("ana", "/play/card", card=stark[0])[0] == 200
    twin = game.parent / "twin"
    shutil.copytree(game, twin)
    status, page = phones.post("bo", "/play/resolve", **GREYJOY_LORD, **ASHAS_MOVE)
    status, page = answered(phones, "bo", status, page)
    assert status == 200 and "<h1>Recorded</h1>" in page, page
    resolved = phones.events()[-1]
    assert resolved["type"] == "resolve" and resolved["by"] == "bo"
    assert resolved["combat"]["cards"]["ana"] == "Asha Greyjoy"
    target = {"target": resolved["id"]}  # her choice, in bo's event: hers to confirm or dispute
    assert may_record(game, Draft("dispute", {**target, "reason": "not my move"}), Who("ana"))
    assert not may_record(game, Draft("dispute", {**target, "reason": "mine"}), Who("bo"))
    (after,) = resolved["combat"]["after"]
    assert after["move"]["to"] == "Moat Cailin" and after["combat"]["cards"]["ana"] == stark[0]
    answers = [f"--then-{k}={v}" for k, v in after["combat"].items() if k in ("winner", "retreat")]
    answers += [f"--{k}={v}" for k, v in resolved["combat"].items() if k in ("winner", "retreat")]
    ran = Cok(twin)(
        "ntk",
        "resolve",
        "bo",
        "greyjoy",
        "lord",
        "--move",
        "Ironman's Bay",
        "The Golden Sound",
        "footman",
        "ship",
        "ship",
        "--draw",
        "--then-move",
        "Greywater Watch",
        "Moat Cailin",
        "footman",
        *answers,
    )
    assert ran.exit_code == 0, ran.stderr
    typed = (yaml.safe_load((twin / "events.yaml").read_text(encoding="utf-8")) or [])[-1]
    assert resolve_event(typed) == resolve_event(resolved)


def seated_with_jaime(phones: Phones) -> None:
    """bo first; ana draws a Lannister and a Stark card; bo's Greyjoy lord is next, and its
    ships meet Lannister's in The Golden Sound."""
    played(
        phones,
        [
            ("bo", "greyjoy:lord"),
            ("ana", "lannister:maester"),
            ("bo", "tyrell:lord"),
            ("ana", "stark:maester"),
            ("bo", "baratheon:lord"),
            ("ana", "lannister:lord"),
        ],
        [
            ("lannister:maester", {"plan": "draw"}),
            ("stark:maester", {"plan": "draw"}),
            ("lannister:marshal", {"plan": "muster move", "add:Lannisport": "1", "route": "Stoney Sept|Harrenhal"}),
            ("stark:marshal", {"plan": "muster move", "add:Winterfell": "1", "route": "Winterfell|Moat Cailin"}),
        ],
    )


def test_jaimes_muster_is_asked_on_the_active_players_form_and_recorded_as_the_terminals(
    phones: Phones, game: Path
) -> None:
    seated_with_jaime(phones)
    ships = {**GREYJOY_LORD, "footmen": "0"}
    assert phones.post("bo", "/play/resolve", **ships)[0] == 200
    assert phones.post("ana", "/play/card", card="Ser Jaime Lannister")[0] == 200
    _, theirs = phones.get("ana", "/play/conspiracy")
    assert "your Ser Jaime Lannister grants you a muster for Lannister" in html.unescape(theirs), theirs
    _, page = phones.get("bo", "/play/conspiracy")
    assert 'value="muster" checked> Ana Stone musters for Lannister (Ser Jaime Lannister)' in page, page
    jaimes = {"then": "muster", "then-add:Lannisport": "1"}
    offered(page, {k: v for k, v in {**ships, **jaimes}.items() if k != "plan"})
    twin = game.parent / "twin"
    shutil.copytree(game, twin)
    status, page = phones.post("bo", "/play/resolve", **ships, **jaimes)
    status, page = answered(phones, "bo", status, page)
    assert status == 200 and "<h1>Recorded</h1>" in page, page
    resolved = phones.events()[-1]
    assert resolved["combat"]["after"] == [{"muster": {"Lannisport": ["footman"]}}], resolved
    answers = [f"--{k}={v}" for k, v in resolved["combat"].items() if k in ("winner", "retreat")]
    where = ["--move", "Ironman's Bay", "The Golden Sound", "ship", "ship", "--draw"]
    ran = Cok(twin)("ntk", "resolve", "bo", "greyjoy", "lord", *where, "--then-muster", "Lannisport=footman", *answers)
    assert ran.exit_code == 0, ran.stderr
    typed = (yaml.safe_load((twin / "events.yaml").read_text(encoding="utf-8")) or [])[-1]
    assert resolve_event(typed) == resolve_event(resolved)


def test_ashas_own_table_offers_no_card_of_a_house_whose_only_card_is_on_the_first_table(phones: Phones) -> None:
    """ana's one Greyjoy card is Asha, on the first table: in Asha's combat she may play her
    Stark card or none, and no Greyjoy card (the rules refuse one she does not hold)."""
    seated(phones)
    ana_plays_asha(phones)
    assert phones.post("bo", "/play/resolve", **GREYJOY_LORD, **ASHAS_MOVE)[0] == 200
    _, page = phones.get("ana", "/play/conspiracy")
    offered = html.unescape(page.split('action="/play/card"', 1)[1].split("</form>", 1)[0])
    assert "(Stark:" in offered and "(Greyjoy:" not in offered, offered
