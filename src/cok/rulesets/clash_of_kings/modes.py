"""The battle game modes a Clash of Kings battle may be played in (package data)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from importlib import resources

import yaml


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
    """The mode's id as typed in any spelling (`A Clash of Kings`), among the modes `cok modes`
    shows: the spelling step's mode finder (`rules/spelling.py`), in that command's words."""
    from cok.rulesets.clash_of_kings.rules.spelling import listed_mode

    return listed_mode(typed, allowed, "`cok modes`", "shows")
