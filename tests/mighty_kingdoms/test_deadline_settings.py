"""campaign.yaml's deadlines for a Mighty Kingdoms campaign (issue 48): its steps and each
step's defaults are the game's own, and anything else is refused at its line with what would
be accepted, nothing written."""

from __future__ import annotations

from pathlib import Path

import pytest

from ..conftest import Cok
from .game import MAP_TEXT


@pytest.fixture
def marches(tmp_path: Path) -> Path:
    folder = tmp_path / "marches"
    folder.mkdir()
    (folder / "map.yaml").write_text(MAP_TEXT)
    (folder / "events.yaml").write_text("")
    return folder


def refused(folder: Path, extra: str) -> str:
    (folder / "campaign.yaml").write_text(f"name: Marches\nruleset: mighty-kingdoms\nmap: map.yaml\n{extra}")
    run = Cok(folder)("mk", "status")
    assert run.exit_code == 1 and "Traceback" not in run.stderr
    assert (folder / "events.yaml").read_text() == ""
    return run.stdout + run.stderr


def test_a_step_mighty_kingdoms_does_not_have_is_refused_at_its_line_naming_its_steps(marches: Path) -> None:
    said = refused(marches, "deadlines:\n  orders: 48h\n  turn: 24h\n")
    assert "campaign.yaml:6" in said and "turn" in said
    assert all(step in said for step in ("orders", "resolution", "battles", "reform", "winter"))


def test_a_battle_has_no_default_but_none(marches: Path) -> None:
    said = refused(marches, "deadlines: {battles: 24h}\ndefaults: {battles: defend}\n")
    assert "campaign.yaml:5" in said and "none" in said


def test_the_orders_default_is_defend_or_none(marches: Path) -> None:
    said = refused(marches, "deadlines: {orders: 24h}\ndefaults: {orders: move}\n")
    assert "defend" in said and "none" in said


def test_every_step_and_default_of_the_game_is_accepted(marches: Path) -> None:
    (marches / "campaign.yaml").write_text(
        "name: Marches\nruleset: mighty-kingdoms\nmap: map.yaml\ntimezone: Europe/London\n"
        "deadlines: {orders: thursday 20:00, resolution: 24h, battles: 2d, reform: 24h, winter: 3d}\n"
        "defaults: {orders: defend, resolution: as-ordered, battles: none, reform: reform, winter: feed-and-deploy}\n"
    )
    run = Cok(marches)("mk", "status")
    assert run.exit_code == 0, run.stderr
