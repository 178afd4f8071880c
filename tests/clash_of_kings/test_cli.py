"""The command line, end to end: recording, refusing, discovering campaigns, the JSON contract."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from cok.cli import options
from cok.core import ruleset as registry

from ..conftest import EXAMPLE, Cok


def snapshot(folder: Path) -> bytes:
    return (folder / "events.yaml").read_bytes()


def setup_two(cok: Cok) -> None:
    assert cok("join", "tim", "--faction", "martell", "--name", "Tim").exit_code == 0
    assert cok("join", "matt", "--faction", "baratheon").exit_code == 0


# --- recording ------------------------------------------------------------------------------


def test_join_writes_the_maps_spelling_and_reports_the_change(cok: Cok, campaign: Path) -> None:
    run = cok("join", "aaron", "--faction", "Lannister", "--castle", "casterly rock")
    assert run.exit_code == 0, run.stderr
    assert "Aaron" not in run.stdout  # no display name given: the id is the name
    assert "holding Casterly Rock" in run.stdout
    assert "aaron: 0 → 10 CP (+10)" in run.stdout
    text = (campaign / "events.yaml").read_text()
    assert "castle: Casterly Rock" in text
    assert "faction: lannister" in text


def test_a_choice_away_from_a_terminal_names_its_option_once_and_each_choice_once(cok: Cok) -> None:
    """#29: the taken-home-castle refusal listed every castle, then each again as `--castle X`."""
    assert cok("join", "ana", "--faction", "stark").exit_code == 0
    run = cok("join", "bo", "--faction", "stark")
    assert run.exit_code == 1
    hint = run.stderr.split(" — ", 1)[1]
    assert hint.startswith("choose one with --castle NAME: ")
    assert hint.count("--castle") == 1 and hint.count("Hardhome") == 1 and "'Castle Black'" in hint


def test_a_battle_tells_what_happened(cok: Cok) -> None:
    setup_two(cok)
    run = cok("battle", "tim", "matt", "--at", "tarth", "--attacker", "tim", "--vp", "tim=7", "--vp", "matt=5")
    assert run.exit_code == 0, run.stderr
    assert "week 1 — Tim (attacker) beat matt at Tarth on victory points 7–5; Tim occupies Tarth (+3 CP)" in run.stdout
    assert "Tim: 10 → 13 CP (+3)" in run.stdout


def test_dry_run_writes_nothing_but_shows_the_change(cok: Cok, campaign: Path) -> None:
    setup_two(cok)
    before = snapshot(campaign)
    run = cok("battle", "tim", "matt", "--at", "Tarth", "--attacker", "tim", "--winner", "tim", "--dry-run")
    assert run.exit_code == 0
    assert "Tim occupies Tarth" in run.stdout
    assert "dry run: nothing written" in run.stdout
    assert snapshot(campaign) == before


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["battle", "tim", "matt", "--at", "Winterfell", "--attacker", "tim", "--winner", "tim"],
            "Winterfell is not a legal location for tim (legal: Lemonwood, Planky Town, Tarth)",
        ),
        (["battle", "tim", "matt", "--at", "Tarth", "--winner", "tim"], "choose one with --attacker NAME: tim, matt"),
        (
            ["battle", "tim", "matt", "--at", "Tarth", "--attacker", "tim", "--winner", "tim", "--points", "21"],
            "21 points is over week 1's points limit of 20",
        ),
        (
            ["battle", "tim", "matt", "--at", "Tarth", "--attacker", "tim", "--winner", "tim", "--abandon", "Sunspear"],
            "nothing calls for abandoning",
        ),
        (["battle", "tim", "mat", "--at", "Tarth"], "unknown player 'mat' (did you mean 'matt'?)"),
        (["battle", "tim", "matt", "--at", "Tarht", "--winner", "tim"], "did you mean 'Tarth'"),
        (["paint", "tim", "--fully-painted"], "tim has no battle recorded in week 1"),
        (["paint", "tim", "--commissioned", "tim"], "not your own"),
        (["join", "tim", "--faction", "stark"], "tim has already joined"),
        (["join", "rob", "--faction", "martell"], "the home of martell, Sunspear, is held by tim"),
        (["void", "nope", "--reason", "x"], "no event has an id starting 'nope'"),
        (["adjust", "zed", "2", "--reason", "x"], "unknown player 'zed'"),
    ],
)
def test_a_refused_command_exits_1_with_a_reason_and_writes_nothing(
    cok: Cok, campaign: Path, args: list[str], message: str
) -> None:
    setup_two(cok)
    before = snapshot(campaign)
    run = cok(*args)
    assert run.exit_code == 1
    assert message in run.stderr
    assert "Traceback" not in run.stderr + run.stdout
    assert snapshot(campaign) == before


