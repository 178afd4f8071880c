"""`GET /api/<name>` (issue 36, "Reads"): each of a game's reads answers the document its
command prints with `--json`, for the holder of a link; an unknown read is 404 naming them."""

from __future__ import annotations

import json
import re
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from cok.core.campaign import open_campaign
from cok.core.errors import RuleError
from cok.core.scenarios import Read
from cok.links import invites
from cok.serve.app import create_app
from tests.conftest import Cok
from tests.games import SCENE_IDS, SCENES, command, played, reads, ruleset
from tests.service.conftest import shipped

Scene = tuple[str, str]  # a game and the moment of one of its scenarios
Served = tuple[Scene, Path, TestClient, str]

#: Each read of every game's scenarios (`rulesets/<game>/scenarios.py`) with the command line
#: that prints it with `--json` (a read's arguments as a query string and as options), or none
#: where only its pages ask it (the forms' choices). Clash of Kings' `where` is its status
#: (tested in test_api.py).


@pytest.fixture(autouse=True)
def _own_data(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COK_DATA_DIR", str(tmp_path_factory.mktemp("data")))


@pytest.fixture(params=SCENES, ids=SCENE_IDS)
def served(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[Scene, Path, TestClient, str]]:
    folder = played(tmp_path, *request.param)
    token = invites.invite(folder, "Ann", organiser=True)
    with TestClient(create_app(folder)) as client:
        yield request.param, folder, client, token


def printed(scene: Scene) -> list[Read]:
    """The scenario's reads that a command prints, and the standings (every game's)."""
    return [*(read for read in reads(*scene) if read.command is not None), Read("standings", "", ("standings",))]


def for_pages(scene: Scene) -> list[Read]:
    return [read for read in reads(*scene) if read.command is None]


def argv(scene: Scene, read: Read) -> list[str]:
    assert read.command is not None
    return list(read.command) if read.name == "standings" else command(scene[0], *read.command)


def test_each_read_of_the_api_is_what_the_command_prints_with_json(served: Served) -> None:
    scene, folder, client, token = served
    for read in printed(scene):
        answer = client.get(f"/api/{read.name}{read.query}", headers={"authorization": f"Bearer {token}"})
        assert answer.status_code == 200, (read.name, answer.text)
        shown = Cok(folder)(*argv(scene, read), "--json")
        assert shown.exit_code == 0, shown.stderr
        assert answer.json() == json.loads(shown.stdout), (read.name, read.query)


@pytest.mark.parametrize("scene", SCENES, ids=SCENE_IDS)
def test_every_read_a_game_names_is_tested_against_its_command(scene: Scene) -> None:
    """A read added to a game's `queries` without it in the game's scenarios fails this test."""
    untested = set(ruleset(scene[0]).queries) - {read.name for read in reads(*scene)} - {"where"}  # test_api.py
    assert not untested


def test_each_read_only_the_pages_ask_answers_at_the_api(served: Served) -> None:
    """The forms' reads are the game's reads too (`GET /api/<name>`), the same document."""
    from cok.service import queries

    _, folder, client, token = served
    for name, query in ((read.name, read.query) for read in for_pages(served[0])):
        answer = client.get(f"/api/{name}{query}", headers={"authorization": f"Bearer {token}"})
        args = dict(pair.split("=", 1) for pair in query.lstrip("?").split("&") if pair)
        try:
            read = queries.read(folder, name, **args)
        except RuleError as refused:  # the rules' refusal, as the API's 422
            assert (answer.status_code, answer.json()["problems"][0]["message"]) == (422, str(refused))
        else:
            assert answer.status_code == 200, (name, answer.text)
            assert answer.json() == read, (name, query)


def test_a_pages_read_asked_without_whom_it_is_about_is_refused_saying_so(
    served: Served,
) -> None:
    """`/api/offers` without `?player=`: the read's own refusal (422), never a server error."""
    scene, _, client, token = served
    for name, query in ((read.name, read.query) for read in for_pages(scene)):
        if "player=" in query or "house=" in query:
            answer = client.get(f"/api/{name}", headers={"authorization": f"Bearer {token}"})
            assert answer.status_code == 422, (name, answer.text)
            assert "`" in answer.json()["problems"][0]["message"], name


def test_an_unknown_read_is_404_listing_the_reads(served: Served) -> None:
    _, folder, client, token = served
    answer = client.get("/api/nothing", headers={"authorization": f"Bearer {token}"})
    assert answer.status_code == 404
    game = open_campaign(folder).ruleset
    assert answer.json()["names"] == ["standings", *game.queries]
    assert all(name in answer.json()["problems"][0]["message"] for name in game.queries)


def test_a_read_without_a_link_is_401(served: Served) -> None:
    scene, _, client, _ = served
    name = next(read.name for read in printed(scene) if read.name not in ("standings", "status"))
    assert client.get(f"/api/{name}").status_code == 401
    assert client.get(f"/api/{name}", headers={"authorization": "Bearer guess"}).status_code == 401


def test_a_phone_signed_in_with_its_link_reads_too(served: Served) -> None:
    scene, _, client, token = served
    client.get(f"/join/{token}")
    name = next(read.name for read in printed(scene) if read.name not in ("standings", "status"))
    assert client.get(f"/api/{name}").status_code == 200


def test_an_argument_a_read_does_not_take_is_400_naming_those_it_takes(
    served: Served,
) -> None:
    scene, _, client, token = served
    name = next(read.name for read in printed(scene) if read.name not in ("standings", "status"))
    answer = client.get(f"/api/{name}?colour=red", headers={"authorization": f"Bearer {token}"})
    assert answer.status_code == 400
    assert "`colour`" in answer.json()["problems"][0]["message"]


def test_an_unknown_player_in_a_read_is_422_in_the_rules_words(served: Served) -> None:
    scene, _, client, token = served
    about = [read for read in reads(*scene) if "player=" in read.query]
    for read in about:
        query = re.sub(r"player=[^&]*", "player=nobody", read.query)
        answer = client.get(f"/api/{read.name}{query}", headers={"authorization": f"Bearer {token}"})
        assert answer.status_code == 422, (read.name, answer.text)
        assert "nobody" in answer.json()["problems"][0]["message"]


def test_an_option_given_a_value_it_cannot_take_is_400(tmp_path: Path) -> None:
    folder = shipped(tmp_path, "example")
    token = invites.invite(folder, "Ann", organiser=True)
    with TestClient(create_app(folder)) as client:
        answer = client.get("/api/locations?free=maybe", headers={"authorization": f"Bearer {token}"})
    assert answer.status_code == 400
    assert "maybe" in answer.json()["problems"][0]["message"]
