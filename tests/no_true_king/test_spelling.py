"""Issue #36, "names become ids in one place": a No True King event's areas, cards, houses and
players are made the board's and the game's own by one step (`rules/spelling.py`), on the way
to the rules for every event (a recording and a replay alike), and the event recorded is the
one it made: the log holds the board's spelling, whoever typed it."""

from __future__ import annotations

import json
import shutil
from dataclasses import fields
from pathlib import Path
from typing import Any

import pytest
import yaml

from cok.core.campaign import open_campaign
from cok.core.events import EventBase
from cok.rulesets.no_true_king.events import EVENT_TYPES
from cok.rulesets.no_true_king.rules import apply as rules
from cok.rulesets.no_true_king.rules import spelling
from cok.rulesets.no_true_king.rules.state import State
from tests.conftest import Cok
from tests.no_true_king.game import ROOT, board

EXAMPLE = ROOT / "campaigns" / "no-true-king-example"
HOUSES = ["baratheon", "stark", "lannister", "greyjoy", "tyrell"]


def loosely(value: Any, names: set[str]) -> Any:
    """Every area and card name in the events spelled as a hand-written log might."""
    if isinstance(value, dict):
        return {loosely(k, names): loosely(v, names) for k, v in value.items()}
    if isinstance(value, list):
        return [loosely(v, names) for v in value]
    if isinstance(value, str) and value in names:
        return "jaime lannister" if value == "Ser Jaime Lannister" else value.upper().replace("'", "")
    return value


def state_of(folder: Path) -> dict[str, Any]:
    opened = open_campaign(folder, use_cache=False)
    assert opened.problems == []
    return {f.name: getattr(opened.state, f.name) for f in fields(State) if f.name != "board"}


