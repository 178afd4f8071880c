"""No True King's deadlines end to end (issue 48; docs/no-true-king.md "Deadlines"): the real
command line at a clock the tests set (`COK_NOW`, never a sleep), `cok tick` recording each
missed turn's default once as an ordinary event, and `cok check` accepting the log after it."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest

from tests.conftest import Cok, Run

HOUSES = ["baratheon", "stark", "lannister", "greyjoy", "tyrell"]
T0 = dt.datetime(2026, 12, 1, 12, 0, tzinfo=dt.UTC)  # Tuesday: the game begins
DUE = T0 + dt.timedelta(hours=48)  # bo's first placement is due Thursday 12:00


def iso(moment: dt.datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def at(game: Path, moment: dt.datetime, *args: str, columns: int = 80) -> Run:
    """The real command line in the game's folder, its clock at `moment`."""
    return Cok(game)(*args, env={"COK_NOW": iso(moment), "COLUMNS": str(columns)})


def log(game: Path) -> str:
    return (game / "events.yaml").read_text()


@pytest.fixture
def game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """ana and bo, seated with bo first, the game begun at T0; each turn due 48 h after it opens."""
    monkeypatch.setenv("COK_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("COK_CACHE_DIR", str(tmp_path / "cache"))
    assert Cok(tmp_path)("init", "game", "--ruleset", "no-true-king").exit_code == 0
    folder = tmp_path / "game"
    with (folder / "campaign.yaml").open("a") as settings:
        settings.write("timezone: Europe/London\ndeadlines: {turn: 48h, unseal: 3d}\nabsent_after: 2\n")
    for player, symbol in (("ana", "crown"), ("bo", "torch")):
        made = json.loads(at(folder, T0, "ntk", "seal", player, *HOUSES, "--json").stdout)
        joined = at(folder, T0, "ntk", "join", player, "--symbol", symbol, "--seal", made["seal"])
        assert joined.exit_code == 0, joined.stderr
    begun = at(folder, T0, "ntk", "begin", "--seats", "ana", "bo", "--first", "bo")
    assert begun.exit_code == 0, begun.stderr
    return folder


def checked(game: Path, moment: dt.datetime) -> None:
    run = at(game, moment, "check")
    assert run.exit_code == 0, run.stdout + run.stderr


def test_status_gives_the_turns_due_time_beside_whose_turn_it_is(game: Path) -> None:
    doc = json.loads(at(game, T0, "ntk", "status", "--json").stdout)
    assert doc["turn"] == "bo" and doc["absent"] == []
    assert doc["due"] == [
        {"step": "turn", "player": "bo", "what": "bo to place an agent", "due": "2026-12-03T12:00:00+00:00",
         "absent": False}
    ]  # fmt: skip


def test_status_shows_the_due_time_at_the_ledgers_clock_within_80_columns(game: Path) -> None:
    run = at(game, T0, "ntk", "status")
    assert "bo's turn is due Thu 3 Dec 12:00 — in 2 days." in run.stdout
    assert max(len(line) for line in run.stdout.splitlines()) <= 80


def test_a_tick_before_the_deadline_records_nothing(game: Path) -> None:
    before = log(game)
    assert at(game, DUE - dt.timedelta(seconds=1), "tick").exit_code == 0
    assert log(game) == before


def test_a_missed_placement_is_passed_once_by_the_ledger_saying_when_it_was_due(game: Path) -> None:
    first = at(game, DUE, "tick")
    again = at(game, DUE, "tick")
    assert first.exit_code == 0 and again.exit_code == 0, first.stderr + again.stderr
    text = log(game)
    assert text.count("- type: pass\n  player: bo\n") == 1
    assert "  by: ledger\n  default: deadline\n  due: '2026-12-03T12:00:00Z'\n" in text
    told = "no turn from bo by Thu 3 Dec 12:00 (applied Thu 3 Dec 12:00): bo places no agent: the turn passes."
    assert told in first.stdout and told in at(game, DUE, "log").stdout
    doc = json.loads(at(game, DUE, "ntk", "status", "--json").stdout)
    assert doc["turn"] == "ana" and doc["due"][0]["due"] == "2026-12-05T12:00:00+00:00"
    checked(game, DUE)


def test_a_placement_missed_while_nothing_ran_is_passed_at_the_next_tick_dated_then(game: Path) -> None:
    late = DUE + dt.timedelta(days=2, hours=3)
    assert at(game, late, "tick").exit_code == 0
    text = log(game)
    assert f"  at: '{iso(late)}'" in text and "  due: '2026-12-03T12:00:00Z'" in text
    # ana's turn opened when the default was applied: due 48 h later, not at once
    assert json.loads(at(game, late, "ntk", "status", "--json").stdout)["due"][0]["due"] == "2026-12-07T15:00:00+00:00"


def test_a_default_tick_dry_run_writes_nothing(game: Path) -> None:
    before = log(game)
    run = at(game, DUE, "tick", "--dry-run")
    assert run.exit_code == 0 and "would record" in run.stdout and "places no agent" in run.stdout
    assert log(game) == before


def test_none_records_nothing_at_the_deadline(game: Path) -> None:
    with (game / "campaign.yaml").open("a") as settings:
        settings.write("defaults: {turn: none}\n")
    before = log(game)
    assert at(game, DUE + dt.timedelta(days=5), "tick").exit_code == 0
    assert log(game) == before


def test_a_conspiracy_missing_turns_in_a_row_is_absent_and_its_turns_pass_as_they_open(game: Path) -> None:
    assert at(game, DUE, "tick").exit_code == 0  # bo's first placement
    assert at(game, DUE, "ntk", "place", "ana", "stark", "maester").exit_code == 0
    second = DUE + dt.timedelta(hours=48)
    assert at(game, second, "tick").exit_code == 0  # bo's second: absent now
    doc = json.loads(at(game, second, "ntk", "status", "--json").stdout)
    assert doc["absent"] == ["bo"]
    standings = json.loads(at(game, second, "standings", "--json").stdout)
    assert {p["id"]: p["absent"] for p in standings["players"]} == {"ana": False, "bo": True}
    assert "bo (absent)" in at(game, second, "standings", columns=120).stdout
    placed = second + dt.timedelta(minutes=5)
    assert at(game, placed, "ntk", "place", "ana", "tyrell", "maester").exit_code == 0
    assert at(game, placed, "tick").exit_code == 0  # bo's third placement passes at once
    assert log(game).count("  default: absent\n") == 1
    assert json.loads(at(game, placed, "ntk", "status", "--json").stdout)["turn"] == "ana"
    checked(game, placed)
    assert at(game, placed, "site", str(game.parent / "site")).exit_code == 0
    assert '<td class="lead">bo (absent)</td>' in (game.parent / "site" / "index.html").read_text()


def test_an_absent_conspiracy_brought_back_has_its_whole_deadline_again(game: Path) -> None:
    assert at(game, DUE, "tick").exit_code == 0
    assert at(game, DUE, "ntk", "place", "ana", "stark", "maester").exit_code == 0
    second = DUE + dt.timedelta(hours=48)
    assert at(game, second, "tick").exit_code == 0
    assert at(game, second, "ntk", "place", "ana", "tyrell", "maester").exit_code == 0
    back = at(game, second, "deadline", "back", "bo")
    assert back.exit_code == 0, back.stderr
    doc = json.loads(at(game, second, "ntk", "status", "--json").stdout)
    assert doc["absent"] == [] and doc["due"][0]["due"] == "2026-12-07T12:00:00+00:00"
    assert at(game, second, "tick").exit_code == 0 and "default: absent" not in log(game)


def test_a_hand_written_placement_pass_is_refused_by_cok_check_at_its_line(game: Path) -> None:
    with (game / "events.yaml").open("a") as events:
        events.write(f"- type: pass\n  player: bo\n  at: '{iso(DUE)}'\n")
    run = at(game, DUE, "check")
    assert run.exit_code == 1 and "every conspiracy places three agents" in run.stdout + run.stderr


def test_a_whole_round_with_one_conspiracy_gone_completes_by_its_defaults(game: Path) -> None:
    """bo never acts: the tick passes bo's placements and exchange; ana places, then goes
    quiet too while resolving (the tick resolves ana's agents taking no action), and passes her
    exchange herself. Round 2 begins, and `cok check` accepts every default in the log.
    (Nobody is marked absent here: each default waits for its own deadline.)"""
    settings = game / "campaign.yaml"
    settings.write_text(settings.read_text().replace("absent_after: 2", "absent_after: 0"))
    now = T0
    for house in ("stark", "tyrell", "greyjoy"):
        now += dt.timedelta(hours=48)
        assert at(game, now, "tick").exit_code == 0
        assert at(game, now, "ntk", "place", "ana", house, "maester").exit_code == 0
    for _ in range(12):
        doc = json.loads(at(game, now, "ntk", "status", "--json").stdout)
        if doc["phase"] != "resolution":
            break
        now += dt.timedelta(hours=48)
        assert at(game, now, "tick").exit_code == 0
    assert doc["phase"] == "exchanges" and doc["turn"] == "bo"
    now += dt.timedelta(hours=48)
    assert at(game, now, "tick").exit_code == 0
    assert at(game, now, "ntk", "pass", "ana").exit_code == 0
    doc = json.loads(at(game, now, "ntk", "status", "--json").stdout)
    assert (doc["round"], doc["phase"], doc["turn"]) == (2, "placement", "ana")
    text = log(game)
    assert text.count("default: deadline") >= 3 + 6 + 1  # bo's placements, ana's agents (up, then back), bo's exchange
    assert text.count("- type: resolve\n") == 9  # three agents, each maester, marshal, lord, taking no action
    checked(game, now)


def test_a_card_missed_in_anothers_combat_is_none_and_the_combat_goes_on(game: Path) -> None:
    """bo holds a Stark card when ana's Greyjoy marshal marches into bo's Stark troops at Moat
    Cailin: ana opens the combat's table, bo never plays; at the deadline the tick plays no
    card for bo (§4.4: each player "may" play one), and ana resolves the combat."""
    now = T0
    for player, spot in [
        ("bo", ("stark", "maester")),
        ("ana", ("greyjoy", "maester")),
        ("bo", ("tyrell", "lord")),
        ("ana", ("lannister", "lord")),
        ("bo", ("baratheon", "lord")),
        ("ana", ("greyjoy", "lord")),
    ]:
        assert at(game, now, "ntk", "place", player, *spot).exit_code == 0
    for args in [
        ("bo", "stark", "maester", "--draw"),
        ("ana", "greyjoy", "maester", "--draw"),
        ("bo", "stark", "marshal", "--muster", "Winterfell=footman", "--move", "Winterfell", "Moat Cailin", "footman"),
    ]:
        run = at(game, now, "ntk", "resolve", *args)
        assert run.exit_code == 0, run.stderr
    opened = at(game, now, "ntk", "card", "ana", "--house", "greyjoy", "--to", "Moat Cailin")
    assert opened.exit_code == 0, opened.stderr
    doc = json.loads(at(game, now, "ntk", "status", "--json").stdout)
    assert [(d["player"], d["due"]) for d in doc["due"]] == [("bo", "2026-12-03T12:00:00+00:00")]
    assert at(game, DUE, "tick").exit_code == 0
    assert "  player: bo\n  id:" in log(game).rsplit("- type: card", 1)[1] and "default: deadline" in log(game)
    doc = json.loads(at(game, DUE, "ntk", "status", "--json").stdout)
    assert doc["waiting_for"][0]["what"] == "resolve" and doc["turn"] == "ana"
    fought = at(game, DUE, "ntk", "resolve", "ana", "greyjoy", "marshal", "--muster", "Greywater Watch=footman",
                "--move", "Greywater Watch", "Moat Cailin", "footman", "footman")  # fmt: skip
    assert fought.exit_code == 0, fought.stderr
    checked(game, DUE)
