"""Every game's map file is read by the same steps (`cok.core.maps.read_spec`): the same
mistakes get the same words, with their lines, in every game."""

from __future__ import annotations

import pytest

from cok.core import ruleset as registry
from cok.core.errors import Refused
from cok.rulesets import BUILT_IN, install

install()
GAMES = list(BUILT_IN)  # the shipped games (a test may register a toy one)


def problems(game: str, text: str) -> list[tuple[int | None, str]]:
    with pytest.raises(Refused) as refused:
        registry.get(game).load_map(text, "the-map.yaml")
    return [(p.line, p.message) for p in refused.value.problems]


@pytest.mark.parametrize("game", GAMES)
def test_a_map_file_that_is_no_mapping_is_refused_naming_the_keys_a_map_has(game: str) -> None:
    [(line, message)] = problems(game, "- just\n- a list\n")
    assert line == 1 and "must be a mapping with `name`" in message


@pytest.mark.parametrize("game", GAMES)
def test_a_misspelt_key_is_refused_on_its_line_with_the_key_meant(game: str) -> None:
    found = problems(game, "name: Somewhere\nnaem: x\n")
    assert (2, "unknown field 'naem' (did you mean 'name'?)") in found


@pytest.mark.parametrize("game", GAMES)
def test_every_key_a_map_needs_is_named_when_missing(game: str) -> None:
    needed = [k for k, f in registry.get(game).map_model.model_fields.items() if f.is_required() and k != "name"]
    found = [message for _, message in problems(game, "name: Somewhere\n")]
    assert needed and all(any(message.endswith(f"needs `{key}`") for message in found) for key in needed)
    assert len(found) == len(needed)  # each said once


@pytest.mark.parametrize("game", GAMES)
def test_a_name_that_is_not_text_is_refused_on_its_line(game: str) -> None:
    found = problems(game, "other: 1\nname: [1, 2]\n")
    assert any(line == 2 and "`name` must be text" in message for line, message in found)
