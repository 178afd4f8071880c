"""Issue 45: the game's members in the protocol. What the service (and the chat) read of a
game is declared on the `Ruleset` protocol with its default in `Game`, never found by
`getattr`; a setting such as `confirm:` is read once, from the game's settings model."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from cok.core.ruleset import Game, Ruleset

SRC = Path(__file__).resolve().parents[2] / "src" / "cok"
MEMBERS = ("refusal", "notify_kinds", "notify_waits", "notify_ended", "notify_opened")


def test_each_member_the_service_reads_of_a_game_is_declared_with_its_default() -> None:
    declared = set(vars(Ruleset)) | set(Ruleset.__annotations__)
    assert [m for m in MEMBERS if m not in declared] == []
    game = Game()
    assert game.refusal(None, "join", {}, "tim") is None
    assert game.notify_kinds == {} and game.notify_waits(None) is None  # type: ignore[arg-type]
    assert game.notify_ended(None) is None and game.notify_opened(None) is None  # type: ignore[arg-type]


def test_no_module_finds_a_games_member_by_getattr() -> None:
    found = []
    for path in SRC.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            named = isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id
            if named in ("getattr", "hasattr") and "ruleset" in ast.unparse(node.args[0]).lower():  # type: ignore[union-attr]
                found.append(f"{path.relative_to(SRC)}:{node.lineno} {ast.unparse(node)}")  # type: ignore[union-attr]
    assert found == []


def test_confirm_is_read_once_from_the_settings_model(two: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from cok.core import settings
    from cok.core.campaign import open_campaign
    from cok.service import confirming

    read: list[str] = []
    model = settings.read_settings
    monkeypatch.setattr(settings, "read_settings", lambda text, shown: read.append(shown) or model(text, shown))
    settings_file = two / "campaign.yaml"
    settings_file.write_text(settings_file.read_text() + "confirm: required\n")
    campaign = open_campaign(two)
    read.clear()
    assert confirming.required(campaign) and confirming.required(campaign) and confirming.required(campaign)
    assert len(read) == 1
