"""No True King at the table (`cok serve`): every recording page through Starlette's test
client, who may record what (a conspiracy acts only as itself), and the seal the server gets
(never the card or the secret before `unseal`)."""

from __future__ import annotations

import re
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from cok.links import invites
from cok.rulesets.no_true_king.rules.loyalty import seal_of
from cok.serve.app import create_app
from cok.service import Draft, Who, may_record
from tests.conftest import Cok

CARDS = {
    "ana": ["baratheon", "stark", "lannister", "greyjoy", "tyrell"],
    "bo": ["stark", "baratheon", "tyrell", "greyjoy", "lannister"],
}
SECRETS = {"ana": "ana-secret-made-in-her-browser-0001", "bo": "bo-secret-made-in-his-browser-00002"}


@pytest.fixture
def game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("COK_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("COK_CACHE_DIR", str(tmp_path / "cache"))
    assert Cok(tmp_path)("init", "game", "--ruleset", "no-true-king").exit_code == 0
    return tmp_path / "game"


class Phones:
    """One test client per person (each its own cookie jar), signed in from their link."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.app = create_app(folder)
        self.clients: dict[str, TestClient] = {}
        self.csrf: dict[str, str] = {}

    def sign_in(self, name: str, organiser: bool = False) -> None:
        token = invites.invite(self.folder, name, organiser=organiser)
        client = TestClient(self.app)
        client.get(f"/join/{token}")
        page = client.get("/play/conspiracy").text
        found = re.search(r'name="csrf" value="([^"]+)"', page)
        assert found, page
        self.clients[name], self.csrf[name] = client, found[1]

    def get(self, name: str, path: str) -> tuple[int, str]:
        answer = self.clients[name].get(path)
        return answer.status_code, answer.text

    def post(self, who: str, path: str, **fields: str) -> tuple[int, str]:
        answer = self.clients[who].post(path, data={"csrf": self.csrf[who], **fields})
        return answer.status_code, answer.text

    def events(self) -> list[dict[str, object]]:
        return yaml.safe_load((self.folder / "events.yaml").read_text(encoding="utf-8")) or []


@pytest.fixture
def phones(game: Path) -> Iterator[Phones]:
    made = Phones(game)
    for name in ("ana", "bo"):
        made.sign_in(name)
    made.sign_in("Ann", organiser=True)
    yield made


def joined(phones: Phones) -> None:
    for name, symbol in (("ana", "crown"), ("bo", "torch")):
        seal = seal_of(name, CARDS[name], SECRETS[name])  # what the page's script makes
        status, page = phones.post(name, "/play/join", symbol=symbol, seal=seal)
        assert status == 200, page


def begun(phones: Phones) -> None:
    joined(phones)
    status, page = phones.post("Ann", "/play/begin", seats="ana bo", first="ana")
    assert status == 200, page


def placed(phones: Phones) -> None:
    """ana greyjoy maester, bo stark maester, then lords: the resolution phase."""
    begun(phones)
    for name, spot in [
        ("ana", "greyjoy:maester"),
        ("bo", "stark:maester"),
        ("ana", "lannister:lord"),
        ("bo", "tyrell:lord"),
        ("ana", "baratheon:lord"),
        ("bo", "greyjoy:lord"),
    ]:
        status, page = phones.post(name, "/play/place", spot=spot)
        assert status == 200, page


def test_a_conspiracy_joins_from_its_own_page_and_the_log_holds_only_its_seal(phones: Phones) -> None:
    status, page = phones.get("ana", "/play/join")
    assert status == 200 and "data-ntk-seal" in page and "/play/seal.js" in page
    joined(phones)
    ana = phones.events()[0]
    assert ana["type"] == "conspiracy" and ana["player"] == "ana" and ana["by"] == "ana"
    assert ana["seal"] == seal_of("ana", CARDS["ana"], SECRETS["ana"])
    assert "loyalty" not in ana and "secret" not in ana


def test_a_conspiracy_acts_only_as_itself(phones: Phones, game: Path) -> None:
    begun(phones)
    place = {"player": "ana", "house": "stark", "space": "maester"}
    assert may_record(game, Draft("place", place), Who("ana"))
    assert not may_record(game, Draft("place", place), Who("bo"))
    assert not may_record(game, Draft("conspiracy", {"player": "cy", "symbol": "helm"}), Who("bo"))
    assert may_record(game, Draft("conspiracy", {"player": "cy", "symbol": "helm"}), Who("cy"))
    before = phones.events()
    status, _ = phones.post("bo", "/play/place", player="ana", spot="stark:maester")  # bo's phone names ana
    assert status == 422  # recorded as bo, whose turn it is not: refused, nothing written
    assert phones.events() == before


def test_only_an_organiser_seats_the_table(phones: Phones) -> None:
    joined(phones)
    assert phones.get("ana", "/play/begin")[0] == 403
    assert phones.post("ana", "/play/begin", seats="ana bo", first="ana")[0] == 403
    assert phones.post("Ann", "/play/begin", seats="ana bo", first="bo")[0] == 200
    assert phones.events()[-1] == {**phones.events()[-1], "type": "begin", "seats": ["ana", "bo"], "first": "bo"}


def test_a_players_page_offers_the_free_spaces_in_their_turn_only(phones: Phones) -> None:
    begun(phones)
    _, ana = phones.get("ana", "/play/conspiracy")
    _, bo = phones.get("bo", "/play/conspiracy")
    assert 'value="stark:maester"' in ana and "Place the agent" in ana
    assert "Place the agent" not in bo and "Not your turn" in bo
    assert phones.post("ana", "/play/place", spot="stark:maester")[0] == 200
    _, bo = phones.get("bo", "/play/conspiracy")
    assert 'value="stark:maester"' not in bo and 'value="tyrell:maester"' in bo


def test_the_agents_that_may_resolve_now_are_the_lowest_spaces_maester_first(phones: Phones) -> None:
    placed(phones)
    _, ana = phones.get("ana", "/play/conspiracy")
    assert 'name="agent" value="greyjoy:maester"' in ana
    assert 'name="agent" value="lannister:lord"' not in ana


def test_a_move_into_troops_shows_the_combat_as_cok_ntk_combat_does(phones: Phones) -> None:
    placed(phones)
    status, page = phones.post(
        "ana", "/play/resolve", agent="greyjoy:maester", move="on", **{"from": "Greywater Watch"},
        to="Moat Cailin", footmen="1",
    )  # fmt: skip
    assert status == 200, page
    query = {"agent": "stark:maester", "from": "Winterfell", "to": "Moat Cailin", "footmen": "1", "knights": "1"}
    status, page = phones.post("bo", "/play/combat", **query)
    assert status == 200
    text = re.sub(r"<[^>]+>", "", page)
    assert "Stark attacks with power 3" in text and "Greyjoy defends with power 3" in text
    assert "A tie as it stands" in text and "Greyjoy loses every figure that fought: none is left" in text


def test_a_tied_combat_asks_its_winner_and_writes_nothing_until_answered(phones: Phones) -> None:
    placed(phones)
    phones.post("ana", "/play/resolve", agent="greyjoy:maester", move="on", to="Moat Cailin", footmen="1",
                **{"from": "Greywater Watch"})  # fmt: skip
    before = phones.events()
    status, page = phones.post(
        "bo", "/play/resolve", agent="stark:maester", move="on", **{"from": "Winterfell"},
        to="Moat Cailin", footmen="1", knights="1",
    )  # fmt: skip
    assert status == 409 and 'name="answer:winner"' in page
    assert phones.events() == before


def test_a_muster_and_a_draw_from_the_page_are_the_commands_events(phones: Phones) -> None:
    placed(phones)
    status, page = phones.post("ana", "/play/resolve", agent="greyjoy:maester", draw="on")
    assert status == 200, page
    resolved = phones.events()[-1]
    assert resolved["type"] == "resolve" and resolved["actions"] == [{"draw": True}]


def test_no_page_or_refusal_shows_a_secret(phones: Phones, game: Path) -> None:
    joined(phones)
    for path in ("/play/conspiracy", "/play/join", "/play/unseal", "/play/exchange", "/api/standings"):
        for name in ("ana", "bo", "Ann"):
            _, page = phones.get(name, path)
            assert not any(secret in page for secret in SECRETS.values()), (name, path)
    status, page = phones.post("ana", "/play/unseal", secret=SECRETS["ana"], **dict(_card("ana")))
    assert status == 422 and SECRETS["ana"] not in page  # not now: refused without repeating it
    assert phones.events()[-1]["type"] == "conspiracy"


def _card(name: str) -> list[tuple[str, str]]:
    return [(f"loyalty{i}", house) for i, house in enumerate(CARDS[name])]


def test_the_api_records_a_conspiracy_joining_as_itself_only(game: Path) -> None:
    ana, bo = invites.invite(game, "ana"), invites.invite(game, "bo")
    seal = seal_of("ana", CARDS["ana"], SECRETS["ana"])
    event = {"type": "conspiracy", "player": "ana", "symbol": "crown", "seal": seal}
    with TestClient(create_app(game)) as client:
        as_bo = client.post("/api/events", json=event, headers={"authorization": f"Bearer {bo}"})
        assert as_bo.status_code == 403
        assert yaml.safe_load((game / "events.yaml").read_text(encoding="utf-8")) is None
        as_ana = client.post("/api/events", json=event, headers={"authorization": f"Bearer {ana}"})
        assert as_ana.status_code == 201, as_ana.text
        logged = yaml.safe_load((game / "events.yaml").read_text(encoding="utf-8"))
        assert [(e["player"], e["by"], e["seal"]) for e in logged] == [("ana", "ana", seal)]


def test_a_resolved_maester_moves_up_and_marshals_resolve_before_lords(phones: Phones) -> None:
    placed(phones)
    phones.post("ana", "/play/resolve", agent="greyjoy:maester", draw="on")
    phones.post("bo", "/play/resolve", agent="stark:maester", draw="on")
    _, page = phones.get("ana", "/play/conspiracy")
    assert re.findall(r'name="agent" value="([^"]+)"', page) == ["greyjoy:marshal"]


def test_a_card_is_recorded_only_by_its_player_or_an_organiser(phones: Phones, game: Path) -> None:
    """Issue 35: the API took the active player's token recording another player's card."""
    placed(phones)
    phones.post("ana", "/play/resolve", agent="greyjoy:maester", move="on", to="Moat Cailin", footmen="1",
                **{"from": "Greywater Watch"})  # fmt: skip
    move = {"move": {"from": "Winterfell", "to": "Moat Cailin", "units": ["footman", "knight"]}}
    resolve = {"player": "bo", "house": "stark", "space": "maester", "actions": [move]}
    with_anas = {**resolve, "combat": {"cards": {"ana": "Balon Greyjoy", "bo": None}}}
    granted = {**resolve, "combat": {"cards": {}, "after": [{"move": {}, "combat": {"cards": {"ANA": "Euron"}}}]}}
    assert not may_record(game, Draft("resolve", with_anas), Who("bo"))
    assert not may_record(game, Draft("resolve", granted), Who("bo"))
    assert not may_record(game, Draft("resolve", with_anas), Who("ana"))  # ana's card, but bo's agent
    assert may_record(game, Draft("resolve", with_anas), Who("Ann", organiser=True))
    assert may_record(game, Draft("resolve", {**resolve, "combat": {"cards": {"bo": "Robb Stark"}}}), Who("bo"))
    bo = invites.invite(game, "bo")
    before = phones.events()
    answer = phones.clients["bo"].post(
        "/api/events", json={"type": "resolve", **with_anas}, headers={"authorization": f"Bearer {bo}"}
    )
    assert answer.status_code == 403 and phones.events() == before
    phones.post(
        "bo", "/play/resolve", agent="stark:maester", move="on", to="Moat Cailin", footmen="1", knights="1",
        **{"from": "Winterfell", "card:ana": "Balon Greyjoy"},
    )  # fmt: skip
    assert phones.events() == before or "Balon Greyjoy" not in str(phones.events()[-1])


def test_the_combat_preview_is_a_post_and_no_url_carries_the_csrf_token(phones: Phones) -> None:
    """Issue 35: the preview was a GET with the session's CSRF token in its URL (history)."""
    placed(phones)
    _, page = phones.get("ana", "/play/conspiracy")
    assert "See the combat first" in page and 'formmethod="get"' not in page
    assert phones.get("ana", "/play/combat?agent=greyjoy:maester")[0] == 405
    assert phones.clients["ana"].post("/play/combat", data={"agent": "greyjoy:maester"}).status_code == 403


def test_see_the_combat_first_takes_a_muster_on_the_same_form_into_account(phones: Phones) -> None:
    """Issue 35: a muster before the move was ignored by the preview."""
    placed(phones)
    phones.post("ana", "/play/resolve", agent="greyjoy:maester", draw="on")
    phones.post("bo", "/play/resolve", agent="stark:maester", plan="move", route="Winterfell|Moat Cailin", footmen="1")
    move = {"agent": "greyjoy:marshal", "route": "Greywater Watch|Moat Cailin", "footmen": "2"}
    _, alone = phones.post("ana", "/play/combat", plan="move muster", **move, **{"add:Greywater Watch": "1"})
    _, mustered = phones.post("ana", "/play/combat", plan="muster move", **move, **{"add:Greywater Watch": "1"})
    text = re.sub(r"<[^>]+>", "", alone)
    assert "problems" in alone and "1 footman" in text  # one footman there before the muster
    text = re.sub(r"<[^>]+>", "", mustered)
    assert "greyjoy attacks with power 2" in text.casefold() or "Greyjoy attacks with power 2" in text, text


def test_a_house_with_two_muster_points_spends_them_all_in_several_areas(phones: Phones) -> None:
    """Issue 35: the muster was one area, one piece, one promotion."""
    placed(phones)
    _, page = phones.get("ana", "/play/conspiracy")
    assert 'name="add:Greywater Watch"' in page and 'name="add:Pyke"' in page and 'name="ships:Pyke"' in page
    fields = {"add:Greywater Watch": "1", "ships:Pyke": "1", "sea:Pyke": "Ironman's Bay"}
    status, page = phones.post("ana", "/play/resolve", agent="greyjoy:maester", plan="muster", **fields)
    assert status == 200, page
    assert phones.events()[-1]["actions"] == [
        {"muster": {"Greywater Watch": ["footman"], "Pyke": [{"ship": "Ironman's Bay"}]}}
    ]


def test_the_resolve_form_offers_only_the_legal_areas_of_the_agents_house(phones: Phones) -> None:
    """Issue 35: From, To and muster listed all 50 areas (Blackwater → Blackwater by default),
    and the ship's sea was free text."""
    placed(phones)
    _, page = phones.get("ana", "/play/conspiracy")
    routes = re.findall(r'<option value="([^"|]+)\|([^"]+)"(?! data-mustered)', page)  # mustered: issue #49
    assert ("Greywater Watch", "Moat Cailin") in routes and ("Pyke", "Blackwater") not in routes
    assert all(origin in ("Greywater Watch", "Pyke", "Ironman&#39;s Bay") for origin, _ in routes), routes
    assert "Blackwater" not in page.split("Move troops")[1].split("</select>")[0]
    assert re.findall(r'<select name="sea:Pyke">(.*?)</select>', page) == ["<option>Ironman&#39;s Bay</option>"]
    assert 'name="muster_sea"' not in page and 'data-around="Greywater Watch"' in page


def test_the_organiser_lets_the_ledger_choose_the_first_player_at_random(phones: Phones, game: Path) -> None:
    """Issue 35 / the source's "Randomly select the first player": the page's roll goes
    through the intents' dice, as `cok ntk begin --roll` does."""
    from cok.core.dice import ROLL, FixedDice
    from cok.service import record

    joined(phones)
    _, page = phones.get("Ann", "/play/begin")
    assert 'value="roll"' in page and "at random" in page
    drafts = [Draft("begin", {"seats": ["ana", "bo"]})]
    done = record(game, drafts, by="Ann", answers={ROLL: True}, dice=FixedDice(2), dry_run=True)
    assert done.events[0].first == "bo"
    assert phones.post("Ann", "/play/begin", seats="ana bo", first="roll")[0] == 200
    begun_event = next(e for e in reversed(phones.events()) if e["type"] == "begin")
    assert begun_event["first"] in ("ana", "bo") and begun_event["rolled"]["dice"]  # rolled by cok


def test_begin_is_not_offered_once_the_game_has_begun(phones: Phones) -> None:
    begun(phones)
    _, page = phones.get("Ann", "/play/begin")
    assert "Begin the game" not in page and "has begun" in page and "Next: ana to place" in page


def test_the_recorded_page_says_who_is_next(phones: Phones) -> None:
    """Issue 35: the terminal prints "Next: …", the phone's Recorded page did not."""
    begun(phones)
    status, page = phones.post("ana", "/play/place", spot="stark:maester")
    assert status == 200 and "Next: bo to place" in page


def test_unseal_is_not_offered_before_the_game_is_over(phones: Phones) -> None:
    """Issue 34: the Unseal button sent the card and secret before the end (the server refused)."""
    placed(phones)
    _, page = phones.get("ana", "/play/unseal")
    assert "<button" not in page.split("<main", 1)[1] and "after the last round" in page
    assert 'name="secret"' not in page


def test_the_join_page_says_signing_out_leaves_the_card_on_the_phone(phones: Phones) -> None:
    _, page = phones.get("ana", "/play/join")
    assert "Signing out" in page and "leaves the card in this browser" in page
    assert "data-table=" in page and 'data-campaign="' not in page.split("data-ntk-seal", 1)[1].split(">", 1)[0]


def test_the_pages_speak_the_games_words_with_names_not_ids_or_commands(phones: Phones) -> None:
    """Issue 35, words a player understands: names, houses as the board writes them, no
    field names or commands."""
    seal = seal_of("ana", CARDS["ana"], SECRETS["ana"])
    assert phones.post("ana", "/play/join", symbol="crown", seal=seal, name="Ana Stone")[0] == 200
    bo_seal = seal_of("bo", CARDS["bo"], SECRETS["bo"])
    assert phones.post("bo", "/play/join", symbol="torch", seal=bo_seal, name="Bo Reed")[0] == 200
    _, page = phones.get("Ann", "/play/conspiracy")
    assert "organiser to seat the table" in page and "cok ntk" not in page and ">Ana Stone</a>" in page
    status, page = phones.post("Ann", "/play/begin", seats="ana bo", first="ana")
    assert status == 200 and "Next: Ana Stone to place an agent." in page and "cok ntk" not in page
    phones.post("ana", "/play/place", spot="greyjoy:maester")
    _, page = phones.get("ana", "/play/conspiracy")
    assert "<h1>Ana Stone</h1>" in page and "Greyjoy's maester" in page and "Bo Reed to place" in page
    _, page = phones.get("bo", "/play/conspiracy")
    assert "Stark's maester</label>" in page and "stark maester" not in page


def test_each_player_plays_their_own_card_from_their_own_phone_in_turn(phones: Phones, game: Path) -> None:
    """Issue 35: only the active player could enter cards; now the active player's move opens
    the table, each other player who could play plays theirs (or none) from their phone, in
    turn, and the resolve takes those cards: nobody records another's card."""
    placed(phones)
    phones.post("ana", "/play/resolve", agent="greyjoy:maester", plan="move", route="Greywater Watch|Moat Cailin",
                footmen="1")  # fmt: skip
    phones.post("bo", "/play/resolve", agent="stark:maester", plan="draw")  # bo holds a Stark card
    attack = {"agent": "greyjoy:marshal", "plan": "muster move", "route": "Moat Cailin|Winterfell", "footmen": "1"}
    status, page = phones.post("ana", "/play/resolve", **attack)
    assert status == 200 and "Next: bo to play a card, or none, in the combat in Winterfell" in page, page
    opened = phones.events()[-1]
    assert opened["type"] == "card" and opened["player"] == "ana" and opened["to"] == "Winterfell"
    before = phones.events()
    assert phones.post("ana", "/play/resolve", **attack)[0] == 422  # bo has not played yet
    # ana's phone plays as ana, who played already: refused, or told it is recorded; never bo's
    assert phones.post("ana", "/play/card", player="bo", card="")[0] in (409, 422)
    assert phones.events() == before
    assert not may_record(game, Draft("card", {"player": "bo"}), Who("ana"))
    _, page = phones.get("bo", "/play/conspiracy")
    cards = re.findall(r'name="card" value="([^"]+)"', page)
    assert "A combat: play a card" in page and cards and "strength" in page, page
    assert phones.post("bo", "/play/card", card=cards[0])[0] == 200
    _, page = phones.get("ana", "/play/conspiracy")
    assert "The cards are played for Greyjoy" in page and 'value="Moat Cailin|Winterfell" selected' in page
    _, preview = phones.post("ana", "/play/combat", **attack)
    assert f"Cards played: bo: {cards[0]}." in preview  # the preview weighs the cards the phones played
    status, page = phones.post("ana", "/play/resolve", **attack)
    assert status == 200, page
    resolved = phones.events()[-1]
    assert resolved["type"] == "resolve" and resolved["by"] == "ana"
    assert resolved["combat"]["cards"]["bo"] == cards[0]
    assert [e["by"] for e in phones.events()[-3:]] == ["ana", "bo", "ana"]


def test_a_lord_who_draws_before_moving_may_play_the_card_drawn(phones: Phones) -> None:
    """Issue 35: a card drawn earlier in the same resolution could not be played from the phone."""
    placed(phones)
    for who, agent in (("ana", "greyjoy:maester"), ("bo", "stark:maester")):
        assert phones.post(who, "/play/resolve", agent=agent, plan="draw")[0] == 200
    marshals = [
        ("ana", "greyjoy:marshal", {"add:Pyke": "1", "route": "Greywater Watch|Moat Cailin"}),
        ("bo", "stark:marshal", {"add:Winterfell": "1", "route": "Winterfell|Castle Black"}),
    ]
    for who, agent, fields in marshals:
        status, page = phones.post(who, "/play/resolve", agent=agent, plan="muster move", footmen="1", **fields)
        assert status == 200, page
    _, page = phones.get("ana", "/play/conspiracy?agent=lannister:lord")
    assert 'value="draw move"' in page and "Tywin Lannister (Lannister) — a card you draw first" in page
    assert "Ser Jaime Lannister: Lannister musters" in page and 'name="then-add:Lannisport"' in page
    # Cersei never removes the agent being resolved (the only Lannister agent here): not offered
    assert "Cersei Lannister: no other agent stands on a Lannister space" in page
    assert '<option value="lannister:lord">' not in page
    status, page = phones.post(
        "ana", "/play/resolve", agent="lannister:lord", plan="draw move", route="The Golden Sound|Ironman's Bay",
        footmen="0", ships="2", card="Tywin Lannister",
    )  # fmt: skip
    assert status == 200, page
    resolved = phones.events()[-1]
    assert resolved["actions"][0] == {"draw": True} and resolved["combat"]["cards"] == {"ana": "Tywin Lannister"}


def test_a_card_chosen_for_a_move_that_does_not_fight_is_not_sent(phones: Phones) -> None:
    placed(phones)
    status, page = phones.post(
        "ana", "/play/resolve", agent="greyjoy:maester", plan="move", route="Greywater Watch|Moat Cailin", footmen="1",
        card="Balon Greyjoy",
    )  # fmt: skip
    assert status == 200, page
    assert "combat" not in phones.events()[-1]


def test_ashas_granted_move_offers_its_own_combats_card_where_it_fights(phones: Phones) -> None:
    """Issue 35 (second pass): the resolve form had no field for the combat of Asha's move."""
    placed(phones)
    for who, agent in (("ana", "greyjoy:maester"), ("bo", "stark:maester")):
        assert phones.post(who, "/play/resolve", agent=agent, plan="draw")[0] == 200
    _, page = phones.get("ana", "/play/conspiracy?agent=greyjoy:marshal")
    assert "Asha Greyjoy: Greyjoy moves" in page, page
    granted_routes = page.split('name="then-route"')[1].split("</select>")[0]
    assert "Ironman&#39;s Bay → The Golden Sound (fights Lannister)" in granted_routes
    assert 'name="then-card"' in page and "The card you play if Greyjoy's move fights" in page


def test_seats_leaves_the_bar_once_the_game_has_begun(phones: Phones) -> None:
    """Issue 35 (second pass): "Seats" stayed in the organiser's bar after the game began."""
    joined(phones)
    _, page = phones.get("Ann", "/play/conspiracy")
    assert 'href="/play/begin"' in page.split("<main", 1)[0]
    phones.post("Ann", "/play/begin", seats="ana bo", first="ana")
    _, page = phones.get("Ann", "/play/conspiracy")
    assert "/play/begin" not in page.split("<main", 1)[0]
    _, page = phones.get("ana", "/play/conspiracy")  # nor joining, nor unsealing before the end
    assert "/play/join" not in page.split("<main", 1)[0] and "/play/unseal" not in page.split("<main", 1)[0]


def test_the_organiser_acting_for_a_player_is_told_the_card_is_on_the_players_phone(phones: Phones) -> None:
    """Issue 35 (second pass): an organiser's browser has no card; the page showed an empty space."""
    begun(phones)
    _, page = phones.get("Ann", "/play/conspiracy?player=ana")
    main = page.split("<main", 1)[1]
    assert "data-ntk-card" not in main and "sealed on their own phone" in main and "only they see it" in main
    _, page = phones.get("ana", "/play/conspiracy")
    assert "data-ntk-card" in page and "sealed on their own phone" not in page


def test_a_players_api_403_for_a_fight_before_the_others_cards_says_whose_card_it_waits_for(
    phones: Phones, game: Path
) -> None:
    """Issue 35 (second pass): the API's 403 used the general "events they take part in"."""
    placed(phones)
    phones.post("ana", "/play/resolve", agent="greyjoy:maester", plan="move", route="Greywater Watch|Moat Cailin",
                footmen="1")  # fmt: skip
    phones.post("bo", "/play/resolve", agent="stark:maester", plan="draw")  # bo holds a Stark card
    move = {"move": {"from": "Moat Cailin", "to": "Winterfell", "units": ["footman"]}}
    resolve = {"type": "resolve", "player": "ana", "house": "greyjoy", "space": "marshal", "actions": [move]}
    ana = invites.invite(game, "ana")
    before = phones.events()
    answer = phones.clients["ana"].post("/api/events", json=resolve, headers={"authorization": f"Bearer {ana}"})
    assert answer.status_code == 403 and phones.events() == before
    said = answer.text
    assert "then bo plays theirs" in said and "Winterfell" in said and "`card`" in said and "take part in" not in said


def test_the_exchange_is_offered_only_in_its_turn_and_face_up_tokens_read_as_words(phones: Phones) -> None:
    """Issue 35 (second pass, read at 390 px): "Face up: 1: face down · 2: face down…" read
    as a contradiction, and the exchange form was offered in the middle of a round (refused)."""
    placed(phones)
    _, page = phones.get("ana", "/play/conspiracy")
    assert "Shown to the table: none of your tokens yet." in page and "face down" not in page
    _, page = phones.get("ana", "/play/exchange")
    main = page.split("<main", 1)[1]
    assert "at the end of each round" in main and "Exchange</button>" not in main and 'name="swap"' not in main


def _answered(phones: Phones, who: str, page: str, field: str, value: str) -> tuple[int, str]:
    """The rules' question answered as its page's form does (the drafts carried back)."""
    import html

    hidden = {k: html.unescape(v) for k, v in re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', page)}
    hidden.pop("csrf", None)
    found = re.search(r'<form method="post" action="([^"]+)"', page.split("<main", 1)[1])
    assert found, page
    return phones.post(who, found[1], **hidden, **{f"answer:{field}": value})


def test_ashas_move_that_fights_is_recorded_from_the_phone_with_its_tie_asked(phones: Phones) -> None:
    """Issue 35 (second pass): an Asha-granted move that fights could not be recorded from the
    phone (no combat for it: the rules refused); now its combat goes with it and the rules ask
    its tie as the first's."""
    placed(phones)
    assert phones.post("ana", "/play/resolve", agent="greyjoy:maester", plan="draw")[0] == 200
    bo_moves = {"agent": "stark:maester", "plan": "move", "route": "Winterfell|Moat Cailin", "footmen": "1"}
    assert phones.post("bo", "/play/resolve", **bo_moves)[0] == 200  # bo holds no card: no table
    form = {
        "agent": "greyjoy:marshal",
        "plan": "muster move",
        "add:Greywater Watch": "1",
        "route": "Greywater Watch|Moat Cailin",
        "footmen": "2",
        "card": "Asha Greyjoy",
        "then": "move",
        "then-route": "Ironman's Bay|The Golden Sound",
        "then-ships": "2",
    }
    status, page = phones.post("ana", "/play/resolve", **form)
    assert status == 409 and 'name="answer:winner"' in page, page  # the first combat's tie
    status, page = _answered(phones, "ana", page, "winner", "greyjoy")
    assert status == 409 and 'name="answer:then-winner"' in page, page  # the granted move's tie
    status, page = _answered(phones, "ana", page, "then-winner", "greyjoy")
    assert status == 200 and "Recorded" in page, page
    resolved = phones.events()[-1]
    (after,) = resolved["combat"]["after"]
    assert after["move"]["to"] == "The Golden Sound" and after["combat"]["winner"] == "greyjoy"


def test_the_join_page_says_the_game_has_begun_once_it_has(phones: Phones) -> None:
    """Issue 35 (second pass, read at 390 px): after the seating the join page still spoke of
    joining (to the organiser: "each conspiracy joins from its own phone")."""
    begun(phones)
    _, page = phones.get("Ann", "/play/join")
    assert "The game has begun" in page and "joins from its own phone" not in page


def test_a_resolve_form_naming_no_agent_is_refused_and_records_nothing(phones: Phones) -> None:
    """The resolve's reads (`opening`) are asked only of an agent: a form without one is the
    rules' refusal on the page, never a server error."""
    placed(phones)
    before = phones.events()
    status, page = phones.post("ana", "/play/resolve", draw="on")
    assert status == 422, page
    assert phones.events() == before
