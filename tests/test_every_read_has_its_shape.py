"""Every read a game answers has its shape (`rulesets/<game>/shapes.py`, `core.shapes`): the
OpenAPI publishes it for `GET /api/<name>`, and every document the reads answer fits it
exactly, on every scenario of every game and on the shipped campaigns: no field the shape
does not name, none of another type (a bot builds on the published schema: docs/api.md)."""

from __future__ import annotations

import shutil
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from openapi_spec_validator import validate

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from cok.contract.openapi import document
from cok.core.campaign import open_campaign
from cok.core.scenarios import Read
from cok.core.shapes import fits
from cok.links import invites
from cok.serve.app import create_app
from tests.conftest import ROOT
from tests.games import GAMES, SCENE_IDS, SCENES, played, reads, ruleset

SHIPPED = sorted(p.parent.name for p in (ROOT / "campaigns").glob("*/campaign.yaml"))


@pytest.fixture(autouse=True)
def _own_data(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COK_DATA_DIR", str(tmp_path_factory.mktemp("data")))


def answered(folder: Path, asked: list[Read]) -> Iterator[tuple[Read, object]]:
    """Each read asked of the campaign's API by an organiser, with the document it answered."""
    token = invites.invite(folder, "Ann", organiser=True)
    with TestClient(create_app(folder)) as client:
        for read in asked:
            answer = client.get(f"/api/{read.name}{read.query}", headers={"authorization": f"Bearer {token}"})
            assert answer.status_code == 200, (read.name, read.query, answer.text)
            yield read, answer.json()


def needs_options(published: dict[str, Any], read: str) -> bool:
    """Whether the published API (`document(game)`) says the read needs an option (whom or what it is about)."""
    asked = published["paths"][f"/api/{read}"]["get"].get("parameters", [])
    return any(p["required"] for p in asked)


@pytest.mark.parametrize("game", GAMES)
def test_every_read_a_game_answers_has_its_shape(game: str) -> None:
    assert set(ruleset(game).shapes) == {"standings", *ruleset(game).queries}


@pytest.mark.parametrize("game", GAMES)
def test_the_api_publishes_each_reads_shape_as_its_answer(game: str) -> None:
    published = document(ruleset(game))
    validate(published)
    for name, model in ruleset(game).shapes.items():
        answer = published["paths"][f"/api/{name}"]["get"]["responses"]["200"]["content"]["application/json"]
        assert answer["schema"] == {"$ref": f"#/components/schemas/{model.__name__}"}, name
        assert model.__name__ in published["components"]["schemas"]


@pytest.mark.parametrize("scene", SCENES, ids=SCENE_IDS)
def test_every_document_a_scenarios_reads_answer_fits_its_shape(scene: tuple[str, str], tmp_path: Path) -> None:
    shapes = ruleset(scene[0]).shapes
    asked = [*reads(*scene), Read("standings")]
    for read, answered_with in answered(played(tmp_path, *scene), asked):
        fits(shapes[read.name], answered_with)


@pytest.mark.parametrize("name", SHIPPED)
def test_every_read_of_a_shipped_campaign_that_needs_no_option_fits_its_shape(name: str, tmp_path: Path) -> None:
    folder = tmp_path / name
    shutil.copytree(ROOT / "campaigns" / name, folder)
    game = open_campaign(folder).ruleset
    published = document(game)  # made once: the options each read needs
    bare = [Read(read) for read in game.queries if not needs_options(published, read)]
    for read, answered_with in answered(folder, [*bare, Read("standings")]):
        fits(game.shapes[read.name], answered_with)
