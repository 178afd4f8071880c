"""The due bar in a browser (issue 48, #49): axe finds no serious or critical violation on a
player's and an organiser's pages showing it (its forms open), at 390 and 1280 px, light and
dark; every tap target of it is at least 44 px; nothing scrolls sideways on a phone. A real
`cok serve` at the ledger's time set by `COK_NOW`."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from cok.links import invites
from tests.browser import PHONE, small_taps
from tests.conftest import ROOT
from tests.test_accessible import chromium, in_every_look

__all__ = ["chromium"]

NOW = "2026-11-23T18:00:00Z"  # month 2's orders are due 2026-11-25 06:37:52 UTC


def _deadlines(tmp_path: Path) -> Path:
    folder = tmp_path / "mighty-kingdoms"
    shutil.copytree(ROOT / "campaigns" / "mighty-kingdoms", folder)
    with (folder / "campaign.yaml").open("a", encoding="utf-8") as settings:
        settings.write("deadlines:\n  orders: 48h\nextensions: 2\n")
    return folder


def test_the_due_bar_and_its_forms_are_accessible_to_a_player_and_an_organiser(chromium: Any, tmp_path: Path) -> None:
    from tests.serve.process import serving

    folder = _deadlines(tmp_path)

    def visit(page: Any, look: str) -> Iterator[str]:
        page.goto(f"{served.url}/join/{invites.invite(folder, 'dag')}")
        for path in ("/", "/play/kingdom"):
            page.goto(served.url + path)
            assert page.locator(".cok-due .mine").count() == 1
            yield f"dag {path}"
        page.context.clear_cookies()  # another phone: the organiser's
        page.goto(f"{served.url}/join/{invites.invite(folder, 'Ann', organiser=True)}")
        page.goto(served.url + "/activity")
        page.locator(".cok-due summary").click()
        yield "organiser /activity, extend open"

    with serving(folder, env={"COK_NOW": NOW}) as served:
        assert in_every_look(chromium, visit) == []


def test_the_due_bars_tap_targets_are_made_for_a_thumb(chromium: Any, tmp_path: Path) -> None:
    from tests.serve.process import serving

    folder = _deadlines(tmp_path)
    with serving(folder, env={"COK_NOW": NOW}) as served:
        context = chromium.new_context(viewport=PHONE)
        try:
            page = context.new_page()
            page.goto(f"{served.url}/join/{invites.invite(folder, 'Ann', organiser=True)}")
            page.goto(served.url + "/")
            page.locator(".cok-due summary").click()
            assert small_taps(page) == []
            wide = page.evaluate("document.documentElement.scrollWidth")
            assert wide <= PHONE["width"]
        finally:
            context.close()
