"""A Mighty Kingdoms month at the table in a real browser (Playwright driving Debian's
chromium) at a phone's 390×844: two players on two browser contexts give their orders (a
move by tapping a tile on the map), resolve them in turn (one with dice rolled by the
server) and see each other's recordings come in without reloading; the organiser records the
reform. And live refresh for every game: a page with a half-filled form is never reloaded.
Screenshots go to $COK_SHOTS (default: the system's temporary folder)."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import expect

from cok.links import invites
from tests.browser import flaws
from tests.mighty_kingdoms.pages.kingdoms import begun
from tests.serve.process import serving

SHOTS = Path(os.environ.get("COK_SHOTS") or tempfile.gettempdir()) / "cok-serve-shots"
PHONE = {"width": 390, "height": 844}
#: Long enough for a page polling every 3 s to see a change, and refresh.
LIVE = 10_000


def shot(page: Any, name: str) -> None:
    """A screenshot kept, and nothing sideways: the document is no wider than the window."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"mk-{name}.png"), full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= page.evaluate("window.innerWidth"), name


def in_view(page: Any, selector: str) -> bool:
    """Whether the element is inside the map's frame as it opened, before any panning."""
    return bool(
        page.eval_on_selector(
            selector,
            """e => { const f = e.closest('.mk-frame').getBoundingClientRect(), r = e.getBoundingClientRect();
                     return r.left >= f.left && r.right <= f.right && r.top >= f.top && r.bottom <= f.bottom; }""",
        )
    )


def phone(browser: Any, url: str, token: str) -> Any:
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.goto(f"{url}/join/{token}")
    page.get_by_role("link", name="My kingdom").click()
    return page


def test_a_month_from_orders_to_reform_with_two_players_on_two_phones(browser: Any, tmp_path: Path) -> None:
    folder = tmp_path / "mk"
    tokens = begun(folder)
    with serving(folder) as served:
        ana, bo = phone(browser, served.url, tokens["ana"]), phone(browser, served.url, tokens["bo"])
        assert "The ledger waits for you." in ana.locator("main").inner_text()
        shot(ana, "orders")
        ana.get_by_role("link", name="Move…").click()
        assert flaws(ana) == []  # the map at its own size in its frame: every label readable
        assert in_view(ana, 'a.move-to[data-tile="0,0"]')  # the frame opens on the army's tiles
        ana.locator('a.move-to[data-tile="0,0"]').click()  # the Ford, tapped on the map
        assert "Move ana-1 to Ford?" in ana.locator("main").inner_text()
        shot(ana, "order-map")
        ana.get_by_role("button", name="Give the order").click()
        assert "Recorded" in ana.locator("h1").inner_text()
        shot(ana, "order-recorded")
        # bo's page, left open, shows ana's order come in by itself
        expect(bo.locator("main")).not_to_contain_text("an order for ana-1", timeout=LIVE)
        bo.locator('[data-offer="bo-1"]').get_by_role("button", name="Defend").click()
        assert "Recorded" in bo.locator("h1").inner_text()
        # resolution: ana first (player order), the exploration's dice rolled by the server
        ana.get_by_role("link", name="My kingdom").click()
        shot(ana, "resolve")
        # the campaign's first roll: its dice committed first, and the page sends the tap again by
        # itself with the phone's new random bytes (#49: the player's one tap rolls)
        ana.get_by_role("button", name="Roll for me").click()
        expect(ana.locator("h1")).to_contain_text("Recorded", timeout=LIVE)
        assert "dice rolled by cok" in ana.locator("main").inner_text()  # #35: the roll made is shown
        shot(ana, "resolve-rolled")
        bo.get_by_role("link", name="My kingdom").click()
        bo.get_by_role("button", name="Resolve").click()
        assert "Recorded" in bo.locator("h1").inner_text()
        # the organiser closes the month (tied on armies: the roll-off's order, filled in)
        organiser = browser.new_context(viewport=PHONE).new_page()
        organiser.goto(f"{served.url}/join/{tokens['Ann']}")
        organiser.get_by_role("link", name="Organiser").click()
        shot(organiser, "organiser")
        organiser.get_by_role("button", name="Record reform", exact=True).click()
        assert "Recorded" in organiser.locator("h1").inner_text()
        status = httpx.get(f"{served.url}/api/status").json()
        assert (status["month"], status["phase"]) == (2, "orders")
        ana.get_by_role("link", name="My kingdom").click()
        shot(ana, "month-2")
        assert "month 2 of year 1" in ana.locator("main").inner_text()


