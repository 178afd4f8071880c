"""Issue 50: an API a club's bot can build on — its published document, the history and the dice
as reads, "roll it for me" and the rules' answers as writes, the club's campaigns, and the
example bot of docs/ on a served example."""

from __future__ import annotations

import importlib.util
import json
import re
import warnings
from pathlib import Path
from types import ModuleType

import pytest
from openapi_spec_validator import validate

from cok.contract.openapi import API_VERSION, club_document, document
from cok.core import ruleset as registry
from cok.core.schemas import schema
from cok.service.queries import check
from tests.conftest import EXAMPLE, Cok
from tests.serve.conftest import Table, battle

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

ROOT = Path(__file__).resolve().parents[2]
#: Planky Town is legal for either side once Tim and Matt hold as many territories (a roll-off).
LEVEL = {"type": "battle", "players": ["tim", "matt"], "location": "Planky Town", "vp": {"tim": 6, "matt": 2}}


# --- the published contract -----------------------------------------------------------------


@pytest.mark.parametrize("game", ["clash-of-kings", "mighty-kingdoms", "no-true-king"])
def test_the_document_is_valid_openapi_3_1_in_every_game(game: str) -> None:
    found = document(registry.get(game))
    validate(found)
    assert found["openapi"] == "3.1.0"


def test_the_club_document_is_valid_openapi_3_1() -> None:
    validate(club_document())


def test_the_document_is_served_to_anyone_and_holds_no_campaign_data(table: Table) -> None:
    answer = table.client.get("/api/openapi.json")
    assert answer.status_code == 200
    text = answer.text
    for said in ("War of the Five Kings", "Dany", "sara", str(table.folder)):
        assert said not in text


def test_cok_schema_api_prints_the_served_document(table: Table) -> None:
    printed = Cok(table.folder)("schema", "api")
    assert json.loads(printed.stdout) == table.client.get("/api/openapi.json").json()


def test_the_events_a_client_posts_are_the_events_schema_less_what_the_ledger_sets(table: Table) -> None:
    ruleset = registry.get("clash-of-kings")
    logged = schema("events", ruleset)["$defs"]["Battle"]["properties"]
    posted = document(ruleset)["components"]["schemas"]["PostedBattle"]["properties"]
    assert set(posted) == (set(logged) - {"id", "at", "by", "rolled"}) | {"roll_dice", "entropy", "answers"}


def test_every_operation_names_the_bearer_scheme_and_the_one_error_document() -> None:
    found = document(registry.get("clash-of-kings"))
    assert found["components"]["securitySchemes"]["link"]["scheme"] == "bearer"
    for path, item in found["paths"].items():
        for operation in item.values():
            refusals = {s: r for s, r in operation["responses"].items() if s.startswith("4")}
            for status, said in refusals.items():
                shape = said["content"]["application/json"]
                problems = {"$ref": "#/components/schemas/Problems"}
                assert shape["schema"] == problems or (status == "409" and problems in shape["schema"]["oneOf"])
                assert "example" in shape, (path, status)
            if path not in ("/api/openapi.json", "/api/version"):
                assert "401" in refusals and {"link": []} in operation["security"], path


def test_the_apis_own_documents_carry_examples() -> None:
    paths = document(registry.get("clash-of-kings"))["paths"]
    for path, method, status in [
        ("/api/version", "get", "200"),
        ("/api/log", "get", "200"),
        ("/api/dice", "get", "200"),
        ("/api/events", "post", "201"),
        ("/api/events", "post", "200"),
    ]:
        assert "example" in paths[path][method]["responses"][status]["content"]["application/json"], path
    assert "example" in paths["/api/events"]["post"]["requestBody"]["content"]["application/json"]


def test_info_version_follows_the_promise_a_major_version_only_adds() -> None:
    assert re.fullmatch(r"1\.\d+\.\d+", API_VERSION)
    said = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    assert f"`{API_VERSION}`" in said and "never removed" in said


# --- reads ------------------------------------------------------------------------------------


def test_the_log_is_cok_log_json_a_page_at_a_time(table: Table) -> None:
    whole = json.loads(Cok(table.folder)("log", "--json").stdout)["events"]
    read: list[dict[str, object]] = []
    since = None
    while True:
        page = table.client.get(
            "/api/log", params={"limit": 7, **({"since": since} if since else {})}, headers=table.bearer(table.matt)
        ).json()
        read += page["events"]
        since = page["last"]
        if not page["more"]:
            break
    assert read == whole


def test_the_log_since_an_event_answers_only_what_came_after_it(table: Table) -> None:
    last = table.client.get("/api/log", params={"limit": 1000}, headers=table.bearer(table.tim)).json()["last"]
    assert table.client.get("/api/log", params={"since": last}, headers=table.bearer(table.tim)).json()["events"] == []
    recorded = table.client.post("/api/events", json=battle(), headers=table.bearer(table.tim)).json()["id"]
    page = table.client.get("/api/log", params={"since": last}, headers=table.bearer(table.tim)).json()
    assert [e["id"] for e in page["events"]] == [recorded] and page["last"] == recorded and page["more"] is False


