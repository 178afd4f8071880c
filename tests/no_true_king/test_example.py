"""The shipped example (campaigns/no-true-king-example): built with `cok` itself, three
players with sealed loyalty, every round, every kind of combat, exchanges with reveals,
unsealing, and the final scores the rules give."""

from __future__ import annotations

import hashlib
from typing import Any

import yaml

from cok.core.campaign import open_campaign, read, read_entries, set_up
from cok.core.fold import fold
from cok.rulesets.no_true_king import RULESET
from cok.rulesets.no_true_king.rules.loyalty import score
from cok.rulesets.no_true_king.rules.outcomes import Exchanged, Unsealed
from cok.rulesets.no_true_king.rules.scores import final_standings
from tests.no_true_king.game import ROOT, fights_in

EXAMPLE = ROOT / "campaigns" / "no-true-king-example"
SECRETS = ROOT / "campaigns" / "no-true-king-example-secrets.yaml"


class Keeping:
    def __init__(self) -> None:
        self.outcomes: list[Any] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(RULESET, name)

    def apply(self, state: Any, event: Any) -> Any:
        outcome = RULESET.apply(state, event)
        self.outcomes.append(outcome)
        return outcome


def outcomes() -> tuple[list[Any], Any]:
    files = read(EXAMPLE)
    setup = set_up(EXAMPLE, files)
    keeping = Keeping()
    done = fold(keeping, read_entries(EXAMPLE, files, RULESET).entries, setup.state, "events.yaml")  # type: ignore[arg-type]
    assert done.problems == []
    return keeping.outcomes, done.state


def test_the_example_replays_clean() -> None:
    assert open_campaign(EXAMPLE, use_cache=False).problems == []


def test_the_example_is_a_whole_sealed_game_of_three() -> None:
    _, state = outcomes()
    assert len(state.players) == 3 and state.rounds == 3 and state.round == 3
    assert state.phase == "over" and len(state.ranked) == 3
    text = (EXAMPLE / "events.yaml").read_text()
    assert "loyalty" not in text.split("type: unseal")[0]  # no card before the unsealing


def test_the_example_has_every_kind_of_combat() -> None:
    found, _ = outcomes()
    fights = [f for o in found for f in fights_in(o)]
    kinds = set()
    for f in fights:
        s = f.sides
        kinds.add("sea" if s.sea else "land")
        kinds |= {"fort"} if s.fort else set()
        kinds |= {"tie"} if s.power[s.attacker] == s.power[s.defender] else set()
        kinds.add("retreat" if f.retreat else "all killed")
    assert kinds >= {"land", "sea", "fort", "tie", "retreat", "all killed"}


def test_the_example_has_exchanges_with_reveals_and_unseals_every_card() -> None:
    found, _ = outcomes()
    assert sum(1 for o in found if isinstance(o.result, Exchanged) and o.result.reveal) >= 3
    assert sum(1 for o in found if isinstance(o.result, Unsealed)) == 3


def test_the_example_ends_with_the_scores_the_rules_give() -> None:
    _, state = outcomes()
    table = final_standings(state)
    for standing in table:
        assert standing.score == score(state.players[standing.player].card, state.ranks)
    assert [s.rank for s in table] == [1, 2, 3]
    assert table[0].decided_by is not None


def test_the_players_secrets_beside_the_example_match_the_seals() -> None:
    _, state = outcomes()
    secrets = yaml.safe_load(SECRETS.read_text())
    assert not (EXAMPLE / SECRETS.name).exists()
    for player, kept in secrets.items():
        text = f"ntk-loyalty:{player}:{','.join(kept['loyalty'])}:{kept['secret']}"
        assert hashlib.sha256(text.encode()).hexdigest() == state.players[player].seal