def test_a_battle_rolled_for_me_asks_each_allocation_with_the_dice_then_the_retreat(
    browser: Any, tmp_path: Path
) -> None:
    """#35, #36, #40: "Roll the dice for me" on a phone: the month's dice committed, the dice
    rolled with the phone's own random bytes and shown in each allocation's question, the
    retreat asked once the result is known, and the battle recorded with its `rolled:`."""
    import re

    import yaml

    from cok.service import Draft, record
    from tests.mighty_kingdoms.pages.test_pages import ORGANISER

    folder = tmp_path / "mk"
    tokens = begun(folder)
    for draft in (
        Draft("order", {"army": "ana-1", "order": "move", "to": "0,0"}),
        Draft("order", {"army": "bo-1", "order": "move", "to": "0,0"}),
        Draft("resolve", {"army": "ana-1", "roll": [3, 4]}),
        Draft("resolve", {"army": "bo-1"}),
    ):
        record(folder, [draft], by=ORGANISER)
    with serving(folder) as served:
        for size, viewport in (("390", PHONE), ("1280", {"width": 1280, "height": 900})):
            page = browser.new_context(viewport=viewport).new_page()
            page.goto(f"{served.url}/join/{tokens['ana']}")
            page.goto(f"{served.url}/play/battle?tile=0,0")
            shot(page, f"battle-{size}")
            assert (
                "Board" in page.locator("main").inner_text() and "Terrain benefit" in page.locator("main").inner_text()
            )
        page.get_by_role("button", name="Roll the dice for me").click()  # committed, then sent again by itself
        expect(page.locator("main")).to_contain_text("the dice: ana-1 ", timeout=LIVE)
        shot(page, "battle-allocation")
        while page.locator('input[type="radio"]').count():
            assert (
                "the dice: ana-1 " in page.locator("main").inner_text()
                or "must leave" in page.locator("main").inner_text()
            )
            page.locator('input[type="radio"]').first.check()
            page.get_by_role("button", name="Answer and record").click()
        assert "Recorded" in page.locator("h1").inner_text(), page.locator("main").inner_text()
        shot(page, "battle-recorded")
        battle = [e for e in yaml.safe_load((folder / "events.yaml").read_text()) if e["type"] == "battle"][-1]
        assert re.fullmatch(r"[0-9a-f]{32}", battle["rolled"]["entropy"])
        assert battle["rolled"]["dice"] == list(battle["dice"].values())


def test_a_half_filled_form_is_kept_and_told_there_is_news(browser: Any, example: Path) -> None:
    """Every game: Clash of Kings' painting form, half filled, while another player records."""
    tim, matt = invites.invite(example, "tim"), invites.invite(example, "matt")
    with serving(example) as served:
        page = browser.new_context(viewport=PHONE).new_page()
        page.goto(f"{served.url}/join/{tim}")
        page.goto(f"{served.url}/play/paint")
        page.locator('input[name="units"]').fill("2")
        idle = browser.new_context(viewport=PHONE).new_page()
        idle.goto(f"{served.url}/activity")
        sent = httpx.post(
            f"{served.url}/api/events",
            json={"type": "painting", "player": "matt", "units": 1},
            headers={"authorization": f"Bearer {matt}"},
        )
        assert sent.status_code == 201
        expect(idle.locator("main")).to_contain_text("by matt", timeout=LIVE)  # reloaded by itself
        page.locator(".cok-news").wait_for(state="visible", timeout=LIVE)
        assert page.locator('input[name="units"]').input_value() == "2"  # never reloaded under the fingers
        shot(page, "news-kept-form")
