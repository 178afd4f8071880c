"""Issue 39 for No True King: nothing sealed is ever posted (only `cok log`'s public
sentences), and the conspiracy whose turn it is gets the nudge."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import Cok
from tests.notify.conftest import Fake

HOUSES = ["baratheon", "stark", "lannister", "greyjoy", "tyrell"]


def test_nothing_sealed_is_ever_posted_and_the_conspiracy_whose_turn_it_is_is_nudged(
    tmp_path: Path, fake: Fake
) -> None:
    assert Cok(tmp_path)("init", "game", "--ruleset", "no-true-king").exit_code == 0
    ntk = Cok(tmp_path / "game")
    ntk("notify", "add", fake.url)
    ntk("invite", "bo", "--new", "--mention", "@bo")
    secrets = []
    for player, symbol in (("ana", "crown"), ("bo", "torch")):
        made = json.loads(ntk("ntk", "seal", player, *HOUSES, "--json").stdout)
        secrets.append(made["secret"])
        assert ntk("ntk", "join", player, "--symbol", symbol, "--seal", made["seal"]).exit_code == 0
    assert ntk("ntk", "begin", "--seats", "ana", "bo", "--first", "bo").exit_code == 0
    assert ntk("notify", "send").exit_code == 0
    told = [e["summary"] for e in json.loads(ntk("log", "--json").stdout)["events"]]
    assert fake.bodies[:3] == told  # two conspiracies joining and the round, in the log's words
    assert fake.bodies[-1] == "The ledger waits for @bo: their turn (placement)."
    posted = "\n".join(fake.bodies)
    assert not any(secret in posted for secret in secrets)
    assert " ".join(HOUSES) not in posted and ",".join(HOUSES) not in posted  # the loyalty card's order
