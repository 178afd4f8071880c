"""The battle game modes a Clash of Kings battle may be played in (package data)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from importlib import resources

import yaml

from cok.core.names import NameIndex


@dataclass(frozen=True)
class Mode:
    id: str
    name: str
    summary: str
    deployment: str
    setup: tuple[str, ...]
    rules: tuple[str, ...]
    scoring: tuple[str, ...]


@cache
def catalogue() -> dict[str, Mode]:
    """The known game modes, by id, from `modes.yaml` beside this module."""
    text = resources.files(__package__).joinpath("modes.yaml").read_text(encoding="utf-8")
    modes = {}
    for entry in yaml.safe_load(text):
        mode = Mode(
            id=entry["id"],
            name=entry["name"],
            summary=entry["summary"],
            deployment=entry["deployment"],
            setup=tuple(entry["setup"]),
            rules=tuple(entry["rules"]),
            scoring=tuple(entry["scoring"]),
        )
        modes[mode.id] = mode
    return modes


def allowed_modes(campaign_modes: tuple[str, ...] | None) -> list[str]:
    """The modes a campaign's battles may be played in: its own list, else every known mode."""
    return list(campaign_modes) if campaign_modes is not None else list(catalogue())


def find_mode(typed: str, allowed: list[str]) -> str:
    """The mode's id as typed in any spelling (`A Clash of Kings`), if the campaign allows it."""
    return NameIndex(allowed, "game mode").find(typed)
