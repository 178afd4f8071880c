"""One decider (#26): deciding an event never changes the state; committing applies what was
decided. A dry run, a phone's preview and a refused batch then leave the state as it was."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from cok.core.campaign import open_campaign
from cok.core.log import read_log
from cok.core.yamlfile import read_file
from cok.rulesets.mighty_kingdoms import RULESET
from cok.rulesets.mighty_kingdoms.rules.apply import commit, decide
from cok.rulesets.mighty_kingdoms.rules.state import State

from ..conftest import Cok
from .examples import KINGS_OF_WAR, SIMPLE
from .game import Game
from .play import new_state
from .test_cli import ANA, begun, mk, ok

__all__ = ["mk"]  # the campaign fixture, shared with the command-line tests


#: A memo of the names `find_player` matches, made when first asked: not the state.
MEMO = {"_players", "_players_of"}


def everything(state: State) -> dict[str, Any]:
    """The state's every attribute, its indexes included (an army compares by its fields)."""
    return {k: v for k, v in vars(state).items() if k not in MEMO}


@pytest.mark.parametrize("folder", [SIMPLE, KINGS_OF_WAR], ids=["simple", "kings-of-war"])
def test_deciding_every_event_of_the_examples_leaves_the_state_as_it_was(folder: Path) -> None:
    settings = open_campaign(folder, use_cache=False).state.settings
    state = new_state(settings, folder / "map.yaml")
    raw, text = read_file(folder / "events.yaml", "event log")
    entries = read_log(raw, text, "events.yaml", RULESET).entries
    for entry in entries:
        before = copy.deepcopy(everything(state))
        outcome = decide(state, entry.event)
        assert everything(state) == before, f"deciding the event on line {entry.line} changed the state"
        commit(outcome, state)
    assert len(entries) > 50 and state == open_campaign(folder, use_cache=False).state


def test_a_decided_outcome_committed_twice_to_copies_gives_equal_states() -> None:
    """Committing needs nothing but the outcome: the same outcome on two equal states."""
    game = Game().two_kingdoms()
    game.orders(**{"ana-1": "move 0,0", "bo-1": "defend"})
    twin = copy.deepcopy(game.state)
    event = RULESET.events["resolve"].model_validate({"type": "resolve", "army": "ana-1", "roll": [5, 5]})
    outcome = decide(game.state, event)
    commit(outcome, game.state)
    commit(outcome, twin)
    assert game.state == twin and game.state.settlement["0,0"] == "city"


def test_a_recording_document_leaves_out_what_only_the_commit_needs(mk: Cok) -> None:
    run = mk(*ANA, "--dry-run", "--json")
    assert run.exit_code == 0, run.stderr
    outcome = json.loads(run.stdout)["outcome"]
    assert set(outcome) == {"type", "player", "capital", "tiles", "army", "army_tile"}


def last_id(mk: Cok) -> str:
    raw, text = read_file(mk.cwd / "events.yaml", "event log")
    event_id = read_log(raw, text, "events.yaml", RULESET).entries[-1].event.id
    assert event_id is not None
    return event_id


def test_a_second_order_names_the_recorded_order_by_the_id_cok_void_takes(mk: Cok) -> None:
    begun(mk)
    ok(mk, "mk", "order", "ana-1", "defend")
    order_id = last_id(mk)
    run = mk("mk", "order", "ana-1", "raze")
    assert run.exit_code == 1 and f"cok void {order_id}" in run.stderr
    ok(mk, "void", order_id, "--reason", "wrong order")  # the command it names works
    ok(mk, "mk", "order", "ana-1", "raze")


def test_a_resolve_document_says_whom_a_tile_was_taken_from(mk: Cok) -> None:
    begun(mk)
    ok(mk, "mk", "order", "ana-1", "defend")
    ok(mk, "mk", "order", "bo-1", "defend")
    ok(mk, "mk", "resolve", "ana-1")
    run = mk("mk", "resolve", "bo-1", "--json")
    assert run.exit_code == 0, run.stderr
    assert json.loads(run.stdout)["outcome"]["taken_from"] is None