def test_a_malformed_option_value_is_a_command_line_error(cok: Cok, campaign: Path) -> None:
    setup_two(cok)
    before = snapshot(campaign)
    run = cok("battle", "tim", "matt", "--at", "Tarth", "--vp", "tim:7")
    assert run.exit_code == 2
    assert "takes PLAYER=NUMBER" in run.stderr
    assert snapshot(campaign) == before


def test_a_choice_the_rules_need_is_asked_at_a_terminal(cok: Cok, monkeypatch: pytest.MonkeyPatch) -> None:
    setup_two(cok)
    monkeypatch.setattr(options, "interactive", lambda: True)
    run = cok("battle", "tim", "matt", "--at", "Tarth", "--winner", "tim", input="nobody\nTim\n")
    assert run.exit_code == 0, run.stderr
    assert "choose one of: tim, matt" in run.stderr
    assert "Tim (attacker) beat matt at Tarth" in run.stdout


def test_negative_adjustments_and_voids(cok: Cok, campaign: Path) -> None:
    setup_two(cok)
    run = cok("adjust", "tim", "-2", "--reason", "late list", "--json")
    assert run.exit_code == 0, run.stderr
    doc = json.loads(run.stdout)
    assert doc["cp"] == {"tim": {"before": 10, "after": 8}}
    run = cok("void", doc["event"]["id"], "--reason", "mistake")
    assert run.exit_code == 0, run.stderr
    assert "Tim: 8 → 10 CP (+2)" in run.stdout
    log = cok("log", "--json")
    events = json.loads(log.stdout)["events"]
    assert [e["voided"] for e in events] == [False, False, True, False]


def test_void_refuses_to_leave_a_later_event_invalid(cok: Cok, campaign: Path) -> None:
    setup_two(cok)
    run = cok("battle", "tim", "matt", "--at", "Tarth", "--attacker", "tim", "--winner", "tim", "--json")
    battle_id = json.loads(run.stdout)["event"]["id"]
    assert cok("paint", "tim", "--fully-painted").exit_code == 0
    before = snapshot(campaign)
    run = cok("void", battle_id, "--reason", "wrong")
    assert run.exit_code == 1
    assert "would leave the log invalid" in run.stderr
    assert "no battle recorded in week 1" in run.stderr
    assert snapshot(campaign) == before


def test_week_shows_and_starts_weeks(cok: Cok) -> None:
    assert "week 1, points limit 20" in cok("week").stdout
    assert "week 2 begins — points limit 23" in cok("week", "--next").stdout
    assert "points limit 30" in cok("week", "--next", "--limit", "30").stdout
    assert json.loads(cok("week", "--json").stdout) == {
        "campaign": "Test",
        "week": 3,
        "points_limit": 30,
        "limits": [20, 23, 30],
        "due": [],
        "absent": [],
    }
    assert cok("week", "--limit", "3").exit_code == 2


# --- showing ----------------------------------------------------------------------------------


def test_standings_json_has_the_contract_fields(cok: Cok) -> None:
    setup_two(cok)
    cok("battle", "tim", "matt", "--at", "Tarth", "--attacker", "tim", "--winner", "tim")
    doc = json.loads(cok("standings", "--json").stdout)
    assert (doc["campaign"], doc["week"], doc["points_limit"]) == ("Test", 1, 20)
    first = doc["players"][0]
    assert first == {
        "id": "tim",
        "name": "Tim",
        "faction": "martell",
        "rank": 1,
        "cp": 13,
        "territory_cp": 13,
        "bonus_cp": 0,
        "territories": ["Sunspear", "Tarth"],
        "castles": 1,
        "forts": 1,
        "villages": 0,
        "battles": 1,
        "wins": 1,
        "losses": 0,
        "supply_lines": False,
    }
    assert doc["players"][1]["losses"] == 1


def test_where_json_for_a_roll_off_holds_an_option_per_attacker(cok: Cok) -> None:
    setup_two(cok)
    doc = json.loads(cok("where", "tim", "matt", "--json").stdout)
    assert doc["decided_by"] == "roll-needed"
    assert doc["attacker"] is doc["defender"] is doc["step"] is doc["locations"] is None
    assert [o["attacker"] for o in doc["options"]] == ["tim", "matt"]
    assert doc["options"][0]["locations"][0] == {"name": "Lemonwood", "kind": "village", "value": 1, "occupant": None}


