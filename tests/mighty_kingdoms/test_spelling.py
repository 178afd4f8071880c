"""Issue #36, "names become ids in one place": a Mighty Kingdoms event's tiles, kingdoms, heroes
and artefacts are made the map's and the campaign's own by one step (`rules/spelling.py`), on
the way to the rules for every event (a recording and a replay alike), and the event recorded
is the one it made: the log holds a tile's quoted `"q,r"` and a kingdom's id, whoever typed
them (contract section 1: "The ledger always writes the quoted form")."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml

from cok.core.campaign import open_campaign
from cok.core.events import EventBase
from cok.rulesets.mighty_kingdoms.events import EVENT_TYPES
from cok.rulesets.mighty_kingdoms.map import HexMap
from cok.rulesets.mighty_kingdoms.rules import apply as rules
from cok.rulesets.mighty_kingdoms.rules import spelling
from cok.rulesets.mighty_kingdoms.rules.state import Settings, State
from cok.service import Draft, Who, record

from ..conftest import Cok
from .examples import KINGS_OF_WAR, SIMPLE
from .game import Game, to_winter
from .play import new_state, random_log
from .test_cli import mk, ok
from .test_quests import tower_month

__all__ = ["mk"]  # the campaign fixture, shared with the command-line tests

#: Where each event names a tile, and where a kingdom.
TILES = {
    "kingdom": ("capital", "city", "fortress", "army"),
    "order": ("to",),
    "battle": ("tile",),
    "build": ("tile",),
    "recruit": ("tile",),
    "deploy": ("tile",),
    "quest": ("tower",),
}
KINGDOMS = {
    "battle": ("attacker", "defender", "result"),
    "tithe": ("from", "to"),
    "build": ("player",),
    "recruit": ("player",),
    "feed": ("player",),
    "quest": ("player",),
    "artefact": ("to",),
}


def loosely(event: dict[str, Any], hexmap: HexMap, names: dict[str, str]) -> dict[str, Any]:
    """The event as a hand-written log may spell it: a named tile by its name in capitals, an
    unnamed one as `q, r`; a kingdom by its display name in lower case; a hero in capitals."""

    def tile(key: str) -> str:
        name = hexmap.tiles[key].name
        return name.upper() if name else key.replace(",", ", ")

    def kingdom(pid: str) -> str:
        return names.get(pid, pid)

    kind = event["type"]
    loose = dict(event)
    for field in TILES.get(kind, ()):
        if loose.get(field) is not None:
            loose[field] = tile(loose[field])
    for field in KINGDOMS.get(kind, ()):
        if loose.get(field) not in (None, "draw", "pool"):
            loose[field] = kingdom(loose[field])
    if kind == "kingdom":
        loose["villages"] = [tile(t) for t in loose["villages"]]
    for field in ("retreat", "advance"):
        if loose.get(field):
            loose[field] = {army: tile(t) for army, t in loose[field].items()}
    if loose.get("recall"):
        loose["recall"] = {kingdom(p): tile(t) for p, t in loose["recall"].items()}
    if kind == "quest":
        loose["hero"] = loose["hero"].upper()
    return loose


def display_names(log: list[dict[str, Any]]) -> dict[str, str]:
    """Each kingdom's display name in lower case, where that is an id another than its own."""
    named = {e["player"]: e.get("name", "").lower() for e in log if e["type"] == "kingdom"}
    return {pid: name for pid, name in named.items() if name.isalpha() and name != pid}


@pytest.fixture
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COK_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("COK_CACHE_DIR", str(tmp_path / "cache"))


@pytest.mark.parametrize("example", [SIMPLE, KINGS_OF_WAR], ids=["simple", "kings-of-war"])
def test_a_hand_written_log_in_other_spellings_folds_to_the_state_of_the_exact_one(
    example: Path, tmp_path: Path, data: None
) -> None:
    exact, loose = tmp_path / "exact", tmp_path / "loose"
    shutil.copytree(example, exact)
    shutil.copytree(example, loose)
    exactly = open_campaign(exact, use_cache=False)
    events = yaml.safe_load((exact / "events.yaml").read_text())
    respelled = [loosely(e, exactly.state.map, display_names(events)) for e in events]
    naming = [i for i, e in enumerate(events) if any(e.get(f) for f in TILES.get(e["type"], ()))]
    assert len(naming) > 20 and all(respelled[i] != events[i] for i in naming)
    (loose / "events.yaml").write_text(yaml.safe_dump(respelled, sort_keys=False))
    loosely_read = open_campaign(loose, use_cache=False)
    assert exactly.problems == loosely_read.problems == []
    assert loosely_read.state == exactly.state


