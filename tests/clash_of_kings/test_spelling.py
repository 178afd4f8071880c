"""Issue #36, "names become ids in one place": a Clash of Kings event's names are made the
map's and the campaign's own spelling by one step (`rules/spelling.py`), on the way to the
rules for every event (a recording and a replay alike), and the event recorded is the one it
made (contract §1: "the ledger always writes the map's own spelling into the log")."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from cok.core.campaign import open_campaign
from cok.core.events import EventBase
from cok.rulesets.clash_of_kings.rules import apply as rules
from cok.rulesets.clash_of_kings.rules import spelling
from cok.service import Draft, Who, record

from ..conftest import Cok, event, replayed, tiny_map

EXACT = [
    {"type": "join", "player": "tim", "name": "Tim", "faction": "martell", "castle": "Sunspear"},
    {"type": "join", "player": "matt", "faction": "baratheon", "castle": "Storm's End"},
    {"type": "battle", "players": ["tim", "matt"], "location": "Tarth", "attacker": "tim", "winner": "matt"},
    {"type": "battle", "players": ["tim", "matt"], "location": "Tarth", "winner": "tim", "mode": "a-clash-of-kings"},
]

#: The same events as a hand-written log may spell them.
LOOSE = [
    {"type": "join", "player": "tim", "name": "Tim", "faction": "MARTELL", "castle": "sunspear"},
    {"type": "join", "player": "matt", "faction": "Baratheon", "castle": "storms end"},
    {"type": "battle", "players": ["tim", "matt"], "location": "TARTH", "attacker": "tim", "winner": "matt"},
    {"type": "battle", "players": ["tim", "matt"], "location": "tarth", "winner": "tim", "mode": "A Clash of Kings"},
]


def written(folder: Path, events: list[dict[str, Any]]) -> Path:
    (folder / "events.yaml").write_text(yaml.safe_dump(events, sort_keys=False))
    return folder


def test_a_hand_written_log_in_other_spellings_folds_to_the_state_of_the_exact_one(campaign: Path) -> None:
    exact = open_campaign(written(campaign, EXACT), use_cache=False)
    loose = open_campaign(written(campaign, LOOSE), use_cache=False)
    assert exact.problems == [] and loose.problems == []
    assert loose.state.holder == exact.state.holder == {"Sunspear": "tim", "Storm's End": "matt", "Tarth": "tim"}
    assert {p: s.faction for p, s in loose.state.players.items()} == {"tim": "martell", "matt": "baratheon"}
    assert loose.state.records == exact.state.records
    assert loose.state.held_cp == exact.state.held_cp


def test_the_fold_makes_each_events_names_exact_once(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[EventBase] = []

    def counted(state: Any, given: EventBase) -> EventBase:
        seen.append(given)
        return spelling.spelled(state, given)

    monkeypatch.setattr(rules, "spelled", counted)
    log = [
        {"type": "join", "player": "tim", "faction": "stark", "castle": "a"},
        {"type": "join", "player": "matt", "faction": "Stark", "castle": "C"},
        {"type": "battle", "players": ["tim", "matt"], "location": "b", "attacker": "tim", "winner": "tim"},
        {"type": "week"},
    ]
    folded = replayed(tiny_map("A:castle B:fort C:castle", "A-B B-C"), log)
    assert folded.problems == []
    assert [e.type for e in seen] == ["join", "join", "battle", "week"]
    assert folded.state.holder == {"A": "tim", "C": "matt", "B": "tim"}


def test_names_already_exact_leave_the_event_as_it_is() -> None:
    joined = {"type": "join", "player": "tim", "faction": "stark", "castle": "A"}
    state = replayed(tiny_map("A:castle B:fort", "A-B"), [joined]).state
    battle = event({"type": "battle", "players": ["tim", "matt"], "location": "B", "mode": "a-game-of-thrones"})
    assert spelling.spelled(state, battle) is battle
    loose = event({"type": "battle", "players": ["tim", "matt"], "location": "b", "abandon": "a"})
    assert (spelling.spelled(state, loose).location, spelling.spelled(state, loose).abandon) == ("B", "A")


def test_a_join_typed_loosely_is_written_in_the_maps_spelling(cok: Cok, campaign: Path) -> None:
    run = cok("join", "ned", "--faction", "Night's Watch", "--castle", "castle black")
    assert run.exit_code == 0, run.stderr
    text = (campaign / "events.yaml").read_text()
    assert "faction: nights-watch" in text and "castle: Castle Black" in text


def test_a_battle_typed_loosely_is_written_in_the_maps_spelling(cok: Cok, campaign: Path) -> None:
    assert cok("join", "tim", "--faction", "martell", "--name", "Tim Smith").exit_code == 0
    assert cok("join", "matt", "--faction", "baratheon").exit_code == 0
    typed = ("--at", "tarth", "--attacker", "Tim Smith", "--winner", "tim smith", "--mode", "A Clash of Kings")
    run = cok("battle", "TIM SMITH", "Matt", *typed)
    assert run.exit_code == 0, run.stderr
    (battle,) = [e for e in yaml.safe_load((campaign / "events.yaml").read_text()) if e["type"] == "battle"]
    assert (battle["players"], battle["attacker"], battle["winner"]) == (["tim", "matt"], "tim", "tim")
    assert (battle["location"], battle["mode"]) == ("Tarth", "a-clash-of-kings")


def test_a_draft_sent_by_a_page_or_the_api_is_written_in_the_maps_spelling(campaign: Path) -> None:
    organiser = Who("org", organiser=True)
    record(campaign, [Draft("join", {"player": "tim", "faction": "Martell", "castle": "SUNSPEAR"})], by=organiser)
    record(campaign, [Draft("join", {"player": "matt", "faction": "baratheon"})], by=organiser)
    fields = {
        "players": ["tim", "matt"],
        "location": "TARTH",
        "attacker": "tim",
        "winner": "matt",
        "mode": "a game of thrones",
    }
    record(campaign, [Draft("battle", fields)], by=organiser)
    join, _, battle = yaml.safe_load((campaign / "events.yaml").read_text())
    assert (join["faction"], join["castle"]) == ("martell", "Sunspear")
    assert (battle["location"], battle["mode"]) == ("Tarth", "a-game-of-thrones")


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (
            ("battle", "tim", "matt", "--at", "tarht", "--winner", "tim"),
            "unknown location 'tarht' (did you mean 'Tarth'?)",
        ),
        (("battle", "tim", "matt", "--at", "Tarth", "--winner", "tim", "--mode", "a clash of kigns"), "did you mean"),
        (("battle", "tim", "mat", "--at", "Tarth", "--winner", "tim"), "unknown player 'mat' (did you mean 'matt'?)"),
        (("join", "ned", "--faction", "Nights Wach"), "unknown faction 'Nights Wach' (did you mean 'nights-watch'?)"),
        (("join", "ned", "--faction", "stark", "--castle", "winterfel"), "(did you mean 'Winterfell'?)"),
    ],
)
def test_an_unknown_name_is_refused_with_did_you_mean_and_nothing_written(
    cok: Cok, campaign: Path, args: tuple[str, ...], said: str
) -> None:
    assert cok("join", "tim", "--faction", "martell").exit_code == 0
    assert cok("join", "matt", "--faction", "baratheon").exit_code == 0
    before = (campaign / "events.yaml").read_bytes()
    run = cok(*args)
    assert run.exit_code == 1
    assert said in run.stderr and "Traceback" not in run.stderr
    assert (campaign / "events.yaml").read_bytes() == before


def test_a_hand_written_unknown_name_is_a_problem_at_its_line(campaign: Path) -> None:
    loose = [*LOOSE[:2], {**LOOSE[2], "location": "tarht"}]
    opened = open_campaign(written(campaign, loose), use_cache=False)
    (problem,) = opened.problems
    assert problem.line is not None and problem.line > 1
    assert "unknown location 'tarht' (did you mean 'Tarth'?)" in problem.message
