"""`GET /api/<name>` (issue 36, "Reads"): each of a game's reads answers the document its
command prints with `--json`, for the holder of a link; an unknown read is 404 naming them."""

from __future__ import annotations

import json
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from cok.core.campaign import open_campaign
from cok.core.errors import RuleError
from cok.links import invites
from cok.serve.app import create_app
from tests.conftest import ROOT, Cok
from tests.service.conftest import shipped

#: Per shipped example, each read and the command line that prints it with `--json` (a read's
#: arguments as a query string and as options). Clash of Kings' `where` is its status (tested
#: in test_api.py).
READS = {
    "example": [
        ("locations", "", ["locations"]),
        ("locations", "?free=1", ["locations", "--free"]),
        ("locations", "?player=tim", ["locations", "--player", "tim"]),
        ("modes", "", ["modes", "-C", "."]),
        ("modes", "?mode=a-clash-of-kings", ["modes", "a-clash-of-kings", "-C", "."]),
        ("week", "", ["week"]),
        ("standings", "", ["standings"]),
    ],
    "mighty-kingdoms": [
        ("kingdoms", "", ["mk", "kingdoms"]),
        ("armies", "", ["mk", "armies"]),
        ("armies", "?player=Ana", ["mk", "armies", "--player", "Ana"]),
        ("battles", "", ["mk", "battles"]),
        ("status", "", ["mk", "status"]),
        ("standings", "", ["standings"]),
    ],
    "mighty-kingdoms-kow": [
        ("kingdoms", "", ["mk", "kingdoms"]),
        ("armies", "", ["mk", "armies"]),
        ("battles", "", ["mk", "battles"]),
        ("status", "", ["mk", "status"]),
    ],
    "no-true-king-example": [
        ("board", "", ["ntk", "board"]),
        ("houses", "", ["ntk", "houses"]),
        ("status", "", ["ntk", "status"]),
        ("standings", "", ["standings"]),
    ],
}


#: Per shipped example, the reads its pages ask that no command prints (the forms' choices),
#: each with a query string it answers.
FOR_PAGES: dict[str, list[tuple[str, str]]] = {
    "example": [("players", ""), ("factions", "")],
    "mighty-kingdoms": [
        ("offers", "?player=Ana"),
        ("targets", "?player=ana&army=ana-1"),
        ("towers", "?player=ana"),
        ("phase", ""),
        ("recalls", ""),
        ("rules", ""),
        ("artefacts", ""),
        ("picture", ""),
    ],
    "mighty-kingdoms-kow": [
        ("offers", "?player=bo"),
        ("targets", "?player=bo"),
        ("towers", "?player=bo"),
        ("phase", ""),
        ("recalls", ""),
        ("rules", ""),
        ("artefacts", ""),
        ("picture", ""),
    ],
    "no-true-king-example": [
        ("game", ""),
        ("turn", "?player=ana"),
        ("resolving", "?player=Ana"),
        ("cards", "?player=ana"),
        ("picture", ""),
        ("combat", "?house=greyjoy&origin=Pyke&to=Ironman's Bay&units=footman"),  # refused: 422
        ("opening", "?house=greyjoy&then=move&then_route=Pyke|Ironman's Bay&granted_to=Ironman's Bay"),
    ],
}