def test_where_json_with_fewer_territories(cok: Cok) -> None:
    setup_two(cok)
    cok("battle", "tim", "matt", "--at", "Tarth", "--attacker", "tim", "--winner", "tim")
    doc = json.loads(cok("where", "Tim", "matt", "--json").stdout)
    assert (doc["attacker"], doc["defender"], doc["decided_by"], doc["step"]) == (
        "matt",
        "tim",
        "fewer-territories",
        "adjacent-to-attacker",
    )
    names = [loc["name"] for loc in doc["locations"]]
    assert names == sorted(names)
    assert {"name": "Tarth", "kind": "fort", "value": 3, "occupant": "tim"} in doc["locations"]
    assert "Matt" not in cok("where", "tim", "matt").stderr


def test_where_with_both_brotherhood(cok: Cok) -> None:
    setup_two(cok)
    doc = json.loads(cok("where", "tim", "matt", "--brotherhood", "tim", "--brotherhood", "matt", "--json").stdout)
    assert (doc["attacker"], doc["step"], doc["decided_by"]) == (None, "any-location", "brotherhood")
    assert len(doc["locations"]) == 93


def test_locations_free_and_by_player(cok: Cok) -> None:
    setup_two(cok)
    doc = json.loads(cok("locations", "--player", "tim", "--json").stdout)
    assert doc == {
        "locations": [
            {"name": "Sunspear", "kind": "castle", "value": 10, "occupant": "tim", "home": ["martell"], "bonus": None}
        ]
    }
    free = json.loads(cok("locations", "--free", "--json").stdout)["locations"]
    assert all(loc["occupant"] is None and loc["kind"] != "region" for loc in free)
    assert "Sunspear" in cok("locations").stdout


def test_log_tells_the_story_and_filters_by_player(cok: Cok) -> None:
    setup_two(cok)
    cok("join", "aaron", "--faction", "lannister")
    cok("battle", "tim", "matt", "--at", "Tarth", "--attacker", "tim", "--winner", "tim")
    everything = cok("log").stdout
    assert "Tim (attacker) beat matt at Tarth; Tim occupies Tarth (+3 CP)" in everything
    only = cok("log", "--player", "aaron").stdout
    assert "aaron (lannister) joins" in only
    assert "Tarth" not in only


def test_modes_lists_and_explains(cok: Cok) -> None:
    listing = cok("modes")
    assert "a-clash-of-kings" in listing.stdout and "a-game-of-thrones" in listing.stdout
    one = cok("modes", "A Game of Thrones")
    assert "Scoring" in one.stdout and "5" in one.stdout
    doc = json.loads(cok("modes", "a-clash-of-kings", "--json").stdout)
    assert doc["id"] == "a-clash-of-kings" and doc["scoring"]
    bad = cok("modes", "clash of kingz")
    assert bad.exit_code == 1 and "did you mean 'a-clash-of-kings'" in bad.stderr


def test_json_output_is_one_document_and_nothing_else(cok: Cok) -> None:
    setup_two(cok)
    for args in (["standings"], ["where", "tim", "matt"], ["log"], ["locations"], ["week"], ["check"], ["modes"]):
        run = cok(*args, "--json")
        assert run.exit_code == 0, (args, run.stderr)
        json.loads(run.stdout)


# --- finding the campaign -------------------------------------------------------------------------


def test_campaign_found_from_a_subfolder_env_and_option(campaign: Path) -> None:
    (campaign / "notes").mkdir()
    assert Cok(campaign / "notes")("standings", "--json").exit_code == 0
    elsewhere = Cok(campaign.parents[2])
    assert elsewhere("standings", "--json", "-C", str(campaign)).exit_code == 0
    assert elsewhere("standings", "--json", env={"COK_CAMPAIGN": str(campaign)}).exit_code == 0


def test_the_only_campaign_under_campaigns_is_found(campaign: Path) -> None:
    root = campaign.parents[1]
    assert Cok(root)("standings", "--json").exit_code == 0
    other = root / "campaigns" / "other"
    other.mkdir()
    (other / "campaign.yaml").write_text((campaign / "campaign.yaml").read_text())
    run = Cok(root)("standings")
    assert run.exit_code == 1
    assert "several campaigns here" in run.stderr and "campaigns/other" in run.stderr


def test_no_campaign_is_a_clear_error(tmp_path: Path) -> None:
    run = Cok(tmp_path)("standings")
    assert run.exit_code == 1
    assert "no campaign found" in run.stderr
    run = Cok(tmp_path)("standings", "-C", "missing")
    assert run.exit_code == 1
    assert "missing: no campaign.yaml here (from --campaign)" in run.stderr


