"""`service.queries`: exactly the documents the commands print with `--json`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cok.core.errors import Refused, RuleError
from cok.service import queries

from ..conftest import Cok
from ..games import GAMES, played, ruleset
from .conftest import shipped

#: The games whose commands are a group of their own (`cok mk …`), each with its `status`.
GROUPED = [(game, ruleset(game).command) for game in GAMES if ruleset(game).command]


def printed(folder: Path, *args: str) -> object:
    run = Cok(folder)(*args, "--json")
    assert run.exit_code == 0, run.stderr
    return json.loads(run.stdout)


@pytest.mark.parametrize("game", GAMES)
def test_the_standings_are_what_cok_standings_json_prints_for_every_game(tmp_path: Path, game: str) -> None:
    folder = played(tmp_path, game)
    assert queries.standings(folder) == printed(folder, "standings")


def test_where_is_what_cok_where_json_prints(tmp_path: Path) -> None:
    folder = shipped(tmp_path, "example")
    assert queries.status(folder, players=["Tim", "matt"]) == printed(folder, "where", "Tim", "matt")
    given = queries.status(folder, players=["tim", "matt"], attacker="matt", brotherhood=["tim"])
    assert given == printed(folder, "where", "tim", "matt", "--attacker", "matt", "--brotherhood", "tim")


def test_where_refuses_as_the_command_does(tmp_path: Path) -> None:
    folder = shipped(tmp_path, "example")
    with pytest.raises(RuleError, match="two different players"):
        queries.status(folder, players=["tim", "TIM"])
    with pytest.raises(RuleError, match="unknown player"):
        queries.status(folder, players=["tim", "nobody"])


@pytest.mark.parametrize(("game", "command"), GROUPED)
def test_another_games_status_is_what_its_status_json_prints(tmp_path: Path, game: str, command: str) -> None:
    folder = played(tmp_path, game)
    assert queries.status(folder) == printed(folder, command, "status")


def test_check_lists_the_problems_cok_check_prints(tmp_path: Path) -> None:
    folder = shipped(tmp_path, "example")
    assert queries.check(folder) == []
    (folder / "events.yaml").write_text((folder / "events.yaml").read_text() + "- type: adjust\n  player: nobody\n")
    problems = queries.check(folder)
    run = Cok(folder)("check", "--json")
    assert [p.message for p in problems] == [e["message"] for e in json.loads(run.stdout)["errors"]]
    assert problems and problems[0].line is not None


def test_a_campaign_with_problems_has_no_standings(tmp_path: Path) -> None:
    folder = shipped(tmp_path, "example")
    (folder / "events.yaml").write_text((folder / "events.yaml").read_text() + "- type: adjust\n  player: nobody\n")
    with pytest.raises(Refused):
        queries.standings(folder)


#: Reads whose command needs arguments (`cok ntk combat HOUSE FROM TO`): tested with them in
#: tests/serve/test_reads.py (FOR_PAGES) and the game's own tests.
NEEDS_ARGUMENTS = {"combat"}


@pytest.mark.parametrize(("game", "command"), GROUPED)
def test_each_read_a_game_names_is_what_its_command_prints(tmp_path: Path, game: str, command: str) -> None:
    """The reads that are commands too (`cok mk armies`); the reads only its pages ask (what a
    kingdom may do now) are tested as the API answers them (tests/serve/test_reads.py)."""
    import typer

    from cok.core.campaign import open_campaign

    folder = played(tmp_path, game)
    names = queries.names(folder)
    group = typer.main.get_command(open_campaign(folder).ruleset.commands())
    commands = set(getattr(group, "commands", {}))
    assert {"status"} <= commands and {"standings", "status"} <= set(names)
    for name in names:
        if name != "standings" and (name not in commands or name in NEEDS_ARGUMENTS):
            continue
        argv = ["standings"] if name == "standings" else [command, name]
        assert queries.read(folder, name) == printed(folder, *argv), name


def test_an_unknown_read_is_refused_naming_the_games_reads(tmp_path: Path) -> None:
    folder = shipped(tmp_path, "mighty-kingdoms")
    with pytest.raises(Refused) as refused:
        queries.read(folder, "armys")
    said = str(refused.value)
    assert "armys" in said and all(name in said for name in ("standings", "armies", "kingdoms", "battles"))


def test_an_argument_a_read_does_not_take_is_refused_naming_those_it_takes(tmp_path: Path) -> None:
    folder = shipped(tmp_path, "example")
    with pytest.raises(Refused) as refused:
        queries.read(folder, "locations", colour="red")
    assert "`colour`" in str(refused.value) and "`free`" in str(refused.value) and "`player`" in str(refused.value)
