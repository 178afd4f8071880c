"""The JSON API through Starlette's test client: one test per status, one per rule of who may
record what. Nothing is written on any answer but 201."""

from __future__ import annotations

import json

import pytest

from tests.conftest import Cok
from tests.serve.conftest import Table, battle


def test_standings_are_cok_standings_json(table: Table) -> None:
    cli = Cok(table.folder)("standings", "--json")
    assert table.client.get("/api/standings").json() == json.loads(cli.stdout)


def test_where_is_cok_where_json(table: Table) -> None:
    cli = Cok(table.folder)("where", "tim", "matt", "--json")
    assert table.client.get("/api/where?players=tim,matt").json() == json.loads(cli.stdout)


def test_where_without_players_400_naming_them(table: Table) -> None:
    answer = table.client.get("/api/where")
    assert answer.status_code == 400
    assert "`players`" in answer.json()["problems"][0]["message"]


def test_where_needs_two_players_422_in_the_rules_words(table: Table) -> None:
    answer = table.client.get("/api/where?players=tim")
    assert answer.status_code == 422
    assert "two players" in answer.json()["problems"][0]["message"]


def test_201_recorded_with_by_from_the_token(table: Table) -> None:
    answer = table.client.post("/api/events", json=battle(), headers=table.bearer(table.tim))
    assert answer.status_code == 201, answer.text
    body = answer.json()
    assert body["id"] and "Ghost Hill" in body["told"]
    import yaml

    last = yaml.safe_load(table.log())[-1]  # an id of digits only is written quoted: read it as YAML
    assert (str(last["id"]), last["by"]) == (body["id"], "tim")


def test_dry_run_200_writes_nothing(table: Table) -> None:
    before = table.log()
    answer = table.client.post("/api/events?dry_run=1", json=battle(), headers=table.bearer(table.tim))
    assert answer.status_code == 200, answer.text
    assert "Ghost Hill" in answer.json()["told"]
    assert table.log() == before


@pytest.mark.parametrize("given", ["maybe", "True", "on", "2"])
def test_a_dry_run_or_again_that_is_not_a_yes_or_a_no_is_400_and_writes_nothing(table: Table, given: str) -> None:
    """A bot's `dry_run=True` was taken for a no and recorded for real: only 1, true, yes (or
    0, false, no) are taken, as the OpenAPI document says."""
    before = (table.folder / "events.yaml").read_bytes()
    for option in ("dry_run", "again"):
        answer = table.client.post(f"/api/events?{option}={given}", json=battle(), headers=table.bearer(table.tim))
        assert answer.status_code == 400, answer.text
        assert f"`{option}`" in answer.json()["problems"][0]["message"]
    assert (table.folder / "events.yaml").read_bytes() == before


def test_a_dry_run_said_true_is_a_dry_run(table: Table) -> None:
    before = (table.folder / "events.yaml").read_bytes()
    answer = table.client.post("/api/events?dry_run=true", json=battle(), headers=table.bearer(table.tim))
    assert answer.status_code == 200 and answer.json()["dry_run"] is True
    assert (table.folder / "events.yaml").read_bytes() == before


def test_400_not_json(table: Table) -> None:
    before = table.log()
    answer = table.client.post("/api/events", content=b"{type: battle", headers=table.bearer(table.tim))
    assert answer.status_code == 400
    assert table.log() == before


def test_400_not_one_event(table: Table) -> None:
    answer = table.client.post("/api/events", json=[battle(), battle()], headers=table.bearer(table.tim))
    assert answer.status_code == 400
    assert "one event" in answer.json()["problems"][0]["message"]


def test_413_body_over_a_mebibyte(table: Table) -> None:
    before = table.log()
    body = json.dumps(battle(note="x" * (1024 * 1024))).encode()
    answer = table.client.post("/api/events", content=body, headers=table.bearer(table.tim))
    assert answer.status_code == 413
    assert table.log() == before


