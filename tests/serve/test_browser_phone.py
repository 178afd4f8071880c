"""Issue #35, made for a thumb: at 390 px (and 1280) every tap target of the served pages is at
least 44 × 44 CSS px, the organiser's bar is two lines at most, no page asks for a favicon in
vain. Screenshots go to $COK_SHOTS (default: the system's temporary folder)/cok-phone-shots."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from cok.links import invites
from tests.browser import DESKTOP, PHONE, browser, flaws, small_taps
from tests.serve.process import serving

SHOTS = Path(os.environ.get("COK_SHOTS") or tempfile.gettempdir()) / "cok-phone-shots"
PAGES = {
    "home": "/",
    "activity": "/activity",
    "battle": "/play/battle",
    "plan": "/play/battle?player=tim&opponent=matt",
    "week": "/play/week",
    "join": "/play/join",
    "modes": "/play/modes",
    "locations": "/play/locations?free=1",
    "void": "/void",
}


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    with browser() as launched:
        yield launched


def _look(page: Any, name: str, size: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{size}-{name}.png"), full_page=True)


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_every_tap_target_of_the_organisers_pages_is_44_px_and_the_bar_two_lines(
    chromium: Any, example: Path, size: str
) -> None:
    token = invites.invite(example, "Ann", organiser=True)
    with serving(example) as served:
        context = chromium.new_context(viewport=PHONE if size == "phone" else DESKTOP)
        page = context.new_page()
        errors: list[str] = []
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.goto(f"{served.url}/join/{token}")
        found = {}
        for name, path in PAGES.items():
            page.goto(served.url + path)
            _look(page, name, size)
            found[name] = small_taps(page) + flaws(page)
        bar = page.locator(".cok-bar").bounding_box()
        assert bar is not None and bar["height"] <= 2 * 44 + 40, f"the bar is {bar} tall"
        assert {k: v for k, v in found.items() if v} == {}
        assert errors == []
        assert httpx.get(f"{served.url}/favicon.ico").status_code == 200
        context.close()


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_the_map_opened_on_its_own_is_a_page_keeping_it_at_its_own_size(
    chromium: Any, example: Path, size: str
) -> None:
    """Issue #35: the site's "Open the map on its own" (and the header's Map) open map.html, where
    the map keeps its own size in a frame: its labels as readable as on the home page."""
    with serving(example) as served:
        context = chromium.new_context(viewport=PHONE if size == "phone" else DESKTOP)
        page = context.new_page()
        page.goto(served.url + "/")
        assert page.locator("a", has_text="Open the map on its own").get_attribute("href") == "map.html"
        page.goto(served.url + "/map.html")
        _look(page, "map", size)
        assert flaws(page) == [] and small_taps(page) == []
        drawn = page.locator(".map-frame svg").bounding_box()
        natural = page.evaluate("document.querySelector('.map-frame svg').viewBox.baseVal.width")
        assert drawn is not None and abs(drawn["width"] - natural) < 1  # its own size, not shrunk
        context.close()


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_every_tap_target_of_a_kingdoms_pages_is_44_px(chromium: Any, tmp_path: Path, size: str) -> None:
    from tests.mighty_kingdoms.pages.kingdoms import begun

    folder = tmp_path / "mk"
    tokens = begun(folder)
    with serving(folder) as served:
        context = chromium.new_context(viewport=PHONE if size == "phone" else DESKTOP)
        page = context.new_page()
        found = {}
        for who, paths in (("ana", ("/play/kingdom", "/play/quest", "/play/artefact")), ("Ann", ("/play/organiser",))):
            page.goto(f"{served.url}/join/{tokens[who]}")
            for path in paths:
                page.goto(served.url + path)
                name = "mk-" + path.rsplit("/", 1)[1]
                _look(page, name, size)
                found[name] = small_taps(page) + flaws(page)
        assert {k: v for k, v in found.items() if v} == {}
        context.close()


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_the_board_opened_on_its_own_is_a_page_keeping_it_at_its_own_size(
    chromium: Any, tmp_path: Path, size: str
) -> None:
    """Issue #35: No True King's "The board on its own" opens board.html, the board at its own size."""
    from cok.core.campaign import open_campaign
    from cok.rulesets.no_true_king.site import site_pages

    root = Path(__file__).resolve().parents[2]
    campaign = open_campaign(root / "campaigns" / "no-true-king-example", use_cache=False)
    for name, text in site_pages(campaign):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    context = chromium.new_context(viewport=PHONE if size == "phone" else DESKTOP)
    page = context.new_page()
    page.goto((tmp_path / "index.html").as_uri())
    assert page.locator("a", has_text="The board on its own").get_attribute("href") == "board.html"
    page.goto((tmp_path / "board.html").as_uri())
    _look(page, "board", size)
    assert flaws(page) == [] and small_taps(page) == []
    drawn = page.locator(".map-frame svg").bounding_box()
    natural = page.evaluate("document.querySelector('.map-frame svg').viewBox.baseVal.width")
    assert drawn is not None and abs(drawn["width"] - natural) < 1
    context.close()