@pytest.fixture(autouse=True)
def _own_data(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COK_DATA_DIR", str(tmp_path_factory.mktemp("data")))


@pytest.fixture(params=sorted(READS))
def served(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[str, Path, TestClient, str]]:
    folder = shipped(tmp_path, request.param)
    token = invites.invite(folder, "Ann", organiser=True)
    with TestClient(create_app(folder)) as client:
        yield request.param, folder, client, token


def test_each_read_of_the_api_is_what_the_command_prints_with_json(served: tuple[str, Path, TestClient, str]) -> None:
    example, folder, client, token = served
    for name, query, argv in READS[example]:
        answer = client.get(f"/api/{name}{query}", headers={"authorization": f"Bearer {token}"})
        assert answer.status_code == 200, (name, answer.text)
        printed = Cok(folder)(*argv, "--json")
        assert printed.exit_code == 0, printed.stderr
        assert answer.json() == json.loads(printed.stdout), (name, query)


@pytest.mark.parametrize("example", sorted(READS))
def test_every_read_a_game_names_is_tested_against_its_command(example: str) -> None:
    """A read added to a game's `queries` without its command here fails this test."""
    game = open_campaign(ROOT / "campaigns" / example).ruleset
    pages = {name for name, _ in FOR_PAGES.get(example, [])}
    untested = set(game.queries) - {name for name, _, _ in READS[example]} - pages - {"where"}  # where: test_api.py
    assert not untested


def test_each_read_only_the_pages_ask_answers_at_the_api(served: tuple[str, Path, TestClient, str]) -> None:
    """The forms' reads are the game's reads too (`GET /api/<name>`), the same document."""
    from cok.service import queries

    example, folder, client, token = served
    for name, query in FOR_PAGES.get(example, []):
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
    served: tuple[str, Path, TestClient, str],
) -> None:
    """`/api/offers` without `?player=`: the read's own refusal (422), never a server error."""
    example, _, client, token = served
    for name, query in FOR_PAGES.get(example, []):
        if "player=" in query or "house=" in query:
            answer = client.get(f"/api/{name}", headers={"authorization": f"Bearer {token}"})
            assert answer.status_code == 422, (name, answer.text)
            assert "`" in answer.json()["problems"][0]["message"], name


def test_an_unknown_read_is_404_listing_the_reads(served: tuple[str, Path, TestClient, str]) -> None:
    _, folder, client, token = served
    answer = client.get("/api/nothing", headers={"authorization": f"Bearer {token}"})
    assert answer.status_code == 404
    game = open_campaign(folder).ruleset
    assert answer.json()["names"] == ["standings", *game.queries]
    assert all(name in answer.json()["problems"][0]["message"] for name in game.queries)


def test_a_read_without_a_link_is_401(served: tuple[str, Path, TestClient, str]) -> None:
    example, _, client, _ = served
    name = next(n for n, _, _ in READS[example] if n not in ("standings", "status"))
    assert client.get(f"/api/{name}").status_code == 401
    assert client.get(f"/api/{name}", headers={"authorization": "Bearer guess"}).status_code == 401


def test_a_phone_signed_in_with_its_link_reads_too(served: tuple[str, Path, TestClient, str]) -> None:
    example, _, client, token = served
    client.get(f"/join/{token}")
    name = next(n for n, _, _ in READS[example] if n not in ("standings", "status"))
    assert client.get(f"/api/{name}").status_code == 200


def test_an_argument_a_read_does_not_take_is_400_naming_those_it_takes(
    served: tuple[str, Path, TestClient, str],
) -> None:
    example, _, client, token = served
    name = next(n for n, _, _ in READS[example] if n not in ("standings", "status"))
    answer = client.get(f"/api/{name}?colour=red", headers={"authorization": f"Bearer {token}"})
    assert answer.status_code == 400
    assert "`colour`" in answer.json()["problems"][0]["message"]


def test_an_unknown_player_in_a_read_is_422_in_the_rules_words(tmp_path: Path) -> None:
    folder = shipped(tmp_path, "mighty-kingdoms")
    token = invites.invite(folder, "Ann", organiser=True)
    with TestClient(create_app(folder)) as client:
        answer = client.get("/api/armies?player=nobody", headers={"authorization": f"Bearer {token}"})
    assert answer.status_code == 422
    assert "nobody" in answer.json()["problems"][0]["message"]


def test_an_option_given_a_value_it_cannot_take_is_400(tmp_path: Path) -> None:
    folder = shipped(tmp_path, "example")
    token = invites.invite(folder, "Ann", organiser=True)
    with TestClient(create_app(folder)) as client:
        answer = client.get("/api/locations?free=maybe", headers={"authorization": f"Bearer {token}"})
    assert answer.status_code == 400
    assert "maybe" in answer.json()["problems"][0]["message"]