def test_a_kings_of_war_table_with_quests_folds_the_same_in_other_spellings() -> None:
    """Quests with heroes from their armies' units, tithes, recalls, battles with results and
    advances: a table played by chance, its log respelled, folded both ways."""
    settings = Settings(battles="kings-of-war", army_limit=3, advanced=("wizards-towers",))
    log = random_log(6, 1000, settings, 3)
    for kingdom in (e for e in log if e["type"] == "kingdom"):
        kingdom["name"] = f"{kingdom['player']}land".title()  # Analand: `analand` in the loose log
    assert {"quest", "tithe", "winter", "battle"} <= {e["type"] for e in log}
    respelled = [loosely(e, new_state(settings).map, display_names(log)) for e in log]
    assert any(e["type"] == "quest" and e["hero"] != e["hero"].upper() for e in log)
    assert any(e["type"] == "tithe" and e["from"].endswith("land") for e in respelled)

    def folded(events: list[dict[str, Any]]) -> State:
        state = new_state(settings)
        for given in events:
            rules.apply(state, EVENT_TYPES[given["type"]].model_validate(given))
        return state

    assert folded(respelled) == folded(log)


def test_the_fold_makes_each_events_names_exact_once_and_exact_names_leave_it_as_it_is(
    tmp_path: Path, data: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[tuple[EventBase, bool]] = []

    def counted(state: Any, given: EventBase) -> EventBase:
        made = spelling.spelled(state, given)
        seen.append((given, made is given))
        return made

    monkeypatch.setattr(rules, "spelled", counted)
    folder = tmp_path / "example"
    shutil.copytree(SIMPLE, folder)
    assert open_campaign(folder, use_cache=False).problems == []
    events = [e for e in yaml.safe_load((folder / "events.yaml").read_text()) if e["type"] in EVENT_TYPES]
    assert [e.type for e, _ in seen] == [e["type"] for e in events]
    assert all(same for _, same in seen)  # the example's log is in the map's spelling: nothing copied


def test_a_name_in_another_spelling_gives_a_copy_in_the_maps() -> None:
    game = Game(battles="kings-of-war").meeting(units={"Prince": 1, "Spears": 2})
    battle = EVENT_TYPES["battle"].model_validate(
        {"type": "battle", "tile": "ford", "attacker": "ana", "defender": "bo", "result": "ana"}
    )
    made = spelling.spelled(game.state, battle)
    assert made is not battle and (made.tile, battle.tile) == ("0,0", "ford")  # type: ignore[attr-defined]
    exact = battle.model_copy(update={"tile": "0,0"})
    assert spelling.spelled(game.state, exact) is exact


def test_a_heros_other_spelling_is_its_unit_and_a_second_quest_for_it_is_refused() -> None:
    game = to_winter(tower_month(battles="kings-of-war", units={"Elven Prince": 1, "Spears": 2}))
    game.state.towers.add("-1,1")
    outcome = game("quest", player="ana", tower="FORD", hero="elven prince", army="ana-1", roll=3)
    assert outcome.hero == "Elven Prince" and outcome.tower == "0,0"
    again = game.refused("quest", player="ana", tower="-1, 1", hero="ELVEN-PRINCE", army="ana-1", roll=3)
    assert "Elven Prince has already been on a quest" in again


def test_a_kingdom_typed_in_any_spelling_at_the_terminal_is_written_as_its_id(mk: Cok) -> None:
    ok(mk, "mk", "kingdom", "ana", "--race", "x", "--capital", "emberhold", "--city", "2, -5",
       "--fortress", "1,-4", "--villages", "0,-4", "0,-5", "--army", "2,-5", "--name", "Ana Smith")  # fmt: skip
    ok(mk, "mk", "kingdom", "bo", "--race", "y", "--capital", "IRONCRAG", "--city", "3,-4",
       "--fortress", "5,-5", "--villages", "4,-5", "3,-3", "--army", "3,-4", "--name", "Bongo")  # fmt: skip
    ok(mk, "mk", "begin")
    ok(mk, "mk", "order", "ana-1", "move", "3,-5")
    ok(mk, "mk", "order", "bo-1", "move", "3,-5")
    ok(mk, "mk", "resolve", "ana-1", "--roll", "2", "3")
    ok(mk, "mk", "resolve", "bo-1")
    dice = ["--dice", "ana-1=5", "--dice", "bo-1=2", "--allocate", "ana-1:bo-1", "--allocate", "bo-1:ana-1"]
    ok(mk, "mk", "battle", "3, -5", "--attacker", "Ana Smith", "--defender", "BONGO", *dice, "--retreat", "bo-1=3,-4")
    ana, bo, *_, battle = yaml.safe_load((mk.cwd / "events.yaml").read_text())
    assert (ana["capital"], ana["city"], bo["capital"]) == ("1,-5", "2,-5", "4,-4")
    assert (battle["tile"], battle["attacker"], battle["defender"]) == ("3,-5", "ana", "bo")


def test_a_draft_sent_by_a_page_or_the_api_is_written_in_the_maps_spelling(mk: Cok) -> None:
    organiser = Who("root", organiser=True)
    fields = {"race": "x", "city": "2,-5", "fortress": "1,-4", "villages": ["0,-4", "0,-5"], "army": "2,-5"}
    record(mk.cwd, [Draft("kingdom", {"player": "ana", "capital": "EMBER HOLD", **fields})], by=organiser)
    (kingdom,) = yaml.safe_load((mk.cwd / "events.yaml").read_text())
    assert kingdom["capital"] == "1,-5"


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (("--capital", "Emberhld"), "unknown tile 'Emberhld' (did you mean 'Emberhold'?)"),
        (("--capital", "Emberhold", "--army", "Ironcrg"), "(did you mean 'Ironcrag'?)"),
    ],
)
def test_an_unknown_tile_is_refused_with_did_you_mean_and_nothing_written(
    mk: Cok, args: tuple[str, ...], said: str
) -> None:
    before = (mk.cwd / "events.yaml").read_bytes()
    given = {"--capital": "Emberhold", "--army": "2,-5", **dict(zip(args[::2], args[1::2], strict=True))}
    run = mk("mk", "kingdom", "ana", "--race", "x", "--city", "2,-5", "--fortress", "1,-4",
             "--villages", "0,-4", "0,-5", *(x for pair in given.items() for x in pair))  # fmt: skip
    assert run.exit_code == 1
    assert said in run.stderr and "Traceback" not in run.stderr
    assert (mk.cwd / "events.yaml").read_bytes() == before


