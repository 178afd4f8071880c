"""Issue 35 (third pass), in Chromium at 390 and 1280 px with two player links: ana's move
with Asha Greyjoy grants Greyjoy a move into bo's Stark troops; bo plays his card in that
combat from his own page, and the log holds both cards, each recorded by its own player."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.conftest import Cok
from tests.no_true_king.pages.test_sealing_in_the_browser import SIZES, shot
from tests.no_true_king.pages.test_table import Phones
from tests.no_true_king.pages.test_table_in_the_browser import signed_in
from tests.no_true_king.test_granted_combat_cards import before_ashas_move
from tests.serve.process import serving


@pytest.fixture
def game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """bo has drawn a Stark card and marched into Moat Cailin; ana holds Asha Greyjoy."""
    monkeypatch.setenv("COK_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("COK_CACHE_DIR", str(tmp_path / "cache"))
    assert Cok(tmp_path)("init", "game", "--ruleset", "no-true-king").exit_code == 0
    table = Phones(tmp_path / "game")
    for name in ("ana", "bo"):
        table.sign_in(name)
    table.sign_in("Ann", organiser=True)
    before_ashas_move(table)
    return tmp_path / "game"


def ashas_move(page: Any) -> None:
    """ana's Greyjoy marshal as a thumb fills it: ships into The Golden Sound with Asha, and
    Asha's move of Greywater Watch's footman into Moat Cailin."""
    page.get_by_label("Muster troops, then move troops").check()
    page.locator("select[name=route]").select_option("Ironman's Bay|The Golden Sound")
    page.locator("input[name=footmen]").fill("0")
    page.locator("input[name=ships]").fill("2")
    if page.locator("select[name=card]").count():
        page.locator("select[name=card]").select_option("Asha Greyjoy")
    details = page.locator("details.ntk-more")
    if details.get_attribute("open") is None:
        details.locator("summary").click()
    page.get_by_label("Asha Greyjoy: Greyjoy moves").check()
    page.locator("select[name=then-route]").select_option("Greywater Watch|Moat Cailin")
    page.locator("input[name=then-footmen]").fill("1")


def kept(page: Any) -> None:
    """The resolve form as ana sent it, back in the page after the table opened."""
    assert page.locator("input[name=ships]").input_value() == "2"
    assert page.locator("input[name=footmen]").input_value() == "0"
    assert page.locator("select[name=then-route]").input_value() == "Greywater Watch|Moat Cailin"
    assert page.locator("input[name=then-footmen]").input_value() == "1"
    assert page.get_by_label("Asha Greyjoy: Greyjoy moves").is_checked()


@pytest.mark.parametrize("size", list(SIZES))
def test_the_defender_plays_their_card_in_ashas_combat_from_their_own_page(browser: Any, game: Path, size: str) -> None:
    with serving(game) as served:
        ana, page = signed_in(browser, served.url, game, "ana", size)
        page.goto(f"{served.url}/play/conspiracy")
        ashas_move(page)
        page.get_by_role("button", name="Resolve the agent").click()
        assert "Recorded" in page.locator("h1").inner_text()
        page.goto(f"{served.url}/play/conspiracy")
        shot(page, "asha-first-table-played", size)
        kept(page)  # the form as ana filled it, kept by her browser while the table is open
        page.get_by_role("button", name="Resolve the agent").click()
        told = page.locator("main").inner_text()
        assert "Next: Bo Reed to play a card, or none, in the combat in Moat Cailin" in told, told
        bo, phone = signed_in(browser, served.url, game, "bo", size)
        phone.goto(f"{served.url}/play/conspiracy")
        shot(phone, "asha-card-turn", size)
        assert "Asha Greyjoy's move: Greyjoy moves into Moat Cailin" in phone.locator("main").inner_text()
        phone.get_by_label("Eddard Stark", exact=False).check()
        phone.get_by_role("button", name="Play it").click()
        assert "Recorded" in phone.locator("h1").inner_text()
        page.goto(f"{served.url}/play/conspiracy")
        shot(page, "asha-resolve-after-cards", size)
        kept(page)
        page.get_by_role("button", name="Preview").click()  # issue 35, every game: what it would change
        shown = page.locator("main").inner_text()
        assert "Before it is recorded" in shown and "Bo Reed plays Eddard Stark" in shown, shown
        assert "Next: Bo Reed to resolve an agent" in shown, shown  # the game's words, with names
        shot(page, "asha-preview", size)
        page.get_by_role("button", name="Record it").click()
        told = page.locator("main").inner_text()
        assert "Recorded" in told and "Bo Reed plays Eddard Stark" in told, told
        ana.close()
        bo.close()
    events = yaml.safe_load((game / "events.yaml").read_text(encoding="utf-8"))
    played = [(e["player"], e.get("card"), e["by"]) for e in events if e["type"] == "card"]
    assert played == [("ana", "Asha Greyjoy", "ana"), ("ana", None, "ana"), ("bo", "Eddard Stark", "bo")]
    resolved = events[-1]
    assert resolved["type"] == "resolve" and resolved["by"] == "ana"
    assert resolved["combat"]["cards"] == {"ana": "Asha Greyjoy"}
    assert resolved["combat"]["after"][0]["combat"]["cards"] == {"ana": None, "bo": "Eddard Stark"}
