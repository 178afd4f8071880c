"""Section 6: `cok mk …`, its `--json` shapes, and the shared commands on a Mighty Kingdoms
campaign; bad input refused with `file:line`, exit 1, nothing written."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from ..conftest import Cok

ANA = [
    "mk",
    "kingdom",
    "ana",
    "--race",
    "Elves",
    "--capital",
    "Emberhold",
    "--city",
    "1,-4",
    "--fortress",
    "2,-5",
    "--villages",
    "0,-4",
    "0,-5",
    "--army",
    "1,-4",
    "--name",
    "Ana",
]
BO = [
    "mk",
    "kingdom",
    "bo",
    "--race",
    "Orcs",
    "--capital",
    "Greywater",
    "--city",
    "4,-1",
    "--fortress",
    "5,-1",
    "--villages",
    "3,0",
    "3,1",
    "--army",
    "4,-1",
]


@pytest.fixture
def mk(tmp_path: Path) -> Cok:
    Cok(tmp_path)("init", "mk", "--ruleset", "mighty-kingdoms")
    return Cok(tmp_path / "mk")


def ok(cok: Cok, *args: str) -> str:
    run = cok(*args)
    assert run.exit_code == 0, run.stderr
    return run.stdout


def begun(mk: Cok) -> Cok:
    ok(mk, *ANA)
    ok(mk, *BO)
    ok(mk, "mk", "begin")
    return mk


def log_text(mk: Cok) -> str:
    return (mk.cwd / "events.yaml").read_text()


def test_init_copies_the_games_map_into_the_campaign(mk: Cok) -> None:
    assert "The Ember Reaches" in (mk.cwd / "map.yaml").read_text()
    assert "ruleset: mighty-kingdoms" in (mk.cwd / "campaign.yaml").read_text()


def test_status_json_in_setup_has_null_year_season_and_month(mk: Cok) -> None:
    doc = json.loads(ok(mk, "mk", "status", "--json"))
    assert doc["ruleset"] == "mighty-kingdoms" and doc["phase"] == "setup"
    assert (doc["year"], doc["season"], doc["month"]) == (None, None, None)


def test_status_json_shape_in_summer(mk: Cok) -> None:
    begun(mk)
    doc = json.loads(ok(mk, "mk", "status", "--json"))
    assert set(doc) == {
        *("campaign", "ruleset", "year", "season", "month", "phase", "player_order", "waiting_for"),
        *("due", "absent"),  # issue 48: what is waited for with its due time, and the absent kingdoms
    }
    assert (doc["year"], doc["season"], doc["month"], doc["phase"]) == (1, "summer", 1, "orders")
    assert doc["waiting_for"] == [{"what": "order", "army": "ana-1"}, {"what": "order", "army": "bo-1"}]
    assert doc["due"][0] == {
        "step": "orders",
        "player": "ana",
        "what": "orders for ana-1",
        "due": None,
        "absent": False,
    }
    assert doc["absent"] == []


def test_kingdoms_json_shape(mk: Cok) -> None:
    begun(mk)
    (ana, _) = json.loads(ok(mk, "mk", "kingdoms", "--json"))["kingdoms"]
    assert set(ana) == {
        "id",
        "name",
        "race",
        "capital",
        "tiles",
        "villages",
        "cities",
        "fortresses",
        "armies",
        "gold",
        "food",
        "artefacts",
    }
    assert (ana["id"], ana["name"], ana["race"], ana["capital"]) == ("ana", "Ana", "elves", "1,-5")
    assert (ana["tiles"], ana["villages"], ana["cities"], ana["fortresses"]) == (7, 2, 1, 1)
    assert ana["armies"] == [
        {"id": "ana-1", "tile": "1,-4", "points": 500, "upright": True, "order": None, "allied": False}
    ]


def test_an_order_and_its_resolution_with_rolled_dice_are_recorded(mk: Cok) -> None:
    begun(mk)
    ok(mk, "mk", "order", "ana-1", "move", "Emberfall Gorge")
    ok(mk, "mk", "order", "bo-1", "defend")
    out = ok(mk, "mk", "resolve", "ana-1", "--roll-dice")
    assert "explores Emberfall Gorge" in out
    assert "roll: [" in log_text(mk)  # the dice are in the event: a replay never rolls


def test_dry_run_writes_nothing(mk: Cok) -> None:
    begun(mk)
    before = log_text(mk)
    out = ok(mk, "mk", "order", "ana-1", "defend", "--dry-run")
    assert "dry run" in out and log_text(mk) == before


def test_an_unknown_tile_says_did_you_mean_exit_1_nothing_written(mk: Cok) -> None:
    begun(mk)
    before = log_text(mk)
    run = mk("mk", "order", "ana-1", "move", "Emberfal Gorge")
    assert run.exit_code == 1 and "did you mean 'Emberfall Gorge'" in run.stderr
    assert log_text(mk) == before


def test_an_event_of_the_wrong_phase_is_refused_naming_the_phase(mk: Cok) -> None:
    begun(mk)
    run = mk("mk", "reform")
    assert run.exit_code == 1 and "reform phase" in run.stderr and "orders phase" in run.stderr


def test_a_tile_written_without_quotes_in_a_flow_list_is_refused_at_its_line(mk: Cok) -> None:
    begun(mk)
    with (mk.cwd / "events.yaml").open("a") as log:
        log.write(
            "- type: feed\n  player: ana\n  unfed: []\n- type: kingdom\n  player: cy\n  race: x\n"
            "  capital: Gullhaven\n  city: -2,4\n  fortress: -1,4\n  villages: [-3,5, -3,6]\n  army: -2,4\n"
        )
    run = mk("check")
    lines = log_text(mk).splitlines()
    kingdom_line = len(lines) - 7
    assert run.exit_code == 1
    assert f"events.yaml:{kingdom_line}" in run.stderr + run.stdout
    assert "a list of numbers, not of tiles" in run.stderr + run.stdout


def test_a_battle_summary_says_who_hit_what_who_won_the_retreats_and_the_holder(mk: Cok) -> None:
    ok(
        mk,
        "mk",
        "kingdom",
        "ana",
        "--race",
        "x",
        "--capital",
        "Emberhold",
        "--city",
        "2,-5",
        "--fortress",
        "1,-4",
        "--villages",
        "0,-4",
        "0,-5",
        "--army",
        "2,-5",
    )
    ok(
        mk,
        "mk",
        "kingdom",
        "bo",
        "--race",
        "y",
        "--capital",
        "Ironcrag",
        "--city",
        "3,-4",
        "--fortress",
        "5,-5",
        "--villages",
        "4,-5",
        "3,-3",
        "--army",
        "3,-4",
    )
    ok(mk, "mk", "begin")
    ok(mk, "mk", "order", "ana-1", "move", "3,-5")
    ok(mk, "mk", "order", "bo-1", "move", "3,-5")
    ok(mk, "mk", "resolve", "ana-1", "--roll", "2", "3")
    ok(mk, "mk", "resolve", "bo-1")
    board = ok(mk, "mk", "battles")
    assert "board 4'×4'" in board and "Defence" in board
    out = ok(
        mk,
        "mk",
        "battle",
        "3,-5",
        "--attacker",
        "ana",
        "--defender",
        "bo",
        "--dice",
        "ana-1=5",
        "--dice",
        "bo-1=2",
        "--allocate",
        "ana-1:bo-1",
        "--allocate",
        "bo-1:ana-1",
        "--retreat",
        "bo-1=3,-4",
    )
    assert "ana-1 rolled 5 at bo-1 (Defence 5): hit" in out and "bo-1 rolled 2 at ana-1 (Defence 5): no hit" in out
    assert "points lost: ana 0, bo 100" in out
    assert "ana wins: ana caused more reduction" in out
    assert "retreat: bo-1 to 3,-4" in out and "3,-5 is held by ana" in out


def test_standings_rank_by_settlements_then_tiles_and_say_so(mk: Cok) -> None:
    begun(mk)
    out = ok(mk, "standings")
    assert "ranked by settlements, then tiles" in out
    doc = json.loads(ok(mk, "standings", "--json"))
    assert [k["id"] for k in doc["kingdoms"]] == ["ana", "bo"] and doc["ranked_by"] == ["settlements", "tiles"]


def test_the_shared_commands_work_on_a_mighty_kingdoms_campaign(mk: Cok) -> None:
    begun(mk)
    assert ok(mk, "check") == ""
    assert "Ana founds a kingdom" in ok(mk, "log")
    ok(mk, "mk", "order", "ana-1", "defend")
    ids = [line.split(": ")[1] for line in log_text(mk).splitlines() if line.strip().startswith("id:")]
    event_id = ids[-1].strip("'\"")  # an id of digits only is written quoted, as YAML must
    ok(mk, "void", event_id, "--reason", "wrong army")
    assert json.loads(ok(mk, "mk", "armies", "--json"))["armies"][0]["order"] is None
    ok(mk, "site", "site")
    assert (mk.cwd / "site" / "index.html").exists()
    assert ok(mk, "map", "--svg", "-").startswith("<svg") or "<svg" in ok(mk, "map", "--svg", "-")
    schema = json.loads(ok(mk, "schema", "events", "--ruleset", "mighty-kingdoms"))
    assert "kingdom" in json.dumps(schema)


def test_a_clash_of_kings_command_on_a_mighty_kingdoms_campaign_is_refused(mk: Cok) -> None:
    run = mk("join", "tim", "--faction", "stark")
    assert run.exit_code == 1 and "Mighty Kingdoms" in run.stderr and "cok mk" in run.stderr


def test_a_mighty_kingdoms_command_on_a_clash_of_kings_campaign_is_refused(cok: Cok) -> None:
    run = cok("mk", "status")
    assert run.exit_code == 1 and "Clash of Kings" in run.stderr


def test_a_bad_option_value_exits_2(mk: Cok) -> None:
    begun(mk)
    assert mk("mk", "order", "ana-1", "march").exit_code == 2
    assert mk("mk", "resolve", "ana-1", "--roll", "7", "1").exit_code == 2
    assert (
        mk(
            "mk",
            "kingdom",
            "Cy",
            "--race",
            "x",
            "--capital",
            "a",
            "--city",
            "b",
            "--fortress",
            "c",
            "--villages",
            "d",
            "e",
            "--army",
            "f",
        ).exit_code
        == 2
    )


@pytest.mark.parametrize("order", [("ana", "bo"), ("ana,bo",), ("ana", "--order", "bo")])
def test_order_takes_players_as_separate_words_like_every_list_option_and_commas_still(
    mk: Cok, order: tuple[str, ...]
) -> None:
    ok(mk, *ANA)
    ok(mk, *BO)
    run = mk("mk", "begin", "--order", *order, "--json")
    assert run.exit_code == 0, run.stderr
    assert '"order": [' in run.stdout and "ana" in run.stdout and "bo" in run.stdout


def test_order_in_the_wrong_order_is_refused_and_words_without_order_are_a_usage_error(mk: Cok) -> None:
    ok(mk, *ANA)
    ok(mk, *BO)
    assert mk("mk", "begin", "--order", "bo", "ana").exit_code == 1
    assert mk("mk", "begin", "ana", "bo").exit_code == 2


def test_a_raze_order_says_what_will_be_razed(mk: Cok) -> None:
    begun(mk)
    run = mk("mk", "order", "ana-1", "raze", "--dry-run")
    assert run.exit_code == 0, run.stderr
    assert re.search(r"ana-1 is ordered to raze the (capital|city|fortress|village) at ", run.stdout)


def test_a_kingdoms_founding_is_about_its_player_alone_not_the_tile_of_its_army() -> None:
    """`cok log --player`: a `kingdom` event's `army` is the tile the first army stands on
    (setup step E), not an army id whose kingdom is before its last dash."""
    from cok.rulesets.mighty_kingdoms.events import Kingdom, involved

    founded = Kingdom.model_validate(
        {
            "player": "ana",
            "race": "Elves",
            "capital": "-3,4",
            "city": "-4,5",
            "fortress": "-2,4",
            "villages": ["-3,5", "-4,4"],
            "army": "-3,4",
        }
    )
    assert involved(founded) == {"ana"}
