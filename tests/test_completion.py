"""Shell completion (#14): Typer's own, completing commands, options and the campaign's names."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from cok.main import app


def completed(folder: Path, words: str, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    monkeypatch.chdir(folder)
    env = {"_COK_COMPLETE": "complete_bash", "COMP_WORDS": words, "COMP_CWORD": str(len(words.split(" ")) - 1)}
    result = CliRunner().invoke(app, [], env=env, prog_name="cok")
    return result.stdout.split()


def test_completion_offers_commands_and_options(example: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert completed(example, "cok ba", monkeypatch) == ["battle"]
    assert "--winner" in completed(example, "cok battle tim matt --w", monkeypatch)


def test_completion_offers_the_campaigns_players_and_locations(example: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert completed(example, "cok battle t", monkeypatch) == ["tim"]
    assert completed(example, "cok battle tim matt --at Storm", monkeypatch) == ["Storm's", "End"]
    assert completed(example, "cok log --player d", monkeypatch) == ["dany"]
    assert "stark" in completed(example, "cok join bob --faction st", monkeypatch)


def test_completion_outside_a_campaign_offers_nothing_and_never_fails(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert completed(tmp_path, "cok battle t", monkeypatch) == []


def test_install_completion_is_offered() -> None:
    assert "--install-completion" in CliRunner().invoke(app, ["--help"]).stdout


def test_completion_offers_no_true_kings_conspiracies_houses_and_spaces(monkeypatch: pytest.MonkeyPatch) -> None:
    from .conftest import ROOT

    ntk = ROOT / "campaigns" / "no-true-king-example"
    assert completed(ntk, "cok ntk place a", monkeypatch) == ["ana"]
    assert completed(ntk, "cok ntk place ana st", monkeypatch) == ["stark"]
    assert completed(ntk, "cok ntk place ana stark ma", monkeypatch) == ["maester", "marshal"]


def test_completion_offers_mighty_kingdoms_order_kinds_and_settlements(monkeypatch: pytest.MonkeyPatch) -> None:
    from .conftest import ROOT

    mk = ROOT / "campaigns" / "mighty-kingdoms"
    assert completed(mk, "cok mk order dag-1 r", monkeypatch) == ["raze", "regroup"]
    assert completed(mk, "cok mk build dag Emberhold fo", monkeypatch) == ["fortress"]


def test_completion_offers_no_true_kings_areas_inside_resolves_words(monkeypatch: pytest.MonkeyPatch) -> None:
    from .conftest import ROOT

    ntk = ROOT / "campaigns" / "no-true-king-example"
    assert completed(ntk, "cok ntk resolve a", monkeypatch) == ["ana"]
    assert completed(ntk, "cok ntk resolve ana st", monkeypatch) == ["stark"]
    assert completed(ntk, "cok ntk resolve ana stark ma", monkeypatch) == ["maester", "marshal"]
    assert completed(ntk, "cok ntk resolve ana stark maester --move Winter", monkeypatch) == ["Winterfell"]
    assert completed(ntk, "cok ntk resolve ana stark maester --move Winterfell Moat", monkeypatch) == ["Moat", "Cailin"]
    assert completed(ntk, "cok ntk resolve ana stark maester --move Winterfell Karhold kn", monkeypatch) == [
        "knight",
        "knights",
    ]
    assert completed(ntk, "cok ntk resolve ana stark maester --muster White", monkeypatch) == ["White", "Harbor="]
    assert completed(ntk, "cok ntk resolve ana stark maester --retreat Karh", monkeypatch) == ["Karhold"]
    assert completed(ntk, "cok ntk resolve ana stark maester --then-move Karh", monkeypatch) == ["Karhold"]
