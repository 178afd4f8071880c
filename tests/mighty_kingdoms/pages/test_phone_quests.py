"""Issue #35, "What only the terminal can do today": Mighty Kingdoms' wizard's towers' quests
and artefacts from a phone at 390 px (docs/mighty-kingdoms.md 5.7). A campaign with a tower in
reach (tests/mighty_kingdoms/pages/towers.py, made by `cok mk` commands); ana sends a hero on a quest and then
loses the artefact to the pool from her phone, and each event the page records equals the one
`cok mk quest` / `cok mk artefact` records for the same inputs in a copy of the campaign."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from cok.links import invites
from tests.browser import PHONE, browser, flaws, small_taps
from tests.mighty_kingdoms.pages.towers import TOWER, cok, count, last_event, towered
from tests.serve.process import serving

SHOTS = Path(os.environ.get("COK_SHOTS") or tempfile.gettempdir()) / "cok-phone-shots"


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    with browser() as launched:
        yield launched


def _look(page: Any, name: str) -> list[str]:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"phone-mk-{name}.png"), full_page=True)
    return small_taps(page) + flaws(page)


def test_a_quest_and_an_artefact_recorded_from_a_phone_equal_the_terminals(chromium: Any, tmp_path: Path) -> None:
    phone = towered(tmp_path / "phone")
    terminal = tmp_path / "terminal"
    shutil.copytree(phone, terminal)
    token = invites.invite(phone, "ana")
    with serving(phone) as served:
        context = chromium.new_context(viewport=PHONE)
        page = context.new_page()
        page.goto(f"{served.url}/join/{token}")

        page.goto(served.url + "/play/kingdom")  # in winter, next to a tower: the way to the quest
        page.get_by_role("link", name="Send a hero on a quest…").click()
        assert _look(page, "quest") == []
        page.locator(f'input[name="tower"][value="{TOWER}"]').check()
        page.fill('input[name="hero"]', "Prince")
        page.fill('input[name="points"]', "150")
        page.select_option('select[name="die"]', "4")
        page.fill('input[name="artefact"]', "Blade of Ashes")
        before = count(phone)
        page.get_by_role("button", name="Record the quest").click()
        assert _look(page, "quest-recorded") == []
        assert count(phone) == before + 1, page.content()
        cok(
            terminal,
            "mk",
            "quest",
            "ana",
            "--tower",
            TOWER,
            "--hero",
            "Prince",
            "--points",
            "150",
            "--roll",
            "4",
            "--artefact",
            "Blade of Ashes",
        )
        recorded = last_event(phone)
        assert recorded == last_event(terminal) and recorded["type"] == "quest"
        assert "art-1" in page.inner_text("main")  # the artefact gained, in the page's words

        page.goto(served.url + "/play/kingdom")
        page.get_by_role("link", name="Artefacts…").click()
        assert _look(page, "artefact") == []
        # handed on to another kingdom or the pool, never to the kingdom holding it
        assert page.locator('select[name="to"] option[value="ana"]').count() == 0
        assert "Blade of Ashes" in page.inner_text("main")
        page.select_option('select[name="artefact"]', "art-1")
        page.select_option('select[name="to"]', "pool")
        page.get_by_role("button", name="Hand it on").click()
        assert _look(page, "artefact-recorded") == []
        assert count(phone) == before + 2, page.content()
        cok(terminal, "mk", "artefact", "art-1", "--to", "pool")
        recorded = last_event(phone)
        assert recorded == last_event(terminal) and recorded["type"] == "artefact"
        context.close()


def test_a_quest_rolled_for_the_player_shows_the_die_the_log_holds(chromium: Any, tmp_path: Path) -> None:
    """#35: every die rolled by cok is shown where it was asked for, in the log's words."""
    phone = towered(tmp_path / "phone")
    token = invites.invite(phone, "bo")  # bo's city (1,0) is next to the tower too
    with serving(phone) as served:
        context = chromium.new_context(viewport=PHONE)
        page = context.new_page()
        page.goto(f"{served.url}/join/{token}")
        page.goto(served.url + "/play/quest")
        page.locator(f'input[name="tower"][value="{TOWER}"]').check()
        page.fill('input[name="hero"]', "Mage")
        page.get_by_role("button", name="Roll for me").click()  # the first roll: committed, sent again by itself
        expect(page.locator("main")).to_contain_text("dice rolled by cok", timeout=10_000)
        recorded = last_event(phone)
        assert recorded["type"] == "quest" and recorded["player"] == "bo"
        shown = page.inner_text("main")
        assert f"roll {recorded['roll']}" in shown and f"dice rolled by cok: {recorded['roll']}" in shown, shown
        assert _look(page, "quest-rolled") == []
        context.close()
