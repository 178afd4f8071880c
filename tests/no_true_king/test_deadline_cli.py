"""`cok ntk status` judged at the ledger's clock (issue 48: `COK_NOW`, docs/no-true-king.md
"Deadlines"), through the real command line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import Cok

HOUSES = ["baratheon", "stark", "lannister", "greyjoy", "tyrell"]


@pytest.fixture
def ntk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Cok:
    monkeypatch.setenv("COK_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("COK_CACHE_DIR", str(tmp_path / "cache"))
    cok = Cok(tmp_path)
    assert cok("init", "game", "--ruleset", "no-true-king").exit_code == 0
    game = Cok(tmp_path / "game")
    for player, symbol in (("ana", "crown"), ("bo", "torch")):
        made = json.loads(game("ntk", "seal", player, *HOUSES, "--json").stdout)
        assert game("ntk", "join", player, "--symbol", symbol, "--seal", made["seal"]).exit_code == 0
    assert game("ntk", "begin", "--seats", "ana", "bo", "--first", "bo").exit_code == 0
    return game


def test_status_json_lists_the_turn_waited_for_and_no_one_absent(ntk: Cok) -> None:
    doc = json.loads(ntk("ntk", "status", "--json").stdout)
    assert doc["turn"] == "bo" and doc["absent"] == []
    assert [(d["step"], d["player"], d["what"]) for d in doc["due"]] == [("turn", "bo", "bo to place an agent")]


def test_a_cok_now_that_is_not_a_moment_is_refused_with_what_to_write(ntk: Cok) -> None:
    run = ntk("ntk", "status", env={"COK_NOW": "thursday-ish"})
    assert (
        run.exit_code == 1 and "COK_NOW='thursday-ish' is not a moment; write it as 2026-12-03T20:00:00Z" in run.stderr
    )


def test_a_step_the_game_does_not_have_is_refused_at_its_line_naming_turn_and_unseal(ntk: Cok) -> None:
    settings = ntk.cwd / "campaign.yaml"
    lines = settings.read_text().count("\n")
    settings.write_text(settings.read_text() + "deadlines: {turns: 48h}\n")
    run = ntk("ntk", "status")
    assert run.exit_code == 1
    assert f"campaign.yaml:{lines + 1}: deadlines.turns: No True King has no step 'turns'" in run.stderr
    assert "its steps: turn, unseal" in run.stderr
