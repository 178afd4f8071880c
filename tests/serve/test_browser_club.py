"""Issue 38: the club's page of a server holding several campaigns, read on a phone (390 px)
and a laptop (1280 px): nothing cut off or too small, every campaign a tap away. Screenshots go
to $COK_SHOTS (default: the system's temporary folder)/cok-club-shots."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser import DESKTOP, PHONE, browser, flaws, small_taps
from tests.serve.process import served_club
from tests.serve.test_several_campaigns import GAMES
from tests.serve.test_several_campaigns import folder as folder  # the fixture

SHOTS = Path(os.environ.get("COK_SHOTS") or tempfile.gettempdir()) / "cok-club-shots"


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    with browser() as launched:
        yield launched


def test_the_club_page_reads_on_a_phone_and_a_laptop(chromium: Any, folder: Path) -> None:
    with served_club(folder) as (url, _):
        for size, viewport in (("phone", PHONE), ("desktop", DESKTOP)):
            context = chromium.new_context(viewport=viewport)
            page = context.new_page()
            page.goto(url + "/")
            SHOTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(SHOTS / f"{size}-club.png"), full_page=True)
            assert flaws(page) + small_taps(page) == []
            for name in GAMES:
                page.goto(url + "/")
                page.click(f'a[href="/{name}/"]')
                assert page.url == f"{url}/{name}/"
            context.close()
