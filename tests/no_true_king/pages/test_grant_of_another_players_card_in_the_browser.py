"""§4.4 in Chromium at 390 px with two player links: bo's Greyjoy lord fights with the Asha
Greyjoy ana plays from her own phone; her page says the move is hers to choose, bo's form asks
it by her name, and Asha's move into Moat Cailin opens its own table, where ana plays again."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.conftest import Cok
from tests.no_true_king.pages.test_grant_of_another_players_card import seated
from tests.no_true_king.pages.test_sealing_in_the_browser import shot
from tests.no_true_king.pages.test_table import Phones
from tests.no_true_king.pages.test_table_in_the_browser import signed_in
from tests.serve.process import serving


@pytest.fixture
def game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """ana holds a Greyjoy and a Stark card, Stark stands in Moat Cailin; bo's Greyjoy lord is next."""
    monkeypatch.setenv("COK_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("COK_CACHE_DIR", str(tmp_path / "cache"))
    assert Cok(tmp_path)("init", "game", "--ruleset", "no-true-king").exit_code == 0
    table = Phones(tmp_path / "game")
    for name in ("ana", "bo"):
        table.sign_in(name)
    table.sign_in("Ann", organiser=True)
    seated(table)
    return tmp_path / "game"


def greyjoy_lord(page: Any) -> None:
    """bo's Greyjoy lord as a thumb fills it: its ships and footman into The Golden Sound, then a draw."""
    page.get_by_label("Move troops, then draw a house card").check()
    page.locator("select[name=route]").select_option("Ironman's Bay|The Golden Sound")
    page.locator("input[name=footmen]").fill("1")
    page.locator("input[name=ships]").fill("2")


def test_asha_played_from_anas_phone_gives_her_move_on_bos_form(browser: Any, game: Path) -> None:
    with serving(game) as served:
        bo, page = signed_in(browser, served.url, game, "bo", "phone")
        page.goto(f"{served.url}/play/conspiracy?agent=greyjoy:lord")
        greyjoy_lord(page)
        with page.expect_navigation():
            page.get_by_role("button", name="Resolve the agent").click()
        assert "Recorded" in page.locator("h1").inner_text()
        ana, phone = signed_in(browser, served.url, game, "ana", "phone")
        phone.goto(f"{served.url}/play/conspiracy")
        phone.get_by_label("Asha Greyjoy", exact=False).check()
        with phone.expect_navigation():
            phone.get_by_role("button", name="Play it").click()
        assert "Recorded" in phone.locator("h1").inner_text()
        phone.goto(f"{served.url}/play/conspiracy")
        told = phone.locator("main").inner_text()
        assert "your Asha Greyjoy grants you a move for Greyjoy (or none): the choice is yours" in told, told
        shot(phone, "grant-hers-to-choose", "phone")
        page.goto(f"{served.url}/play/conspiracy")
        choice = page.get_by_label("Ana Stone moves for Greyjoy (Asha Greyjoy)")
        assert choice.is_checked()
        page.locator("select[name=then-route]").select_option("Greywater Watch|Moat Cailin")
        page.locator("input[name=then-footmen]").fill("1")
        with page.expect_navigation():
            page.get_by_role("button", name="Resolve the agent").click()
        told = page.locator("main").inner_text()
        shot(page, "grant-opens-ashas-table", "phone")
        assert "Next: Ana Stone to play a card, or none, in the combat in Moat Cailin" in told, told
        phone.goto(f"{served.url}/play/conspiracy")
        assert "Asha Greyjoy's move: Greyjoy moves into Moat Cailin" in phone.locator("main").inner_text()
        phone.get_by_label("Eddard Stark", exact=False).check()
        with phone.expect_navigation():
            phone.get_by_role("button", name="Play it").click()
        assert "Recorded" in phone.locator("h1").inner_text()
        page.goto(f"{served.url}/play/conspiracy")
        assert page.get_by_label("Ana Stone moves for Greyjoy (Asha Greyjoy)").is_checked()
        assert page.locator("select[name=then-route]").input_value() == "Greywater Watch|Moat Cailin"
        shot(page, "grant-on-the-active-players-form", "phone")
        with page.expect_navigation():  # a click right after a full-page screenshot is lost: a key
            page.get_by_role("button", name="Resolve the agent").press("Enter")
        told = page.locator("main").inner_text()
        assert "Recorded" in told, told
        shot(page, "grant-recorded", "phone")
        ana.close()
        bo.close()
    events = yaml.safe_load((game / "events.yaml").read_text(encoding="utf-8"))
    resolved = events[-1]
    assert resolved["type"] == "resolve" and resolved["by"] == "bo" and resolved["player"] == "bo"
    assert resolved["combat"]["cards"]["ana"] == "Asha Greyjoy"
    (after,) = resolved["combat"]["after"]
    assert after["move"] == {"from": "Greywater Watch", "to": "Moat Cailin", "units": ["footman"]}
    assert after["combat"]["cards"]["ana"] == "Eddard Stark"