def test_an_unknown_kingdom_is_refused_with_did_you_mean_and_nothing_written(mk: Cok) -> None:
    ok(mk, "mk", "kingdom", "ana", "--race", "x", "--capital", "Emberhold", "--city", "2,-5",
       "--fortress", "1,-4", "--villages", "0,-4", "0,-5", "--army", "2,-5")  # fmt: skip
    before = (mk.cwd / "events.yaml").read_bytes()
    run = mk("mk", "build", "ANNA", "2,-5", "village")
    assert run.exit_code == 1
    assert "unknown kingdom 'ANNA' (did you mean 'ana'?)" in run.stderr and "Traceback" not in run.stderr
    assert (mk.cwd / "events.yaml").read_bytes() == before


def test_a_hand_written_unknown_tile_is_a_problem_at_its_line(tmp_path: Path, data: None) -> None:
    folder = tmp_path / "example"
    shutil.copytree(SIMPLE, folder)
    events = yaml.safe_load((folder / "events.yaml").read_text())
    (order,) = [i for i, e in enumerate(events) if e["type"] == "order" and e.get("to")][:1]
    events[order]["to"] = "Emberhld"
    (folder / "events.yaml").write_text(yaml.safe_dump(events, sort_keys=False))
    problem = open_campaign(folder, use_cache=False).problems[0]
    assert problem.line is not None and problem.line > 1
    assert "unknown tile 'Emberhld' (did you mean 'Emberhold'?)" in problem.message
