"""Campaigns the service tests record to: a Clash of Kings one with two players, and the
shipped examples of every game."""

from __future__ import annotations

import shutil
from pathlib import Path

from ..conftest import ROOT


def shipped(tmp_path: Path, name: str) -> Path:
    """A copy of a shipped example campaign (its map its own), safe to append to."""
    folder = tmp_path / name
    shutil.copytree(ROOT / "campaigns" / name, folder)
    return folder


def log_of(folder: Path) -> str:
    return (folder / "events.yaml").read_text()