@pytest.fixture
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("COK_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("COK_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "data"


@pytest.fixture
def ntk(tmp_path: Path, data: Path) -> Cok:
    cok = Cok(tmp_path)
    assert cok("init", "game", "--ruleset", "no-true-king").exit_code == 0
    game = Cok(tmp_path / "game")
    for player, symbol in (("ana", "crown"), ("bo", "torch")):
        made = json.loads(game("ntk", "seal", player, *HOUSES, "--json").stdout)
        assert game("ntk", "join", player, "--symbol", symbol, "--seal", made["seal"]).exit_code == 0
    assert game("ntk", "begin", "--seats", "ana", "bo", "--first", "ana").exit_code == 0
    spots = [("greyjoy", "maester"), ("stark", "maester"), ("lannister", "lord"), ("tyrell", "lord")]
    for i, (house, space) in enumerate([*spots, ("baratheon", "lord"), ("greyjoy", "lord")]):
        assert game("ntk", "place", ("ana", "bo")[i % 2], house, space).exit_code == 0
    return game


def logged(game: Cok) -> list[dict[str, Any]]:
    return list(yaml.safe_load((game.cwd / "events.yaml").read_text()))


def test_a_hand_written_log_in_other_spellings_folds_to_the_state_of_the_exact_one(tmp_path: Path, data: Path) -> None:
    exact = tmp_path / "exact"
    shutil.copytree(EXAMPLE, exact)
    loose = tmp_path / "loose"
    shutil.copytree(EXAMPLE, loose)
    names = set(board().areas) | set(board().cards)
    events = yaml.safe_load((exact / "events.yaml").read_text())
    respelled = loosely(events, names)
    assert respelled != events  # the example's moves, musters, cards and retreats name areas and cards
    (loose / "events.yaml").write_text(yaml.safe_dump(respelled, sort_keys=False))
    assert state_of(loose) == state_of(exact)


def test_the_fold_makes_each_events_names_exact_once(
    tmp_path: Path, data: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[EventBase] = []

    def counted(state: Any, given: EventBase) -> EventBase:
        seen.append(given)
        return spelling.spelled(state, given)

    monkeypatch.setattr(rules, "spelled", counted)
    folder = tmp_path / "example"
    shutil.copytree(EXAMPLE, folder)
    state_of(folder)
    events = [e for e in yaml.safe_load((folder / "events.yaml").read_text()) if e["type"] in EVENT_TYPES]
    assert [e.type for e in seen] == [e["type"] for e in events]


def test_names_already_exact_leave_the_event_as_it_is(tmp_path: Path, data: Path) -> None:
    folder = tmp_path / "example"
    shutil.copytree(EXAMPLE, folder)
    state = open_campaign(folder, use_cache=False).state
    resolve = EVENT_TYPES["resolve"].model_validate(
        {
            "type": "resolve",
            "player": "ana",
            "house": "stark",
            "space": "lord",
            "actions": [{"muster": {"Winterfell": ["footman", {"ship": "Bay of Ice"}], "promote": ["Winterfell"]}}],
            "combat": {"cards": {"ana": "Robb Stark", "bo": None}, "retreat": "Moat Cailin"},
        }
    )
    assert spelling.spelled(state, resolve) is resolve


def test_a_resolve_typed_loosely_is_written_in_the_boards_spelling(ntk: Cok) -> None:
    run = ntk("ntk", "resolve", "ana", "greyjoy", "maester", "--move", "greywater watch", "MOAT CAILIN", "footman")
    assert run.exit_code == 0, run.stderr
    move = logged(ntk)[-1]["actions"][0]["move"]
    assert (move["from"], move["to"]) == ("Greywater Watch", "Moat Cailin")


def test_a_card_typed_loosely_is_written_in_the_boards_spelling(ntk: Cok) -> None:
    moved = ntk("ntk", "resolve", "ana", "greyjoy", "maester", "--move", "Greywater Watch", "Moat Cailin", "footman")
    assert moved.exit_code == 0, moved.stderr
    assert ntk("ntk", "resolve", "bo", "stark", "maester", "--draw").exit_code == 0
    opened = ntk("ntk", "card", "ana", "--house", "greyjoy", "--to", "winterfell")
    assert opened.exit_code == 0, opened.stderr
    assert logged(ntk)[-1]["to"] == "Winterfell"
    played = ntk("ntk", "card", "bo", "robb stark")
    assert played.exit_code == 0, played.stderr
    assert logged(ntk)[-1]["card"] == "Robb Stark"
    done = ntk("ntk", "resolve", "ana", "greyjoy", "marshal", "--muster", "greywater watch=footman",
               "--move", "moat cailin", "WINTERFELL", "footman")  # fmt: skip
    assert done.exit_code == 0, done.stderr
    resolve = logged(ntk)[-1]
    assert resolve["actions"][0]["muster"] == {"Greywater Watch": ["footman"]}
    assert resolve["actions"][1]["move"]["to"] == "Winterfell" and resolve["combat"]["cards"]["bo"] == "Robb Stark"


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (
            ("resolve", "ana", "greyjoy", "maester", "--move", "Greywater Wach", "Moat Cailin", "footman"),
            "unknown area 'Greywater Wach' (did you mean 'Greywater Watch'?)",
        ),
        (("place", "anna", "greyjoy", "marshal"), "unknown player 'anna' (did you mean 'ana'?)"),
        (("place", "ana", "greyjoi", "marshal"), "unknown house 'greyjoi' (did you mean 'greyjoy'?)"),
    ],
)
def test_an_unknown_name_is_refused_with_did_you_mean_and_nothing_written(
    ntk: Cok, args: tuple[str, ...], said: str
) -> None:
    before = (ntk.cwd / "events.yaml").read_bytes()
    run = ntk("ntk", *args)
    assert run.exit_code == 1
    assert said in run.stderr and "Traceback" not in run.stderr
    assert (ntk.cwd / "events.yaml").read_bytes() == before


def test_an_unknown_card_is_refused_with_did_you_mean_and_nothing_written(ntk: Cok) -> None:
    ntk("ntk", "resolve", "ana", "greyjoy", "maester", "--move", "Greywater Watch", "Moat Cailin", "footman")
    ntk("ntk", "resolve", "bo", "stark", "maester", "--draw")
    ntk("ntk", "card", "ana", "--house", "greyjoy", "--to", "Winterfell")
    before = (ntk.cwd / "events.yaml").read_bytes()
    run = ntk("ntk", "card", "bo", "Rob Stark")
    assert run.exit_code == 1
    assert "unknown house card 'Rob Stark' (did you mean 'Robb Stark'?)" in run.stderr
    assert (ntk.cwd / "events.yaml").read_bytes() == before


def test_a_combat_previewed_with_loose_names_reads_them_as_the_boards(ntk: Cok) -> None:
    ntk("ntk", "resolve", "ana", "greyjoy", "maester", "--move", "Greywater Watch", "Moat Cailin", "footman")
    ntk("ntk", "resolve", "bo", "stark", "maester", "--draw")
    run = ntk("ntk", "combat", "greyjoy", "moat cailin", "WINTERFELL", "footman", "--card", "bo=robb stark", "--json")
    assert run.exit_code == 0, run.stderr
    doc = json.loads(run.stdout)
    assert doc["area"] == "Winterfell" and doc["cards_played"] == [{"player": "bo", "card": "Robb Stark"}]
