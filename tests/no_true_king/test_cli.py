"""The `cok ntk` commands and the shared ones on a No True King game, through the real
command line: refusals as `file:line` or `cok:` messages with exit 1 and nothing written,
--dry-run, the seal kept outside the campaign, and nothing secret before the end."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from tests.conftest import Cok
from tests.no_true_king.game import ROOT, RULESET

EXAMPLE = ROOT / "campaigns" / "no-true-king-example"
HOUSES = ["baratheon", "stark", "lannister", "greyjoy", "tyrell"]


@pytest.fixture
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "data"
    monkeypatch.setenv("COK_DATA_DIR", str(folder))
    monkeypatch.setenv("COK_CACHE_DIR", str(tmp_path / "cache"))
    return folder


@pytest.fixture
def ntk(tmp_path: Path, data: Path) -> Cok:
    cok = Cok(tmp_path)
    assert cok("init", "game", "--ruleset", "no-true-king").exit_code == 0
    return Cok(tmp_path / "game")


def joined(ntk: Cok, players: tuple[str, ...] = ("ana", "bo")) -> None:
    for player, symbol in zip(players, ["crown", "torch", "helm"], strict=False):
        made = json.loads(ntk("ntk", "seal", player, *HOUSES, "--json").stdout)
        assert ntk("ntk", "join", player, "--symbol", symbol, "--seal", made["seal"]).exit_code == 0


def test_init_copies_the_board_into_the_campaign(ntk: Cok) -> None:
    assert (ntk.cwd / "map.yaml").read_text().endswith(RULESET.builtin_map().read_text())
    assert "loyalty: sealed" in (ntk.cwd / "campaign.yaml").read_text()


def test_seal_keeps_the_secret_in_the_data_folder_never_in_the_campaign(ntk: Cok, data: Path) -> None:
    run = ntk("ntk", "seal", "ana", *HOUSES, "--json")
    made = json.loads(run.stdout)
    assert len(made["secret"]) >= 16 and Path(made["kept"]).is_relative_to(data)
    assert made["secret"] not in "".join(p.read_text() for p in ntk.cwd.rglob("*") if p.is_file())


def test_status_says_whose_turn_and_what_the_ledger_waits_for(ntk: Cok) -> None:
    joined(ntk)
    assert ntk("ntk", "begin", "--seats", "ana", "bo", "--first", "bo").exit_code == 0
    doc = json.loads(ntk("ntk", "status", "--json").stdout)
    assert {k: doc[k] for k in ("ruleset", "round", "rounds", "first", "phase", "turn")} == {
        "ruleset": "no-true-king",
        "round": 1,
        "rounds": 2,
        "first": "bo",
        "phase": "placement",
        "turn": "bo",
    }
    assert doc["waiting_for"][0]["what"] == "place" and doc["waiting_for"][0]["player"] == "bo"
    assert "Waiting for: bo to place an agent" in ntk("ntk", "status").stdout


def test_an_event_out_of_turn_exits_1_names_what_the_ledger_waits_for_and_writes_nothing(ntk: Cok) -> None:
    joined(ntk)
    ntk("ntk", "begin", "--seats", "ana", "bo", "--first", "bo")
    before = (ntk.cwd / "events.yaml").read_text()
    run = ntk("ntk", "place", "ana", "stark", "lord")
    assert run.exit_code == 1 and "waits for bo to place an agent" in run.stderr and "Traceback" not in run.stderr
    assert (ntk.cwd / "events.yaml").read_text() == before


def test_dry_run_shows_the_summary_and_writes_nothing(ntk: Cok) -> None:
    joined(ntk)
    ntk("ntk", "begin", "--seats", "ana", "bo", "--first", "ana")
    before = (ntk.cwd / "events.yaml").read_text()
    run = ntk("ntk", "place", "ana", "stark", "maester", "--dry-run")
    assert run.exit_code == 0 and "dry run" in run.stdout and "Stark maester" in run.stdout
    assert (ntk.cwd / "events.yaml").read_text() == before


def test_resolve_reads_the_contracts_words_and_combat_previews_before_recording(ntk: Cok) -> None:
    joined(ntk)
    ntk("ntk", "begin", "--seats", "ana", "bo", "--first", "ana")
    ntk("ntk", "place", "ana", "greyjoy", "maester")
    ntk("ntk", "place", "bo", "stark", "maester")
    for player, house in [("ana", "lannister"), ("bo", "tyrell"), ("ana", "baratheon"), ("bo", "greyjoy")]:
        placed = ntk("ntk", "place", player, house, "lord")
        assert placed.exit_code == 0, placed.stderr
    doc = json.loads(ntk("ntk", "status", "--json").stdout)
    assert doc["phase"] == "resolution"
    run = ntk("ntk", "resolve", "ana", "greyjoy", "maester", "--move", "Greywater Watch", "Moat Cailin", "footman")
    assert run.exit_code == 0, run.stderr
    preview = ntk("ntk", "combat", "stark", "Winterfell", "Moat Cailin", "footman", "knight", "--json")
    doc = json.loads(preview.stdout)
    assert doc["attacker"]["power"] == 3 and doc["defender"]["power"] == 1 + 2 and doc["defender"]["fort"] == 2
    assert doc["winner"] is None and {e["winner"] for e in doc["endings"]} == {"stark", "greyjoy"}
    assert "Greywater Watch" in next(e for e in doc["endings"] if e["loser"] == "greyjoy")["retreats"]
    tie = ntk("ntk", "resolve", "bo", "stark", "maester", "--move", "Winterfell", "Moat Cailin", "footman", "knight")
    assert tie.exit_code == 1 and "choose one with --winner NAME: stark, greyjoy" in tie.stderr
    done = ntk(
        "ntk", "resolve", "bo", "stark", "maester", "--move", "Winterfell", "Moat Cailin", "footman", "knight",
        "--winner", "stark", "--retreat", "Greywater Watch",
    )  # fmt: skip
    assert done.exit_code == 0, done.stderr
    assert "a combat: Stark 3 against Greyjoy 3, fort +2" in done.stdout


def test_check_reports_a_broken_event_with_its_file_and_line(ntk: Cok) -> None:
    joined(ntk)
    with open(ntk.cwd / "events.yaml", "a") as log:
        log.write("- type: begin\n  seats: [ana, bo]\n  first: cy\n")
    run = ntk("check")
    assert run.exit_code == 1 and "events.yaml:" in run.stderr + run.stdout and "not seated" in run.stderr + run.stdout


def test_a_seal_already_used_by_another_conspiracy_is_refused_at_its_line_and_on_join(ntk: Cok) -> None:
    joined(ntk, ("ana",))
    seal = next(
        line.split(":", 1)[1].strip()
        for line in (ntk.cwd / "events.yaml").read_text().splitlines()
        if line.strip().startswith("seal:")
    )
    log = (ntk.cwd / "events.yaml").read_bytes()
    run = ntk("ntk", "join", "bo", "--symbol", "torch", "--seal", seal)
    assert run.exit_code == 1 and "already ana's" in run.stderr
    assert (ntk.cwd / "events.yaml").read_bytes() == log
    lines = log.decode().count("\n")
    with open(ntk.cwd / "events.yaml", "a") as handle:
        handle.write(f"- type: conspiracy\n  player: bo\n  symbol: torch\n  seal: {seal}\n")
    check = ntk("check")
    assert check.exit_code == 1 and f"events.yaml:{lines + 1}:" in check.stdout + check.stderr
    assert "already ana's" in check.stdout + check.stderr


def test_a_broken_board_is_refused_with_its_line(ntk: Cok) -> None:
    board = ntk.cwd / "map.yaml"
    board.write_text(board.read_text().replace("Kingswood: [footman]", "Kingswood: [ship]"))
    run = ntk("ntk", "status")
    assert run.exit_code == 1 and "map.yaml:" in run.stderr and "a ship cannot stand on land" in run.stderr


@pytest.fixture
def example(tmp_path: Path, data: Path) -> Cok:
    shutil.copytree(EXAMPLE, tmp_path / "example")
    return Cok(tmp_path / "example")


def test_the_shared_commands_work_on_the_example(example: Cok, tmp_path: Path) -> None:
    assert example("check").exit_code == 0
    log = example("log")
    assert log.exit_code == 0 and "resolves the" in log.stdout
    standings = json.loads(example("standings", "--json").stdout)
    assert standings["ruleset"] == "no-true-king" and standings["over"] is True
    assert [p["rank"] for p in standings["players"]] == [1, 2, 3]
    assert set(standings["houses"][0]) >= {"id", "rank", "crowns", "castles", "towns", "barrels"}
    assert example("site", str(tmp_path / "site")).exit_code == 0
    index = (tmp_path / "site" / "index.html").read_text()
    assert "<svg" in index and "loyalty card" in index
    assert example("map", "--svg", str(tmp_path / "board.svg")).exit_code == 0
    assert (tmp_path / "board.svg").read_text().startswith("<?xml")
    assert example("schema", "events").exit_code == 0
    assert example("ntk", "board").exit_code == 0 and example("ntk", "houses", "--json").exit_code == 0


def test_the_site_is_framed_deterministic_and_its_areas_do_not_overlap(example: Cok, tmp_path: Path) -> None:
    import re

    for out in ("one", "two"):
        assert example("site", str(tmp_path / out)).exit_code == 0
    built = sorted(p.relative_to(tmp_path / "one") for p in (tmp_path / "one").rglob("*") if p.is_file())
    for rel in built:
        assert (tmp_path / "one" / rel).read_bytes() == (tmp_path / "two" / rel).read_bytes(), rel
    index = (tmp_path / "one" / "index.html").read_text()
    assert '<header class="top">' in index and 'name="viewport"' in index and 'class="scroll"' in index
    assert "Friday night at Pyke" in (tmp_path / "one" / "log.html").read_text()
    svg = (tmp_path / "one" / "board.svg").read_text()
    boxes = []
    for shape in re.findall(r'<g class="area"[^>]*><title>[^<]*</title><(rect|ellipse) ([^>]*)>', svg):
        kind, attrs = shape
        got = {k: float(v) for k, v in re.findall(r'(\w+)="([-\d.]+)"', attrs)}
        if kind == "rect":
            boxes.append((got["x"], got["y"], got["x"] + got["width"], got["y"] + got["height"]))
        else:
            cx, cy, rx, ry = got["cx"], got["cy"], got["rx"], got["ry"]
            boxes.append((cx - rx, cy - ry, cx + rx, cy + ry))
    assert len(boxes) == 50
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1], (a, b)


def test_nothing_secret_before_the_game_is_over(tmp_path: Path, data: Path) -> None:
    cok = Cok(tmp_path)
    cok("init", "open", "--ruleset", "no-true-king")
    folder = tmp_path / "open"
    (folder / "campaign.yaml").write_text((folder / "campaign.yaml").read_text().replace("sealed", "open"))
    game = Cok(folder)
    card = ["tyrell", "greyjoy", "lannister", "stark", "baratheon"]
    assert game("ntk", "join", "ana", "--symbol", "crown", "--loyalty", *card).exit_code == 0
    assert game("ntk", "join", "bo", "--symbol", "torch", "--loyalty", *HOUSES).exit_code == 0
    game("ntk", "begin", "--seats", "ana", "bo", "--first", "ana")
    secret = "tyrell, greyjoy"
    outputs = [
        game("log", "--json").stdout,
        game("log").stdout,
        game("standings", "--json").stdout,
        game("standings").stdout,
    ]
    game("site", str(tmp_path / "site"))
    outputs += [p.read_text() for p in (tmp_path / "site").rglob("*") if p.is_file()]
    outputs.append(game("ntk", "status", "--json").stdout)
    for text in outputs:
        assert '"tyrell", "greyjoy", "lannister"' not in text.replace("\n", "").replace("  ", "")
        assert secret not in text and "tyrell > greyjoy" not in text


def test_unseal_reads_the_kept_secret(tmp_path: Path, data: Path) -> None:
    cok = Cok(tmp_path)
    cok("init", "g", "--ruleset", "no-true-king")
    game = Cok(tmp_path / "g")
    joined(game)
    game("ntk", "begin", "--seats", "ana", "bo", "--first", "ana")
    wrong = game("ntk", "unseal", "ana")
    assert wrong.exit_code == 1 and "waits for ana to place an agent" in wrong.stderr


def test_seal_works_where_there_is_no_campaign(tmp_path: Path, data: Path) -> None:
    run = Cok(tmp_path)("ntk", "seal", "ana", *HOUSES, "--json")
    assert run.exit_code == 0 and len(json.loads(run.stdout)["seal"]) == 64
    bad = Cok(tmp_path)("ntk", "seal", "ana", "stark", "stark", "stark", "stark", "stark")
    assert bad.exit_code == 1 and "each once" in bad.stderr


def test_the_log_never_shows_a_loyalty_card_or_secret(example: Cok) -> None:
    import yaml as _yaml

    secrets = _yaml.safe_load((ROOT / "campaigns" / "no-true-king-example-secrets.yaml").read_text())
    log = example("log", "--json").stdout + example("log").stdout
    for kept in secrets.values():
        assert kept["secret"] not in log and ", ".join(kept["loyalty"][:4]) not in log
    assert "unseals their loyalty card: it matches its seal" in log


def test_not_now_before_the_game_begins_names_the_command_to_run_not_an_option(ntk: Cok) -> None:
    joined(ntk)
    run = ntk("ntk", "place", "ana", "stark", "lord")
    assert run.exit_code == 1
    assert "`cok ntk begin" in run.stderr and "--begin" not in run.stderr


@pytest.mark.parametrize(("points", "said"), [(1, "(1 point)"), (2, "(2 points)")])
def test_a_muster_counts_its_points_in_english(points: int, said: str) -> None:
    from cok.rulesets.no_true_king.rules.outcomes import Mustered
    from cok.rulesets.no_true_king.words import _action

    told = _action(Mustered("stark", ("Winterfell",), (), (), points))
    assert told.endswith(said) and "(s)" not in told


def test_one_misspelt_space_in_the_log_is_reported_first_then_how_many_later_events_depend_on_it(
    tmp_path: Path,
) -> None:
    game = tmp_path / "game"
    shutil.copytree(EXAMPLE, game)
    text = (game / "events.yaml").read_text()
    (game / "events.yaml").write_text(text.replace("space: marshal\n", "space: marshall\n", 1))
    run = Cok(game)("check")
    lines = run.stderr.splitlines()
    assert run.exit_code == 1 and len(lines) == 2
    assert "'marshall'" in lines[0] and "did you mean 'marshal'?" in lines[0]
    assert re.fullmatch(r"events\.yaml:\d+: \d+ later events depend on it: .*", lines[1])
    assert lines[1].split(":")[1] == lines[0].split(":")[1]
    listed = json.loads(Cok(game)("check", "--json").stdout)["errors"]
    first = listed[0]["line"]
    assert len(listed) > 2 and all(e["follows_from"] == first for e in listed[1:])


@pytest.mark.parametrize("command", [("ntk", "houses"), ("ntk", "board"), ("ntk", "status"), ("standings",)])
def test_at_80_columns_no_house_name_is_split_over_two_lines(
    command: tuple[str, ...], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("cok.render.output.at_terminal", lambda: True)
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.setenv("COK_PAGER", "")
    run = Cok(EXAMPLE)("--color", "never", *command)
    assert run.exit_code == 0, run.stderr
    words = run.stdout.split()
    for house in HOUSES:
        for cut in range(3, len(house) - 1):
            assert house[:cut] not in words or house[cut:] not in words, (house, cut)


def test_card_plays_a_card_in_turn_before_the_combat_as_a_phone_does(ntk: Cok) -> None:
    joined(ntk)
    ntk("ntk", "begin", "--seats", "ana", "bo", "--first", "ana")
    spots = [("greyjoy", "maester"), ("stark", "maester"), ("lannister", "lord"), ("tyrell", "lord")]
    for i, (house, space) in enumerate([*spots, ("baratheon", "lord"), ("greyjoy", "lord")]):
        assert ntk("ntk", "place", ("ana", "bo")[i % 2], house, space).exit_code == 0
    assert (
        ntk(
            "ntk", "resolve", "ana", "greyjoy", "maester", "--move", "Greywater Watch", "Moat Cailin", "footman"
        ).exit_code
        == 0
    )
    assert ntk("ntk", "resolve", "bo", "stark", "maester", "--draw").exit_code == 0
    opened = ntk("ntk", "card", "ana", "--house", "greyjoy", "--to", "Winterfell")
    assert opened.exit_code == 0 and "Next: bo to play a card, or none, in the combat in Winterfell" in opened.stdout
    waits = json.loads(ntk("ntk", "status", "--json").stdout)["waiting_for"]
    assert waits == [
        {
            "what": "card",
            "player": "bo",
            "house": "greyjoy",
            "area": "Winterfell",
            "played": [{"player": "ana", "card": None}],
        }
    ]
    early = ntk("ntk", "resolve", "ana", "greyjoy", "marshal", "--muster", "Greywater Watch=footman",
                "--move", "Moat Cailin", "Winterfell", "footman")  # fmt: skip
    assert early.exit_code == 1 and "bo to play a card" in early.stderr
    assert ntk("ntk", "card", "bo", "Robb Stark").exit_code == 0
    done = ntk("ntk", "resolve", "ana", "greyjoy", "marshal", "--muster", "Greywater Watch=footman",
               "--move", "Moat Cailin", "Winterfell", "footman")  # fmt: skip
    assert done.exit_code == 0 and "bo plays Robb Stark" in done.stdout