def test_413_without_a_content_length_bounded_while_read(table: Table) -> None:
    """A chunked body gives no length up front: it is counted as it arrives."""
    before = table.log()

    def chunks():  # type: ignore[no-untyped-def]
        yield b'{"type": "battle", "note": "'
        for _ in range(300):
            yield b"x" * 4096
        yield b'"}'

    answer = table.client.post("/api/events", content=chunks(), headers=table.bearer(table.tim))
    assert answer.status_code == 413
    assert table.log() == before


def test_422_refused_by_the_rules_in_cok_check_words(table: Table) -> None:
    before = table.log()
    answer = table.client.post("/api/events", json=battle("Winterfell"), headers=table.bearer(table.tim))
    assert answer.status_code == 422
    message = answer.json()["problems"][0]["message"]
    assert "Winterfell" in message
    assert "`" in message or "location" in message  # the rules' own sentence, naming the field
    assert table.log() == before


def test_422_refused_by_the_events_schema(table: Table) -> None:
    before = table.log()
    answer = table.client.post("/api/events", json=battle(colour="red"), headers=table.bearer(table.organiser))
    assert answer.status_code == 422
    assert "colour" in answer.json()["problems"][0]["message"]
    assert table.log() == before


def test_422_id_at_by_are_the_servers(table: Table) -> None:
    before = table.log()
    for field in ("id", "at", "by"):
        answer = table.client.post("/api/events", json=battle(**{field: "x"}), headers=table.bearer(table.organiser))
        assert answer.status_code == 422, field
        assert f"`{field}`" in answer.json()["problems"][0]["message"]
    assert table.log() == before


def test_409_a_choice_needed_names_it_and_writes_nothing(table: Table) -> None:
    """A tie needs the points remaining of both players: the rules ask, nothing is written."""
    before = table.log()
    tie = battle(vp={"tim": 5, "matt": 5})
    answer = table.client.post("/api/events", json=tie, headers=table.bearer(table.tim))
    assert answer.status_code == 409, answer.text
    question = answer.json()["question"]
    assert question["field"] == "remaining" and sorted(question["keys"]) == ["matt", "tim"]
    assert table.log() == before
    answered = table.client.post(
        "/api/events", json={**tie, "remaining": {"tim": 10, "matt": 3}}, headers=table.bearer(table.tim)
    )
    assert answered.status_code == 201


def test_401_no_token(table: Table) -> None:
    answer = table.client.post("/api/events", json=battle())
    assert answer.status_code == 401
    assert answer.headers["www-authenticate"] == "Bearer"


def test_401_unknown_token(table: Table) -> None:
    before = table.log()
    answer = table.client.post("/api/events", json=battle(), headers=table.bearer("not-a-link"))
    assert answer.status_code == 401
    assert table.log() == before


def test_401_a_revoked_token(table: Table) -> None:
    from cok.links import invites

    invites.revoke(table.folder, "tim")
    assert table.client.post("/api/events", json=battle(), headers=table.bearer(table.tim)).status_code == 401


def test_403_a_player_records_only_events_they_take_part_in(table: Table) -> None:
    before = table.log()
    others = {"type": "battle", "players": ["aaron", "sara"], "location": "Nowhere at all"}
    answer = table.client.post("/api/events", json=others, headers=table.bearer(table.tim))
    assert answer.status_code == 403  # before the rules: the unknown location is not even looked at
    assert table.log() == before


def test_403_a_player_may_not_start_a_week(table: Table) -> None:
    answer = table.client.post("/api/events", json={"type": "week"}, headers=table.bearer(table.tim))
    assert answer.status_code == 403


def test_403_a_player_may_not_adjust_their_own_cp(table: Table) -> None:
    adjust = {"type": "adjust", "player": "tim", "cp": 5, "reason": "I deserve it"}
    assert table.client.post("/api/events", json=adjust, headers=table.bearer(table.tim)).status_code == 403


