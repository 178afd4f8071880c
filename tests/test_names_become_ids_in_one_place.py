"""Issue #36, "names become ids in one place": in every game, only the spelling step
(`rules/spelling.py`, and No True King's finders in `rules/places.py` that it calls) matches
names as people type them; every other rule module looks names up exactly, so
a newcomer adding a rule has one way to read a name: as the event gives it."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import cok
from cok.rulesets import BUILT_IN

RULESETS = Path(cok.__file__).parent / "rulesets"

#: The functions that match a typed name (case, spaces, punctuation, display names, aliases).
MATCHING = {
    "find",  # cok.core.names.find, NameIndex.find, Geography.find
    "NameIndex",
    "normalize",
    "choose",
    "find_area",
    "find_house",
    "find_card",
    "find_player",
    "player",  # Clash of Kings' spelling.player
    "location",
    "faction",
    "mode",
    "tile",  # Mighty Kingdoms' spelling.tile
    "kingdom_names",  # Mighty Kingdoms' index of kingdoms by their names as typed
    "player_named",  # what that index was asked through before the spelling step
}

#: Where names may be matched: the step itself, and the finders it calls.
SPELLING = {"spelling.py", "places.py"}


def matching_calls(path: Path) -> list[str]:
    """`line: name` of every call in the module to a function that matches typed names."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
        if name in MATCHING:
            found.append(f"{node.lineno}: {name}")
    return found


@pytest.mark.parametrize("game", [module.rsplit(".", 1)[1] for module in BUILT_IN.values()])
def test_no_rule_module_but_the_spelling_step_matches_names(game: str) -> None:
    rules = RULESETS / game / "rules"
    assert (rules / "spelling.py").is_file()
    offenders = {
        path.name: calls
        for path in sorted(rules.glob("*.py"))
        if path.name not in SPELLING and (calls := matching_calls(path))
    }
    assert offenders == {}


def test_cok_modes_finds_a_mode_with_the_spelling_steps_finder_not_its_own() -> None:
    """`cok modes MODE` had a second mode finder beside the spelling step's, in other words."""
    assert matching_calls(RULESETS / "clash_of_kings" / "modes.py") == []


def test_the_walk_sees_a_rule_that_matches_a_name(tmp_path: Path) -> None:
    rule = tmp_path / "rule.py"
    rule.write_text("def decide(state, event):\n    return state.geo.find(event.location)\n")
    assert matching_calls(rule) == ["2: find"]
