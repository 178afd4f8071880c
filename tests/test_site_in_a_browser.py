"""Every page of every shipped example's site and of every game's scenarios, opened in a real
browser on a phone (390 px) and a laptop (1280 px): nothing scrolls sideways, no table is cut off, no text is drawn
smaller than 9 CSS px (issue #29). One Chromium for the module, pages opened as files."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .browser import DESKTOP, PHONE, browser, flaws
from .conftest import ROOT, Cok
from .games import SCENE_IDS, SCENES, played

SHIPPED = sorted(folder.name for folder in (ROOT / "campaigns").iterdir() if (folder / "campaign.yaml").is_file())
#: Each shipped example, and each scenario of every registered game (`game-moment`).
EXAMPLES = [*SHIPPED, *SCENE_IDS]


@pytest.fixture(scope="module")
def sites(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Each example's site, built from a copy of the example, and each scenario's."""
    base = tmp_path_factory.mktemp("examples")
    folders = {}
    for example in SHIPPED:
        folders[example] = base / "campaigns" / example
        shutil.copytree(ROOT / "campaigns" / example, folders[example])
    for name, (game, moment) in zip(SCENE_IDS, SCENES, strict=True):
        folders[name] = played(base / "played", game, moment, name=name)
    built = {}
    for example, folder in folders.items():
        run = Cok(folder)("site", str(base / "sites" / example))
        assert run.exit_code == 0, run.stderr
        built[example] = base / "sites" / example
    return built


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    with browser() as launched:
        yield launched


def pages_of(site: Path) -> list[Path]:
    return sorted(p for p in site.rglob("*") if p.suffix in (".html", ".svg"))


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["390px", "1280px"])
@pytest.mark.parametrize("example", EXAMPLES)
def test_no_page_scrolls_sideways_cuts_a_table_off_or_draws_text_under_9_px(
    chromium: Any, sites: dict[str, Path], example: str, size: dict[str, int]
) -> None:
    pages = pages_of(sites[example])
    assert len(pages) >= 3
    context = chromium.new_context(viewport=size)
    try:
        tab = context.new_page()
        found = {}
        for page in pages:
            tab.goto(page.as_uri())
            wrong = flaws(tab)
            if wrong:
                found[str(page.relative_to(sites[example]))] = wrong[:5]
    finally:
        context.close()
    assert found == {}


@pytest.mark.parametrize("example", EXAMPLES)
def test_the_home_page_draws_its_header_its_tables_and_its_map(
    chromium: Any, sites: dict[str, Path], example: str
) -> None:
    """Drawn, not just written: a dark header band, a table with rows, a map of some size."""
    context = chromium.new_context(viewport=PHONE)
    try:
        tab = context.new_page()
        tab.goto((sites[example] / "index.html").as_uri())
        header = tab.evaluate("getComputedStyle(document.querySelector('header.top')).backgroundColor")
        red, green, blue = (int(v) for v in header[header.index("(") + 1 : header.index(")")].split(",")[:3])
        assert red + green + blue < 200
        assert tab.evaluate("document.querySelectorAll('table tbody tr').length") >= 2
        box = tab.locator(".map-frame").bounding_box()
        assert box is not None and box["width"] > 300 and box["height"] > 300
        frame = (box["width"], box["height"])
        drawn = tab.evaluate("document.querySelector('.map-frame svg').getBoundingClientRect().width")
        assert drawn >= frame[0] - 2  # the map at its own size, moved about in its frame
    finally:
        context.close()


def test_on_a_phone_the_clash_of_kings_map_opens_on_the_held_locations(chromium: Any, sites: dict[str, Path]) -> None:
    """#29: the frame opened at the map's top-left corner; its middle is now the middle of
    the held locations (`.map-focus`), and every held location lies in the picture's focus."""
    context = chromium.new_context(viewport=PHONE)
    try:
        tab = context.new_page()
        tab.goto((sites["example"] / "index.html").as_uri())
        middle = "e => { const r = e.getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]; }"
        frame, focus = tab.evaluate(
            f"() => [document.querySelector('.map-frame'), document.querySelector('.map-focus')].map({middle})"
        )
        scrolled = tab.evaluate(
            "(() => { const f = document.querySelector('.map-frame'); return f.scrollLeft + f.scrollTop; })()"
        )
        assert scrolled > 0
        assert abs(frame[0] - focus[0]) < 2 and abs(frame[1] - focus[1]) < 2
    finally:
        context.close()