@pytest.mark.parametrize("game", registry.known())
def test_init_writes_campaign_yaml_a_key_a_line_for_every_game(tmp_path: Path, game: str) -> None:
    assert Cok(tmp_path)("init", "c", "--ruleset", game).exit_code == 0
    lines = [line for line in (tmp_path / "c" / "campaign.yaml").read_text().splitlines() if not line.startswith("#")]
    settings = yaml.safe_load("\n".join(lines))
    assert [line.split(":")[0] for line in lines] == list(settings)


def test_init_creates_a_campaign_with_its_own_map(tmp_path: Path) -> None:
    cok = Cok(tmp_path)
    run = cok("init", "campaigns/summer", "--name", "The Summer War")
    assert run.exit_code == 0, run.stderr
    folder = tmp_path / "campaigns" / "summer"
    assert (folder / "map.yaml").is_file()
    assert "name: The Summer War" in (folder / "campaign.yaml").read_text()
    assert cok("join", "tim", "--faction", "martell").exit_code == 0
    assert cok("check").exit_code == 0
    again = cok("init", "campaigns/summer")
    assert again.exit_code == 1 and "already holds a campaign" in again.stderr


def test_init_with_a_map_refers_to_it(tmp_path: Path, campaign: Path) -> None:
    cok = Cok(tmp_path)
    assert cok("init", "c2", "--map", "westeros.yaml").exit_code == 0
    assert "map: ../westeros.yaml" in (tmp_path / "c2" / "campaign.yaml").read_text()
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: x\nlocations: []\n")
    run = cok("init", "c3", "--map", "bad.yaml")
    assert run.exit_code == 1 and "bad.yaml:2" in run.stderr
    assert not (tmp_path / "c3").exists()


# --- check and broken files ------------------------------------------------------------------------


def test_check_is_silent_on_the_example() -> None:
    run = Cok(EXAMPLE)("check")
    assert (run.exit_code, run.stdout, run.stderr) == (0, "", "")


def test_check_reports_every_problem_with_file_and_line(cok: Cok, campaign: Path) -> None:
    (campaign / "events.yaml").write_text(
        "- type: join\n  player: tim\n  faction: martell\n"
        "- type: join\n  player: tim\n  faction: stark\n"
        "- type: batle\n"
        "- type: adjust\n  player: tim\n  cp: 1\n"
    )
    run = cok("check")
    assert run.exit_code == 1
    assert run.stderr.splitlines() == [
        "events.yaml:4: join tim: tim has already joined the campaign",
        "events.yaml:7: unknown event type 'batle' (did you mean 'battle'?)",
        "events.yaml:8: adjust: missing field 'reason'",
    ]
    elsewhere = Cok(campaign.parent)("check", "-C", "test")
    assert elsewhere.stderr.splitlines()[0].startswith("test/events.yaml:4: ")
    doc = json.loads(cok("check", "--json").stdout)
    assert [e["line"] for e in doc["errors"]] == [4, 7, 8]
    assert cok("standings").exit_code == 1
    before = snapshot(campaign)
    assert cok("week", "--next").exit_code == 1
    assert snapshot(campaign) == before


@pytest.mark.parametrize(
    ("file", "content", "expected"),
    [
        (
            "campaign.yaml",
            "name: Test\nmap: ../../westeros.yaml\npoints: {start: 20, stp: 3}\n",
            "campaign.yaml:3: unknown field 'points.stp'",
        ),
        ("campaign.yaml", "name: Test\nmap: nowhere.yaml\n", "campaign.yaml:2: the map 'nowhere.yaml' was not found"),
        ("campaign.yaml", "name: [unclosed\n", "campaign.yaml:"),
        ("events.yaml", "- type: week\n  limit: !!python/object:os.system 1\n", "events.yaml:2"),
        ("events.yaml", "\x00\x01garbage", "binary file"),
        ("events.yaml", "- &a {type: week}\n- *a\n", "events.yaml:1: anchors"),
    ],
)
def test_broken_files_are_reported_never_a_traceback(
    cok: Cok, campaign: Path, file: str, content: str, expected: str
) -> None:
    (campaign / file).write_text(content)
    for args in (["check"], ["standings"], ["week", "--next"]):
        run = cok(*args)
        assert run.exit_code == 1
        assert expected in run.stderr
        assert "Traceback" not in run.stderr


def test_the_real_program_runs_as_a_module_without_tracebacks(campaign: Path) -> None:
    env = {**os.environ, "COK_CAMPAIGN": str(campaign)}
    (campaign / "events.yaml").write_text("- type: week\n  limit: [1\n")
    run = subprocess.run([sys.executable, "-m", "cok", "check"], capture_output=True, text=True, env=env)
    assert run.returncode == 1
    assert "events.yaml:" in run.stderr and "Traceback" not in run.stderr
    assert subprocess.run([sys.executable, "-m", "cok", "--help"], capture_output=True).returncode == 0
    assert subprocess.run([sys.executable, "-m", "cok", "nonsense"], capture_output=True).returncode == 2


