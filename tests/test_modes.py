"""The game modes catalogue (package data) and the campaign's allowed modes."""

from __future__ import annotations

from cok.modes import catalogue
from cok.rules.state import Settings


def test_both_source_modes_are_in_the_catalogue_with_set_up_rules_and_scoring() -> None:
    modes = catalogue()
    assert list(modes) == ["a-clash-of-kings", "a-game-of-thrones"]
    for mode in modes.values():
        assert mode.setup and mode.rules and mode.scoring and mode.deployment


def test_the_rules_default_to_every_known_mode() -> None:
    assert Settings().modes == tuple(catalogue())
