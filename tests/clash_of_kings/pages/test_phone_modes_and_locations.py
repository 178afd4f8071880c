"""Issue #35, "What only the terminal can do today": Clash of Kings' game modes (`cok modes`)
and locations (`cok locations --free`) read from a player's phone while planning, at 390 px:
every tap target at least 44 × 44 CSS px, no sideways scrolling, no text under 12 px (every
mode opened). Screenshots go to $COK_SHOTS (default: the system's temporary folder)/cok-phone-shots."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from cok.links import invites
from tests.browser import DESKTOP, MEASURE, PHONE, browser, small_taps
from tests.serve.process import serving

SHOTS = Path(os.environ.get("COK_SHOTS") or tempfile.gettempdir()) / "cok-phone-shots"
#: The smallest text on a page a player reads while planning (issue #35's pages a phone reads).
READABLE = 12.0
PAGES = {"modes": "/play/modes", "free-locations": "/play/locations?free=1", "locations": "/play/locations"}


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    with browser() as launched:
        yield launched


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_player_reads_the_game_modes_and_the_free_locations_on_a_phone(
    chromium: Any, example: Path, size: str
) -> None:
    token = invites.invite(example, "tim")
    with serving(example) as served:
        context = chromium.new_context(viewport=PHONE if size == "phone" else DESKTOP)
        page = context.new_page()
        page.goto(f"{served.url}/join/{token}")
        found: dict[str, list[str]] = {}
        for name, path in PAGES.items():
            page.goto(served.url + path)
            assert page.locator("h1").count() == 1
            shown = page.evaluate("[...document.querySelectorAll('details')].map(d => (d.open = true)).length")
            if name == "modes":
                assert shown > 0  # every mode opened, its rules measured too
            SHOTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(SHOTS / f"{size}-cok-{name}.png"), full_page=True)
            found[name] = small_taps(page) + page.evaluate(MEASURE, READABLE)
        assert {k: v for k, v in found.items() if v} == {}
        context.close()
