"""One decider (issue #26): `decide` drafts an event's changes without touching the state,
`commit` writes them; a refused event, a dry run and a combat's preview leave the state as it
was, with no copy of it taken."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cok.core.campaign import read, read_entries, set_up
from cok.core.errors import RuleError
from cok.core.events import EventBase
from cok.rulesets.no_true_king import RULESET
from cok.rulesets.no_true_king.preview import preview
from cok.rulesets.no_true_king.rules.apply import commit, decide
from cok.rulesets.no_true_king.rules.overlay import Layer, Overlay
from cok.rulesets.no_true_king.rules.state import State
from tests.no_true_king.game import event_of
from tests.no_true_king.helpers import give, put, resolving
from tests.no_true_king.test_example import EXAMPLE


def snapshot(state: State) -> State:
    return copy.deepcopy(state, {id(state.board): state.board})


def example_events() -> tuple[State, list[EventBase]]:
    files = read(EXAMPLE)
    entries = read_entries(EXAMPLE, files, RULESET).entries
    return set_up(EXAMPLE, files).state, [entry.event for entry in entries]  # type: ignore[attr-defined]


def test_deciding_every_event_of_the_example_leaves_the_state_as_it_was() -> None:
    state, events = example_events()
    assert len(events) > 50
    for event in events:
        before = snapshot(state)
        outcome = decide(state, event)
        assert state == before, f"deciding {RULESET.label(event)} changed the state"
        commit(outcome, state)
    assert state.phase == "over"


def test_committing_what_was_decided_gives_the_state_the_rules_gave_before() -> None:
    """Deciding twice and committing once is the same as applying once: the draft holds the
    whole change, nothing of it is left in the state by the decision."""
    state, events = example_events()
    applied = snapshot(state)
    for event in events:
        decide(state, event)
        commit(decide(state, event), state)
        RULESET.apply(applied, event)
        assert state == applied


def _marshal_moving_after_its_muster(state: State) -> dict[str, Any]:
    resolving(state, "ana", "stark", "marshal")
    put(state, "Winterfell", "stark", f=1)
    return {
        "type": "resolve",
        "player": "ana",
        "house": "stark",
        "space": "marshal",
        "actions": [
            {"muster": {"Winterfell": ["footman"]}},
            {"move": {"from": "Winterfell", "to": "Sunspear", "units": ["footman"]}},
        ],
    }


def test_an_event_refused_half_way_leaves_the_state_as_it_was(begun_state: State) -> None:
    """The muster is drafted, then the move is refused: nothing of the muster is in the state."""
    data = _marshal_moving_after_its_muster(begun_state)
    before = snapshot(begun_state)
    with pytest.raises(RuleError, match="does not border"):
        decide(begun_state, event_of(data))
    assert begun_state == before


def test_the_combat_preview_leaves_the_state_as_it_was(begun_state: State) -> None:
    put(begun_state, "Winterfell", "stark", f=2)
    put(begun_state, "The Stony Shore", "greyjoy", f=1)
    give(begun_state, "ana", "stark")
    before = snapshot(begun_state)
    shown = preview(
        begun_state, "stark", "Winterfell", "The Stony Shore", ["footman", "footman"], {"ana": "Robb Stark"}, "ana"
    )
    assert shown.sides.power["stark"] > 2  # the card was played in the preview's draft
    assert begun_state == before


@pytest.fixture
def begun_state() -> State:
    from tests.no_true_king.helpers import begun

    return begun()


WRITES = st.lists(
    st.tuples(st.sampled_from(["set", "delete"]), st.integers(0, 6), st.integers(0, 9)),
    max_size=30,
)


@given(start=st.dictionaries(st.integers(0, 6), st.integers(0, 9), max_size=5), writes=WRITES)
def test_a_layer_reads_and_iterates_as_the_dict_would_after_the_same_writes(
    start: dict[int, int], writes: list[tuple[str, int, int]]
) -> None:
    """The rules see on a draft what they would see on the state: the same keys, values and
    order (a key deleted and written again comes last), and the commit makes the dict so."""
    plain = dict(start)
    base = dict(start)
    layer = Layer(base)
    for what, key, value in writes:
        if what == "set":
            plain[key] = value
            layer[key] = value
        elif key in plain:
            del plain[key]
            del layer[key]
        else:
            with pytest.raises(KeyError):
                del layer[key]
        assert list(layer.items()) == list(plain.items())
        assert len(layer) == len(plain)
        assert all((k in layer) == (k in plain) for k in range(7))
    assert base == start
    layer.commit(base)
    assert list(base.items()) == list(plain.items())


def test_a_draft_commits_a_dict_the_rules_replaced_whole(begun_state: State) -> None:
    draft = Overlay(begun_state)
    draft.placed = {"ana": 3}
    draft.commit(begun_state)
    assert begun_state.placed == {"ana": 3}