def test_403_a_player_may_not_void(table: Table) -> None:
    void = {"type": "void", "target": "whatever", "reason": "no"}
    assert table.client.post("/api/events", json=void, headers=table.bearer(table.tim)).status_code == 403


def test_a_player_records_their_own_painting(table: Table) -> None:
    painting = {"type": "painting", "player": "matt", "units": 1}
    assert table.client.post("/api/events", json=painting, headers=table.bearer(table.matt)).status_code == 201
    assert table.client.post("/api/events", json=painting, headers=table.bearer(table.tim)).status_code == 403


def test_an_organiser_records_a_week_and_any_battle(table: Table) -> None:
    answer = table.client.post("/api/events", json={"type": "week"}, headers=table.bearer(table.organiser))
    assert answer.status_code == 201, answer.text
    assert "by: Ann" in table.log().decode().rsplit("- type:", 1)[1]
    assert table.client.post("/api/events", json=battle(), headers=table.bearer(table.organiser)).status_code == 201


def test_a_burst_of_bad_tokens_is_slowed_down(table: Table) -> None:
    for _ in range(10):
        assert table.client.post("/api/events", json=battle(), headers=table.bearer("guess")).status_code == 401
    answer = table.client.post("/api/events", json=battle(), headers=table.bearer("guess"))
    assert answer.status_code == 401  # still refused as no link's token (RFC 6750), told to wait
    assert int(answer.headers["retry-after"]) > 0
    assert answer.json()["retry_after"] == int(answer.headers["retry-after"])


def test_the_limiter_counts_each_address_alone() -> None:
    from cok.serve.limiter import Limiter

    limiter = Limiter(allowed=3, window=60)
    for _ in range(3):
        limiter.failed("10.0.0.1")
    assert limiter.wait("10.0.0.1") > 0
    assert limiter.wait("10.0.0.2") == 0


def test_409_the_same_battle_twice_then_again(table: Table) -> None:
    lost = battle(vp={"tim": 3, "matt": 8})  # the defender wins: nothing changes hands
    assert table.client.post("/api/events", json=lost, headers=table.bearer(table.tim)).status_code == 201
    before = table.log()
    twice = table.client.post("/api/events", json=lost, headers=table.bearer(table.tim))
    assert twice.status_code == 409 and twice.json()["question"]["kind"] == "repeated", twice.text
    assert table.log() == before
    again = table.client.post("/api/events?again=1", json=lost, headers=table.bearer(table.tim))
    assert again.status_code == 201


def test_413_a_form_over_a_mebibyte(table: Table) -> None:
    csrf = table.sign_in(table.tim)
    before = table.log()
    answer = table.client.post("/play/paint", data={"csrf": csrf, "units": "1", "pad": "x" * (1024 * 1024)})
    assert answer.status_code == 413
    assert table.log() == before


def test_a_burst_of_wrong_links_is_slowed_down(table: Table) -> None:
    for n in range(10):
        assert table.client.get(f"/join/guess{n}", follow_redirects=False).status_code == 401
    assert table.client.get("/join/guess-again", follow_redirects=False).status_code == 429


def test_a_right_token_or_link_never_waits_nor_counts_behind_one_address(table: Table) -> None:
    """Issue 34: the limiter counts only failures; behind one NAT address a player's stale
    link must not lock out everyone's sign-in."""
    for n in range(10):
        assert table.client.get(f"/join/stale{n}", follow_redirects=False).status_code == 401
    assert table.client.get(f"/join/{table.matt}", follow_redirects=False).status_code == 303
    answer = table.client.post("/api/events", json=battle(), headers=table.bearer(table.tim))
    assert answer.status_code == 201, answer.text
    for _ in range(30):  # and a right link, however often, is no failure (each phone signed out first)
        table.client.cookies.clear()
        assert table.client.get(f"/join/{table.tim}", follow_redirects=False).status_code == 303