def test_schema_prints_json_schemas_from_the_models(tmp_path: Path) -> None:
    cok = Cok(tmp_path)
    events = json.loads(cok("schema", "events").stdout)
    assert events["type"] == "array"
    variants = events["items"]["oneOf"]
    assert {v["$ref"].rsplit("/", 1)[1] for v in variants} == {
        "Join",
        "Week",
        "Battle",
        "Painting",
        "Adjust",
        "Void",
    } | {
        "DiceCommit",
        "DiceReveal",
        "DiceLost",
    } | {"Confirm", "Dispute", "Settle"} | {"Extend", "Present"}
    assert events["$defs"]["Battle"]["additionalProperties"] is False
    assert "locations" in json.loads(cok("schema", "map").stdout)["properties"]
    assert "points" in json.loads(cok("schema", "campaign").stdout)["properties"]
    assert cok("schema", "nope").exit_code == 2


def test_init_points_editors_at_the_schemas(tmp_path: Path) -> None:
    cok = Cok(tmp_path)
    assert cok("init", "c").exit_code == 0
    for name, kind in (("campaign.yaml", "campaign"), ("events.yaml", "events"), ("map.yaml", "map")):
        first = (tmp_path / "c" / name).read_text().splitlines()[0]
        assert first == f"# yaml-language-server: $schema=.schemas/{kind}.schema.json"
        assert json.loads((tmp_path / "c" / ".schemas" / f"{kind}.schema.json").read_text())["$schema"]
    assert (tmp_path / "c" / ".gitattributes").read_text() == "events.yaml merge=cok\n"
    assert ".events.yaml.lock" in (tmp_path / "c" / ".gitignore").read_text()


def test_check_all_checks_every_campaign_below(tmp_path: Path) -> None:
    cok = Cok(tmp_path)
    assert cok("init", "campaigns/one").exit_code == 0
    assert cok("init", "campaigns/two").exit_code == 0
    assert cok("check", "--all").exit_code == 0
    (tmp_path / "campaigns" / "two" / "events.yaml").write_text("- type: nope\n")
    run = cok("check", "--all")
    assert run.exit_code == 1
    assert run.stderr.startswith("campaigns/two/events.yaml:1: unknown event type")


def test_join_with_three_territories_once_every_castle_is_held(cok: Cok, campaign: Path) -> None:
    from cok.rulesets.clash_of_kings.mapfile import load_map

    from ..conftest import WESTEROS

    castles = load_map(WESTEROS).castles()
    (campaign / "events.yaml").write_text(
        "".join(
            f"- {{type: join, player: p{i}, faction: neutral, castle: {json.dumps(c)}}}\n"
            for i, c in enumerate(castles)
        )
    )
    refused = cok("join", "late", "--faction", "stark")
    assert refused.exit_code == 1 and "every castle is held: give --territories" in refused.stderr
    split = cok("join", "late", "--faction", "stark", "--territories", "Moat Cailin", "Barrowton", "Hornwood")
    assert split.exit_code == 1 and "not connected" in split.stderr
    run = cok("join", "late", "--faction", "stark", "--territories", "moat cailin", "Barrowton", "torrhens square")
    assert run.exit_code == 0, run.stderr
    assert "holding Moat Cailin, Barrowton, Torrhen's Square" in run.stdout
    assert "territories: [Moat Cailin, Barrowton, Torrhen's Square]" in (campaign / "events.yaml").read_text()


def test_a_bad_option_value_exits_2_in_one_style(cok: Cok, campaign: Path) -> None:
    setup_two(cok)
    before = snapshot(campaign)
    for args in (
        ("battle", "tim", "matt", "--at", "Tarth", "--winner", "tim", "--points", "-5"),
        ("battle", "tim", "matt", "--at", "Tarth", "--winner", "tim", "--week", "0"),
        ("paint", "tim", "--units", "-1"),
        ("join", "Carl", "--faction", "stark"),
    ):
        run = cok(*args)
        assert run.exit_code == 2, (args, run.stderr)
    assert snapshot(campaign) == before


def test_map_svg_dash_writes_the_picture_to_stdout(cok: Cok, campaign: Path) -> None:
    run = cok("map", "--svg", "-")
    assert run.exit_code == 0
    assert run.stdout.startswith("<?xml") and "</svg>" in run.stdout
    assert not (campaign / "-").exists()