def test_the_log_since_an_event_it_does_not_hold_is_422(table: Table) -> None:
    answer = table.client.get("/api/log", params={"since": "nosuchevent"}, headers=table.bearer(table.tim))
    assert answer.status_code == 422
    assert "nosuchevent" in answer.json()["problems"][0]["message"]


def test_the_log_of_an_unknown_player_is_refused_before_a_line_is_written(table: Table) -> None:
    answer = table.client.get("/api/log", params={"player": "nobody"}, headers=table.bearer(table.tim))
    assert answer.status_code == 422 and "nobody" in answer.json()["problems"][0]["message"]
    printed = Cok(table.folder)("log", "--player", "nobody", "--json")
    assert printed.exit_code == 1 and printed.stdout == ""


@pytest.mark.parametrize("limit", ["", "0", "1001", "ten"])
def test_a_page_size_that_is_no_whole_number_from_1_to_1000_is_400(table: Table, limit: str) -> None:
    answer = table.client.get("/api/log", params={"limit": limit}, headers=table.bearer(table.tim))
    assert answer.status_code == 400 and "`limit`" in answer.json()["problems"][0]["message"]


def test_the_log_without_a_link_is_401(table: Table) -> None:
    answer = table.client.get("/api/log")
    assert answer.status_code == 401 and answer.headers["www-authenticate"] == "Bearer"


def test_the_dice_are_cok_dice_json(table: Table) -> None:
    rolled_dice(table, table.organiser)
    cli = json.loads(Cok(table.folder)("dice", "--json").stdout)
    assert table.client.get("/api/dice", headers=table.bearer(table.tim)).json() == cli


def test_the_status_is_an_ordinary_read_open_to_anyone(table: Table) -> None:
    answer = table.client.get("/api/where", params={"players": "tim,matt"})
    assert answer.status_code == 200
    assert answer.json() == json.loads(Cok(table.folder)("where", "tim", "matt", "--json").stdout)


def test_a_club_lists_its_campaigns_as_its_page_does(tmp_path: Path) -> None:
    import shutil

    from cok.serve.app import create_app
    from cok.serve.club import club_app, gathered

    club = tmp_path / "club"
    shutil.copytree(EXAMPLE, club / "example")
    with TestClient(club_app(club, gathered(club), create_app)) as client:
        found = client.get("/api/campaigns").json()["campaigns"]
        page = client.get("/").text
        validate(client.get("/api/openapi.json").json())
    assert [(c["path"], c["name"], c["game"], c["period"], c["leads"]) for c in found] == [
        ("example", "The War of the Five Kings", "Clash of Kings", "week 5", "Dany")
    ]
    assert all(c["name"] in page and c["leads"] in page for c in found)


