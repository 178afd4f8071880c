"""Campaigns the service tests record to: a Clash of Kings one with two players, and the
shipped examples of every game."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from ..conftest import ROOT


def shipped(tmp_path: Path, name: str) -> Path:
    """A copy of a shipped example campaign (its map its own), safe to append to."""
    folder = tmp_path / name
    shutil.copytree(ROOT / "campaigns" / name, folder)
    return folder


@pytest.fixture
def two(campaign: Path) -> Path:
    """Tim (Martell, at Sunspear) and Matt (Lannister, at Casterly Rock), week 1."""
    (campaign / "events.yaml").write_text(
        "- type: join\n  player: tim\n  name: Tim\n  faction: martell\n  id: j1\n"
        "- type: join\n  player: matt\n  name: Matt\n  faction: lannister\n  id: j2\n"
    )
    return campaign


def log_of(folder: Path) -> str:
    return (folder / "events.yaml").read_text()
