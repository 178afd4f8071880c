"""The core's shared machinery on a No True King game: void, the merge driver, the
resolution's clockwise turn, and card effects the player may decline."""

from __future__ import annotations

import shutil
from pathlib import Path

from cok.core.campaign import open_campaign
from cok.core.merge import merge_logs
from tests.conftest import Cok
from tests.no_true_king.game import ROOT
from tests.no_true_king.helpers import begun, fight, give, placed, put, rec

EXAMPLE = ROOT / "campaigns" / "no-true-king-example"


def test_after_resolving_the_active_player_rotates_clockwise() -> None:
    spaces = (
        [("stark", "maester"), ("tyrell", "maester"), ("greyjoy", "maester")]
        + [(h, "lord") for h in ("stark", "tyrell", "greyjoy", "lannister", "baratheon")]
        + [("lannister", "maester")]
    )
    state = placed(spaces)
    active = [state.active]
    for house in ("stark", "tyrell", "greyjoy"):
        player = state.active
        rec(state, type="resolve", player=player, house=house, space="maester", actions=[{"draw": True}])
        active.append(state.active)
    assert active == ["ana", "bo", "cy", "cy"]  # only cy has a maester left (lannister)


def test_card_effects_may_be_declined() -> None:
    state = begun()
    put(state, "Riverrun", "lannister", f=2)
    put(state, "Stoney Sept", "greyjoy", f=1)
    give(state, "bo", "lannister")
    state.agents[("lannister", "lord")] = "cy"
    fought = fight(
        state,
        "lannister",
        "Riverrun",
        "Stoney Sept",
        ["footman", "footman"],
        cards={"bo": "Cersei Lannister"},
        retreat="Blackwater",
    )
    assert fought.winner == "lannister" and fought.removed is None


def test_voiding_the_last_exchange_reopens_it(tmp_path: Path) -> None:
    folder = tmp_path / "game"
    shutil.copytree(EXAMPLE, folder)
    text = (folder / "events.yaml").read_text()
    last_unseal = text.rindex("- type: unseal")
    ident = text[last_unseal:].split("id: ", 1)[1].split("\n", 1)[0]
    run = Cok(folder)("void", ident, "--reason", "recorded too early")
    assert run.exit_code == 0, run.stderr
    state = open_campaign(folder, use_cache=False).state
    assert state.phase == "unseal" and sum(not p.unsealed for p in state.players.values()) == 1


def test_the_merge_driver_keeps_both_branches_new_events_and_checks_them_on_the_rules() -> None:
    text = (EXAMPLE / "events.yaml").read_text()
    blocks = text.split("\n- type: ")
    base = "\n- type: ".join(blocks[:8]) + "\n"  # setup and the first placements
    ours = "\n- type: ".join(blocks[:9]) + "\n"
    merged = merge_logs(base, ours, base, EXAMPLE)
    assert merged.clean and merged.text == ours
    clash = merge_logs(base, ours, ours.replace("space: maester", "space: lord", 1), EXAMPLE)
    assert not clash.clean
