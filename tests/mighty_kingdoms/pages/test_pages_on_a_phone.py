"""Issue #35 for Mighty Kingdoms at the table: each army's points and whether it is upright
on the kingdom page (`cok mk armies`), the wizard's towers' quest and artefact pages, a map
opened on the kingdom's tiles when it has no capital."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from cok.serve.app import create_app
from cok.service import Draft

from .kingdoms import begun
from .test_pages import Table


@pytest.fixture
def mk(tmp_path: Path) -> Iterator[Table]:
    """ana in the west, bo in the east, month 1 begun (as test_mighty_kingdoms' table)."""
    folder = tmp_path / "mk"
    tokens = begun(folder)
    with TestClient(create_app(folder)) as client:
        yield Table(folder, client, tokens)


def test_the_kingdom_page_shows_each_armys_points_and_whether_it_is_upright(mk: Table) -> None:
    mk.sign_in("ana")
    page = mk.client.get("/play/kingdom").text
    state = mk.state()
    for army in state.armies_of("ana"):
        assert re.search(rf"<strong>{army.id}</strong> <span class=\"meta\">{army.points} points · upright", page)
    mk.play(Draft("order", {"army": "ana-1", "order": "defend"}), Draft("order", {"army": "bo-1", "order": "defend"}))
    mk.play(Draft("resolve", {"army": "ana-1"}))
    after = mk.client.get("/play/kingdom").text
    assert "ana-1</strong>" in after and "on its side" in after


def test_a_quest_from_the_phone_is_the_quest_cok_mk_quest_records(mk: Table) -> None:
    """The example has no wizard's towers: the quest is made and refused in the rules' words."""
    csrf = mk.sign_in("ana")
    assert mk.client.get("/play/quest").status_code == 200
    before = mk.log()
    form = {"csrf": csrf, "tower": "0,0", "hero": "Mage", "die": "4"}
    answer = mk.client.post("/play/quest", data=form)
    assert answer.status_code == 422 and "wizards-towers" in answer.text
    assert mk.log() == before


def test_the_artefact_page_hands_an_artefact_on_as_cok_mk_artefact(mk: Table) -> None:
    csrf = mk.sign_in("Ann")
    assert mk.client.get("/play/artefact").status_code == 200
    answer = mk.client.post("/play/artefact", data={"csrf": csrf, "artefact": "art-1", "to": "bo", "override": "x"})
    assert answer.status_code == 422 and "wizards-towers" in answer.text


def test_a_kingdom_without_a_capital_gets_its_map_opened_on_its_tiles(mk: Table) -> None:
    """The `targets` read its page's map is drawn from opens it on one of the kingdom's tiles."""
    from cok.core.campaign import open_campaign
    from cok.rulesets.mighty_kingdoms.queries import targets

    campaign = open_campaign(mk.folder, use_cache=False)
    state = campaign.state
    state.kingdoms["ana"].capital = None
    opened = targets(campaign, "ana")["around"]
    assert opened in state.tiles_of("ana") and opened != next(iter(state.map.tiles))


def test_a_refusal_on_a_kingdoms_page_names_the_forms_dice_not_the_logs_field() -> None:
    from cok.core.text import in_page_words
    from cok.rulesets.mighty_kingdoms.table import web

    said = in_page_words("ana-1 moves into unexplored 2,0: give the 2D6 `roll`", web().words, {"ana": "Ana"})
    assert said.endswith("give the 2D6 roll (First die and Second die)") and "roll:" not in said
