"""Campaigns the service tests record to: a Clash of Kings one with two players, and the
shipped examples of every game."""

from __future__ import annotations

import dataclasses
import shutil
from pathlib import Path
from typing import Any

import pytest

from ..conftest import ROOT, WESTEROS


def shipped(tmp_path: Path, name: str) -> Path:
    """A copy of a shipped example campaign (its map beside it), safe to append to."""
    folder = tmp_path / name
    shutil.copytree(ROOT / "campaigns" / name, folder)
    if not (folder / "map.yaml").exists():
        shutil.copyfile(WESTEROS, folder / "map.yaml")
        text = (folder / "campaign.yaml").read_text()
        (folder / "campaign.yaml").write_text(text.replace("../../maps/westeros.yaml", "map.yaml"))
    return folder


@pytest.fixture
def two(campaign: Path) -> Path:
    """Tim (Martell, at Sunspear) and Matt (Lannister, at Casterly Rock), week 1."""
    (campaign / "events.yaml").write_text(
        "- type: join\n  player: tim\n  name: Tim\n  faction: martell\n  id: j1\n"
        "- type: join\n  player: matt\n  name: Matt\n  faction: lannister\n  id: j2\n"
    )
    return campaign


def same_data(value: Any) -> Any:
    """A state as plain data in one order, whatever order its sets and dicts were built in."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        fields = [f.name for f in dataclasses.fields(value) if f.name != "geo"]  # the map: no event changes it
        return {name: same_data(getattr(value, name)) for name in fields}
    if isinstance(value, dict):
        return sorted(((same_data(k), same_data(v)) for k, v in value.items()), key=repr)
    if isinstance(value, (set, frozenset)):
        return sorted((same_data(v) for v in value), key=repr)
    if isinstance(value, (list, tuple)):
        return [same_data(v) for v in value]
    return value


def log_of(folder: Path) -> str:
    return (folder / "events.yaml").read_text()
