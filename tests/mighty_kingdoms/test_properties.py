"""Properties of every valid campaign (issue #11): played by chance, checked after each event."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cok.rulesets.mighty_kingdoms.rules import phase as phases
from cok.rulesets.mighty_kingdoms.rules.state import ROOM, Settings, State

from .play import Table, indexes_agree, new_state

#: Whole processes, fuzzing or random campaigns: left out of the quick run (`-m 'not slow'`).
pytestmark = pytest.mark.slow

GAMES = settings(max_examples=25, deadline=None, derandomize=True)
KINDS = st.sampled_from(
    [
        Settings(advanced=("wizards-towers",)),
        Settings(army_limit=2),
        Settings(battles="kings-of-war", army_limit=3, advanced=("wizards-towers",)),
    ]
)


def play(seed: int, rules: Settings, kingdoms: int, check: Callable[[State], None]) -> None:
    table = Table(new_state(rules), seed, kingdoms)
    while len(table.log) < 500:
        table.step()
        check(table.state)


@GAMES
@given(seed=st.integers(0, 10**6), rules=KINDS, kingdoms=st.integers(2, 5))
def test_a_tile_has_at_most_one_settlement(seed: int, rules: Settings, kingdoms: int) -> None:
    def check(state: State) -> None:
        assert all(kind in ROOM for kind in state.settlement.values())  # one value per tile, by construction
        capitals = [t for t, kind in state.settlement.items() if kind == "capital"]
        owners = [k.capital for k in state.kingdoms.values() if k.capital is not None]
        assert sorted(capitals) == sorted(owners)  # a capital is some kingdom's, and only one

    play(seed, rules, kingdoms, check)


@GAMES
@given(seed=st.integers(0, 10**6), rules=KINDS, kingdoms=st.integers(2, 5))
def test_armies_never_exceed_the_army_limit(seed: int, rules: Settings, kingdoms: int) -> None:
    def check(state: State) -> None:
        for player in state.kingdoms:
            assert len(state.armies_of(player)) <= state.settings.army_limit

    play(seed, rules, kingdoms, check)


@GAMES
@given(seed=st.integers(0, 10**6), rules=KINDS, kingdoms=st.integers(2, 5))
def test_resources_are_never_negative(seed: int, rules: Settings, kingdoms: int) -> None:
    def check(state: State) -> None:
        for kingdom in state.kingdoms.values():
            assert kingdom.gold >= 0 and kingdom.food >= 0
        assert all(a.points >= 100 for a in state.armies.values())

    play(seed, rules, kingdoms, check)


@GAMES
@given(seed=st.integers(0, 10**6), rules=KINDS, kingdoms=st.integers(2, 5))
def test_deployments_stay_within_their_limits(seed: int, rules: Settings, kingdoms: int) -> None:
    def check(state: State) -> None:
        if not state.winter_begun:  # deployments happen after the winter's recall
            return
        for tile in {a.tile for a in state.armies.values() if a.deployed}:
            here = [a for a in state.armies.values() if a.deployed and a.tile == tile]
            player = here[0].player
            assert {a.player for a in here} == {player}
            assert state.control.get(tile) == player
            assert len(here) <= ROOM[state.settlement_for(tile, player) or ""]

    play(seed, rules, kingdoms, check)


@GAMES
@given(seed=st.integers(0, 10**6), kingdoms=st.integers(2, 5))
def test_a_wizards_tower_is_never_entered(seed: int, kingdoms: int) -> None:
    rules = Settings(advanced=("wizards-towers",))

    def check(state: State) -> None:
        assert not state.towers & {a.tile for a in state.armies.values()}
        assert not state.towers & set(state.control)
        assert not state.towers & set(state.settlement)

    play(seed, rules, kingdoms, check)


@GAMES
@given(seed=st.integers(0, 10**6), rules=KINDS, kingdoms=st.integers(2, 5))
def test_the_phase_machine_always_waits_for_something(seed: int, rules: Settings, kingdoms: int) -> None:
    def check(state: State) -> None:
        assert phases.phase(state) in ("setup", "orders", "resolution", "battles", "reform", "winter", "deploy")
        assert phases.waiting_for(state)

    play(seed, rules, kingdoms, check)


@GAMES
@given(seed=st.integers(0, 10**6), rules=KINDS, kingdoms=st.integers(2, 5))
def test_the_indexes_of_the_state_agree_with_a_scan_of_every_army(seed: int, rules: Settings, kingdoms: int) -> None:
    from cok.core.plain import Decoder, encode
    from cok.rulesets.mighty_kingdoms import RULESET

    seen = 0

    def check(state: State) -> None:
        nonlocal seen
        indexes_agree(state)
        seen += 1
        if seen % 50 == 0:  # and built again from the cache's plain data
            indexes_agree(Decoder(RULESET.cached_types)(encode(state)))

    play(seed, rules, kingdoms, check)
