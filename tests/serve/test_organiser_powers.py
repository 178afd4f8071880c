"""Issue 34, "Organiser powers stay the organiser's; a player records only their own part":
an `override` (any game's organiser's ruling) only from an organiser, and a player's refusal
never offers it; a painting claim only by its player; `by`, `id` and `at` set by the server
for every role; what a player may send decided once, field by field, in the service."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cok.core.ruleset import get, organiser_events
from cok.service import Draft, Who, may_record

from ..games import GAMES
from .conftest import Table, battle


def test_a_players_override_is_refused_403_and_nothing_written(table: Table) -> None:
    before = table.log()
    sent = battle("Winterfell", override="organiser's ruling")
    answer = table.client.post("/api/events", json=sent, headers=table.bearer(table.tim))
    assert answer.status_code == 403, answer.text
    assert "override" in answer.json()["problems"][0]["message"]
    assert table.log() == before


def test_an_organisers_override_is_the_ruling_it_always_was(table: Table) -> None:
    sent = battle("Winterfell", override="the table agreed")
    answer = table.client.post("/api/events", json=sent, headers=table.bearer(table.organiser))
    assert answer.status_code == 201, answer.text
    assert "override: the table agreed" in table.log().decode()


def test_a_players_refusal_does_not_offer_the_organisers_override(table: Table) -> None:
    answer = table.client.post("/api/events", json=battle("Winterfell"), headers=table.bearer(table.tim))
    assert answer.status_code == 422, answer.text
    assert "override" not in json.dumps(answer.json())
    ruled = table.client.post("/api/events", json=battle("Winterfell"), headers=table.bearer(table.organiser))
    assert ruled.status_code == 422 and "override" in json.dumps(ruled.json())


def test_a_players_refusal_for_a_score_against_the_winner_does_not_offer_override(table: Table) -> None:
    sent = battle(vp={"tim": 3, "matt": 9}, winner="tim")
    answer = table.client.post("/api/events", json=sent, headers=table.bearer(table.tim))
    assert answer.status_code == 422, answer.text
    assert "override" not in json.dumps(answer.json())


def test_an_override_given_as_an_answer_to_a_form_is_refused_to_a_player(table: Table) -> None:
    csrf = table.sign_in(table.tim)
    before = table.log()
    form = {
        "csrf": csrf,
        "drafts": json.dumps([{"type": "battle", "fields": battle("Winterfell")}]),
        "answers": json.dumps({"override": "mine"}),
    }
    assert table.client.post("/record", data=form).status_code == 403
    assert table.log() == before


def test_naming_yourself_the_commissioned_painter_is_not_the_players_claim(table: Table) -> None:
    before = table.log()
    claim = {"type": "painting", "player": "sara", "commissioned": "tim", "units": 3}
    answer = table.client.post("/api/events", json=claim, headers=table.bearer(table.tim))
    assert answer.status_code == 403, answer.text
    assert table.log() == before


@pytest.mark.parametrize("given", [{"by": "tim"}, {"at": "2001-01-01T00:00:00Z"}, {"id": "mine"}])
def test_an_organisers_form_never_writes_by_at_or_id_as_sent(table: Table, given: dict[str, str]) -> None:
    csrf = table.sign_in(table.organiser)
    before = table.log()
    form = {
        "csrf": csrf,
        "drafts": json.dumps([{"type": "painting", "fields": {"player": "tim", "units": 1}}]),
        "answers": json.dumps(given),
    }
    answer = table.client.post("/record", data=form)
    assert answer.status_code == 422, answer.text
    assert table.log() == before


@pytest.mark.parametrize("given", [{"by": "tim"}, {"at": "2001-01-01T00:00:00Z"}, {"id": "mine"}])
def test_an_organisers_api_call_never_writes_by_at_or_id_as_sent(table: Table, given: dict[str, str]) -> None:
    before = table.log()
    claim = {"type": "painting", "player": "tim", "units": 1, **given}
    answer = table.client.post("/api/events", json=claim, headers=table.bearer(table.organiser))
    assert answer.status_code == 422, answer.text
    assert table.log() == before


def test_a_field_the_game_does_not_list_for_players_is_refused_to_them(
    example: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A new field (or type) is the organiser's until the game lists it in `player_fields`."""
    ruleset = get("clash-of-kings")
    draft = Draft("painting", {"player": "tim", "units": 2})
    assert may_record(example, draft, Who("tim"))
    fields = dict(ruleset.player_fields)
    fields["painting"] = frozenset({"player"})
    monkeypatch.setattr(type(ruleset), "player_fields", fields)
    assert not may_record(example, draft, Who("tim"))
    assert may_record(example, draft, Who("ann", organiser=True))
    del fields["painting"]
    assert not may_record(example, Draft("painting", {"player": "tim"}), Who("tim"))


@pytest.mark.parametrize("game", GAMES)
def test_no_game_lets_a_player_send_an_override_or_an_organisers_event(game: str) -> None:
    ruleset = get(game)

    assert not any("override" in fields for fields in ruleset.player_fields.values())
    assert not set(ruleset.player_fields) & organiser_events(ruleset)