def test_a_club_lists_each_campaigns_next_deadline_as_its_status_gives_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 48's due times for a bot: `due` is the wait due soonest, the very item the game's
    `status --json` lists first; null for a campaign that keeps no deadlines."""
    import shutil

    from cok.serve.app import create_app
    from cok.serve.club import club_app, gathered

    club = tmp_path / "club"
    shutil.copytree(EXAMPLE, club / "example")
    shutil.copytree(ROOT / "campaigns" / "mighty-kingdoms", club / "kingdoms")
    with (club / "kingdoms" / "campaign.yaml").open("a", encoding="utf-8") as settings:
        settings.write("deadlines:\n  orders: 48h\n")
    monkeypatch.setenv("COK_NOW", "2026-11-23T18:00:00Z")
    status = json.loads(Cok(club / "kingdoms")("mk", "status", "--json").stdout)
    with TestClient(club_app(club, gathered(club), create_app)) as client:
        found = {c["path"]: c for c in client.get("/api/campaigns").json()["campaigns"]}
        validate(client.get("/api/openapi.json").json())
    assert found["kingdoms"]["due"] == status["due"][0]
    assert found["kingdoms"]["due"]["due"] is not None
    assert found["example"]["due"] is None


# --- writes -------------------------------------------------------------------------------------


def rolled_dice(table: Table, token: str) -> tuple[dict[str, object], str]:
    """A battle whose attacker a roll-off decides, rolled by cok with the caller's own bytes
    (sent again once if the period's dice were committed by it, as the page says to)."""
    assert table.client.post("/api/events", json=battle(), headers=table.bearer(table.organiser)).status_code == 201
    entropy = "0123456789abcdef" * 2
    sent = {**LEVEL, "roll_dice": True, "entropy": entropy}
    answer = table.client.post("/api/events", json=sent, headers=table.bearer(token))
    if answer.status_code == 422 and "committed now" in answer.json()["problems"][0]["message"]:
        entropy = "fedcba9876543210" * 2  # new random bytes, as the answer asks
        answer = table.client.post("/api/events", json={**sent, "entropy": entropy}, headers=table.bearer(token))
    assert answer.status_code == 201, answer.text
    return answer.json(), entropy


@pytest.mark.parametrize("who", ["organiser", "tim"])
def test_roll_it_for_me_with_the_callers_own_entropy(table: Table, who: str) -> None:
    done, entropy = rolled_dice(table, getattr(table, who))
    tail = table.log().decode().rsplit("- type: battle", 1)[1]
    assert f"id: {done['id']}" in tail and f"entropy: {entropy}" in tail and "dice rolled by cok" in str(done["told"])
    assert check(table.folder, use_cache=False) == []


def test_a_player_asking_cok_to_roll_is_not_told_it_is_an_organisers_to_give(table: Table) -> None:
    assert table.client.post("/api/events", json=battle(), headers=table.bearer(table.organiser)).status_code == 201
    answer = table.client.post("/api/events", json={**LEVEL, "roll_dice": True}, headers=table.bearer(table.tim))
    assert answer.status_code != 403 and "organiser" not in answer.text, answer.text


def test_a_player_recording_others_battle_is_told_who_may(table: Table) -> None:
    others = {"type": "battle", "players": ["dany", "sara"], "location": "Harrenhal", "vp": {"dany": 7, "sara": 5}}
    answer = table.client.post("/api/events", json={**others, "roll_dice": True}, headers=table.bearer(table.tim))
    assert answer.status_code == 403
    assert "events they take part in" in answer.json()["problems"][0]["message"]


def test_the_rules_question_is_answered_in_answers(table: Table) -> None:
    tie = battle(vp={"tim": 5, "matt": 5})
    asked = table.client.post("/api/events", json=tie, headers=table.bearer(table.tim)).json()["question"]
    answers = {asked["field"]: {k: 3 for k in asked["keys"]}}
    answer = table.client.post("/api/events", json={**tie, "answers": answers}, headers=table.bearer(table.tim))
    assert answer.status_code == 201, answer.text


def test_cok_s_own_dice_events_are_refused_at_the_api(table: Table) -> None:
    before = table.log()
    commit = {"type": "dice-commit", "period": "week 5", "sha256": "0" * 64}
    answer = table.client.post("/api/events", json=commit, headers=table.bearer(table.organiser))
    assert answer.status_code == 422 and "cok" in answer.json()["problems"][0]["message"]
    assert table.log() == before


def test_confirm_dispute_and_settle_through_the_api(table: Table) -> None:
    ours = table.client.post("/api/events", json=battle(), headers=table.bearer(table.tim)).json()["id"]
    mine = table.client.post("/api/events", json={"type": "confirm", "target": ours}, headers=table.bearer(table.tim))
    assert mine.status_code == 403 and "other side" in mine.json()["problems"][0]["message"]
    disputed = {"type": "dispute", "target": ours, "reason": "7 was 5"}
    assert table.client.post("/api/events", json=disputed, headers=table.bearer(table.matt)).status_code == 201
    settled = {"type": "settle", "target": ours, "reason": "photo"}
    refused = table.client.post("/api/events", json=settled, headers=table.bearer(table.matt))
    assert refused.status_code == 403 and "organiser" in refused.json()["problems"][0]["message"]
    assert table.client.post("/api/events", json=settled, headers=table.bearer(table.organiser)).status_code == 201
    log = table.client.get("/api/log", params={"since": ours}, headers=table.bearer(table.tim)).json()["events"]
    assert [e["type"] for e in log] == ["dispute", "settle"]


# --- the example bot ------------------------------------------------------------------------------


def bot() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bot", ROOT / "docs" / "bot.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_example_bot_says_the_latest_and_answers_standings_on_a_served_example(
    example: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The bot as it runs (`main`), its client served the example in-process."""
    from cok.links import invites
    from cok.serve.app import create_app

    token = invites.invite(example, "tim")
    app = create_app(example)
    module = bot()
    monkeypatch.setattr(
        module.httpx, "Client", lambda base_url, headers, timeout: TestClient(app, base_url=base_url, headers=headers)
    )
    module.main("http://club.example", token, rounds=0)
    latest = capsys.readouterr().out.splitlines()
    module.main("http://club.example", token, "!standings")
    standings = capsys.readouterr().out.splitlines()
    whole = Cok(example)("log").stdout.splitlines()
    assert len(latest) == 5 and all(any(said.split(" (")[0] in line for line in whole) for said in latest)
    assert standings[0] == "1. Dany — 37" and len(standings) == 6


def test_the_example_bot_prints_only_what_is_new(table: Table) -> None:
    since = table.client.get("/api/log", params={"limit": 1000}, headers=table.bearer(table.tim)).json()["last"]
    table.client.post("/api/events", json=battle(), headers=table.bearer(table.tim))
    client = table.client
    client.headers["authorization"] = f"Bearer {table.tim}"
    said = [bot().told(e) for e in bot().news(client, since)]
    assert len(said) == 1 and "Tim (attacker) beat Matt at Ghost Hill" in said[0] and "awaiting" in said[0]
