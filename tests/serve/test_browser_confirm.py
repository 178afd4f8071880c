"""Issue 39 in a real browser at a phone's 390 px (and a laptop's 1280): Tim records two battles against Matt; Matt
disputes one and confirms the other from his phone; the organiser keeps the disputed one.
Screenshots go to $COK_SHOTS (default: the system's temporary folder)/cok-serve-shots."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from cok.links import invites
from tests.browser import SIZES, fits
from tests.serve.process import serving


def recorded(url: str, token: str, location: str, **more: str) -> str:
    battle = {"type": "battle", "players": ["tim", "matt"], "location": location, "vp": {"tim": 7, "matt": 5}, **more}
    answer = httpx.post(f"{url}/api/events", json=battle, headers={"authorization": f"Bearer {token}"})
    assert answer.status_code == 201, answer.text
    return str(answer.json()["id"])


@pytest.mark.parametrize("size", list(SIZES))
def test_the_opponent_confirms_and_disputes_from_their_phone_and_the_organiser_settles(
    browser: object, example: Path, size: str
) -> None:
    tim, matt = invites.invite(example, "tim"), invites.invite(example, "matt")
    ann = invites.invite(example, "Ann", organiser=True)
    with serving(example) as served:
        first = recorded(served.url, tim, "Ghost Hill")
        second = recorded(served.url, tim, "Mistwood", attacker="tim")
        context = browser.new_context(viewport={"width": SIZES[size][0], "height": SIZES[size][1]})  # type: ignore[attr-defined]
        page = context.new_page()
        page.goto(f"{served.url}/join/{matt}")
        box = page.locator(".cok-confirm")
        assert page.locator(f"#result-{first}").count() == 1 and page.locator(f"#result-{second}").count() == 1
        shown = box.inner_text()  # issue #49: by name, without the events' ids
        assert "Tim recorded" in shown and first not in shown and second not in shown
        fits(page, "confirm-box", size)
        mine = page.locator(f"#result-{first}")
        mine.get_by_text("Dispute…").click()
        mine.get_by_label("What is wrong").fill("the vp were 5–7, not 7–5")
        fits(page, "confirm-disputing", size)
        mine.get_by_role("button", name="Dispute").click()
        assert "Recorded" in page.locator("h1").inner_text()
        fits(page, "confirm-disputed", size)
        page.goto(f"{served.url}/")
        page.locator(f"#result-{second}").get_by_role("button", name="Confirm").click()
        assert "Recorded" in page.locator("h1").inner_text()
        page.get_by_role("link", name="Activity").first.click()
        activity = page.locator("main").inner_text()
        assert f"matt confirms the result {second}" in activity
        assert "disputed by matt: the vp were 5–7, not 7–5" in activity
        assert page.locator(".cok-confirm").count() == 0  # nothing left awaiting matt
        fits(page, "confirm-activity", size)
        context.close()

        context = browser.new_context(viewport={"width": SIZES[size][0], "height": SIZES[size][1]})  # type: ignore[attr-defined]
        page = context.new_page()
        page.goto(f"{served.url}/join/{ann}")
        dispute = page.locator(f"#result-{first}")
        assert "Disputed" in dispute.inner_text() and "the vp were 5–7" in dispute.inner_text()
        fits(page, "confirm-organiser", size)
        dispute.get_by_label("Why keep it").fill("the photo of the table shows 7–5")
        dispute.get_by_role("button", name="Keep it").click()
        assert "Recorded" in page.locator("h1").inner_text()
        page.get_by_role("link", name="Activity").first.click()
        activity = page.locator("main").inner_text()
        assert f"Ann settles the dispute over {first}: the result is kept" in activity
        assert "disputed by matt" not in activity
        fits(page, "confirm-settled", size)
        context.close()
