"""Getting Started: starting castles, "No more castles!", and joining once."""

from __future__ import annotations

from pathlib import Path

import pytest

from cok.core.errors import ChoiceNeeded, RuleError
from cok.rulesets.clash_of_kings.map import Geography, Location

from ..conftest import Cok, play, tiny_map


def homes_map() -> Geography:
    geo = tiny_map("W:castle S:castle V:village F:fort G:fort R:region X:village", "W-V V-F F-R R-G G-S S-X")
    geo.locations["W"] = Location("W", "castle", home=("stark",))
    return geo


def test_joining_with_a_named_castle_gives_that_castle() -> None:
    state = play(homes_map(), [{"type": "join", "player": "tim", "faction": "martell", "castle": "s"}])
    assert state.territories("tim") == {"S"}


def test_you_receive_the_traditional_home_of_your_faction_if_available() -> None:
    state = play(homes_map(), [{"type": "join", "player": "sara", "faction": "Stark"}])
    assert state.territories("sara") == {"W"}
    assert state.players["sara"].faction == "stark"


def test_when_the_home_is_taken_the_error_lists_the_free_castles() -> None:
    with pytest.raises(ChoiceNeeded, match=r"held by sara; a free `castle` must be chosen") as caught:
        play(
            homes_map(),
            [
                {"type": "join", "player": "sara", "faction": "stark"},
                {"type": "join", "player": "rob", "faction": "stark"},
            ],
        )
    assert caught.value.options == ["S"]


def test_a_faction_without_a_home_must_choose_a_castle() -> None:
    with pytest.raises(ChoiceNeeded, match=r"no castle on the map is the home of martell") as caught:
        play(homes_map(), [{"type": "join", "player": "tim", "faction": "martell"}])
    assert caught.value.options == ["W", "S"]


def test_a_named_castle_must_be_a_castle() -> None:
    with pytest.raises(RuleError, match="F is a fort, not a castle"):
        play(homes_map(), [{"type": "join", "player": "tim", "faction": "martell", "castle": "F"}])


def test_a_named_castle_must_be_unoccupied() -> None:
    with pytest.raises(RuleError, match="S is already held by tim"):
        play(
            homes_map(),
            [
                {"type": "join", "player": "tim", "faction": "martell", "castle": "S"},
                {"type": "join", "player": "matt", "faction": "martell", "castle": "S"},
            ],
        )


def test_a_player_joins_once() -> None:
    with pytest.raises(RuleError, match="tim has already joined"):
        play(
            homes_map(),
            [
                {"type": "join", "player": "tim", "faction": "martell", "castle": "S"},
                {"type": "join", "player": "tim", "faction": "stark"},
            ],
        )


def test_an_unknown_faction_gets_did_you_mean() -> None:
    with pytest.raises(RuleError, match=r"unknown faction 'strak' \(did you mean 'stark'"):
        play(homes_map(), [{"type": "join", "player": "tim", "faction": "strak"}])


ALL_TAKEN = [
    {"type": "join", "player": "sara", "faction": "stark", "castle": "W"},
    {"type": "join", "player": "tim", "faction": "martell", "castle": "S"},
]


def test_when_all_castles_are_occupied_you_may_select_three_adjacent_territories() -> None:
    state = play(
        homes_map(),
        [*ALL_TAKEN, {"type": "join", "player": "jon", "faction": "nights-watch", "territories": ["V", "F", "G"]}],
    )
    # F and G are adjacent through the region R, V and F directly.
    assert state.territories("jon") == {"V", "F", "G"}


def test_with_every_castle_held_a_plain_join_asks_for_territories() -> None:
    with pytest.raises(RuleError, match="every castle is held: give `territories`"):
        play(homes_map(), [*ALL_TAKEN, {"type": "join", "player": "jon", "faction": "stark"}])


def test_three_territories_only_when_every_castle_is_occupied() -> None:
    with pytest.raises(RuleError, match=r"only for when every castle is held.*free castles: S"):
        play(
            homes_map(),
            [
                ALL_TAKEN[0],
                {"type": "join", "player": "jon", "faction": "neutral", "territories": ["V", "F", "G"]},
            ],
        )


@pytest.mark.parametrize(
    ("territories", "message"),
    [
        (["V", "F"], "exactly three"),
        (["V", "F", "v"], "three different"),
        (["V", "F", "R"], "R is a region"),
        (["V", "F", "W"], "W is already held by sara"),
        (["V", "F", "X"], "not connected"),
    ],
)
def test_the_three_territories_must_be_distinct_unoccupied_holdable_and_connected(
    territories: list[str], message: str
) -> None:
    with pytest.raises(RuleError, match=message):
        play(
            homes_map(),
            [*ALL_TAKEN, {"type": "join", "player": "jon", "faction": "neutral", "territories": territories}],
        )


def test_a_later_join_in_the_log_lists_the_free_castles_once_and_how_to_void_it(example: Path) -> None:
    with (example / "events.yaml").open("a") as log:
        log.write("- type: join\n  player: zed\n  faction: martell\n")
    run = Cok(example)("check")
    assert run.exit_code == 1
    assert run.stderr.count("The free castles: ") == 1 and run.stderr.count("Hardhome") == 1
    assert "void it (`cok void =" in run.stderr


def test_a_later_join_on_the_command_line_lists_each_free_castle_once(example: Path) -> None:
    run = Cok(example)("join", "zed", "--faction", "martell")
    assert run.exit_code == 1
    assert run.stderr.count("Hardhome") == 1 and "recorded before" not in run.stderr
