"""A real browser (Playwright driving Debian's chromium) at a phone's 390×844 and a laptop's
1280×900: a player signs in from the link, plans a battle, records it and sees the standings
change; the organiser starts a week. Every page is measured in the DOM: nothing wider than
the screen. Screenshots go to $COK_SHOTS (default: the system's temporary folder)."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from cok.links import invites
from tests.browser import SIZES, fits
from tests.serve.process import serving


def tims_cp(url: str) -> int:
    return next(p["cp"] for p in httpx.get(f"{url}/api/standings").json()["players"] if p["id"] == "tim")


@pytest.mark.parametrize("size", list(SIZES))
def test_a_player_plans_records_and_sees_the_standings_change(browser: object, example: Path, size: str) -> None:
    token = invites.invite(example, "tim")
    width, height = SIZES[size]
    with serving(example) as served:
        before = tims_cp(served.url)
        context = browser.new_context(viewport={"width": width, "height": height})  # type: ignore[attr-defined]
        page = context.new_page()
        page.goto(f"{served.url}/join/{token}")
        assert page.locator(".cok-bar .who").inner_text().startswith("Tim")  # by name (issue #35)
        fits(page, "home", size)
        page.get_by_role("link", name="Plan a battle").click()
        fits(page, "opponent", size)
        page.get_by_label("Matt").check()
        page.get_by_role("button", name="Who attacks, and where?").click()
        fits(page, "plan", size)
        page.locator('input[name="location"]').first.check()
        page.locator('input[name="vp:tim"]').fill("7")
        page.locator('input[name="vp:matt"]').fill("5")
        page.get_by_role("button", name="Record the result").click()
        assert "Recorded" in page.locator("h1").inner_text()
        fits(page, "recorded", size)
        page.get_by_role("link", name="See the standings").click()
        after = tims_cp(served.url)
        assert after > before
        row = page.locator("tr.player-row", has_text="Tim").first.inner_text()
        assert str(after) in row.split()
        fits(page, "standings", size)
        page.get_by_role("link", name="Activity").first.click()
        assert "by tim" in page.locator("main").inner_text()
        fits(page, "activity", size)
        context.close()


@pytest.mark.parametrize("size", list(SIZES))
def test_the_organiser_starts_a_week(browser: object, example: Path, size: str) -> None:
    token = invites.invite(example, "Ann", organiser=True)
    width, height = SIZES[size]
    with serving(example) as served:
        week = httpx.get(f"{served.url}/api/standings").json()["week"]
        context = browser.new_context(viewport={"width": width, "height": height})  # type: ignore[attr-defined]
        page = context.new_page()
        page.goto(f"{served.url}/join/{token}")
        fits(page, "organiser-home", size)
        page.get_by_role("link", name="New week").click()
        fits(page, "week", size)
        page.get_by_role("button", name=f"Start week {week + 1}").click()
        assert "Recorded" in page.locator("h1").inner_text()
        assert httpx.get(f"{served.url}/api/standings").json()["week"] == week + 1
        page.get_by_role("link", name="See the standings").click()
        assert f"week {week + 1}" in page.locator(".hero .week").inner_text().lower()  # one header (#49): no badge
        page.goto(f"{served.url}/void")
        fits(page, "void", size)
        context.close()
