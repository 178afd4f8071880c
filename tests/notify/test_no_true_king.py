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


def test_a_games_end_is_posted_with_its_scores(tmp_path: Path) -> None:
    import shutil
    from types import SimpleNamespace

    from cok.core.campaign import open_campaign
    from cok.notify.posts import posts
    from tests.conftest import ROOT

    copy = tmp_path / "ntk"
    shutil.copytree(ROOT / "campaigns" / "no-true-king-example", copy)
    campaign = open_campaign(copy)  # over: its last event, cy's unseal, ended it
    last = list(campaign.told())[-1]

    def recorded(state: object) -> object:
        event = SimpleNamespace(type=last.type, id=last.id)
        return SimpleNamespace(event=event, campaign=campaign, state=state, text=last.text, written=True)

    made = posts([recorded(campaign.state)])  # type: ignore[list-item]
    scores = json.loads(Cok(copy)("standings", "--json").stdout)["players"]
    end = [p for p in made if p.kind == "end"]
    assert len(end) == 1 and all(f"{p['rank']}. {p['name']} {p['score']}" in end[0].text for p in scores)
    not_yet = campaign.ruleset.copy(campaign.state)
    not_yet.phase = "unseal"  # an earlier unseal: the game goes on
    assert not [p for p in posts([recorded(not_yet)]) if p.kind == "end"]  # type: ignore[list-item]
