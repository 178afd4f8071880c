"""The header on a phone (issues #35, #49): its row of pages scrolls sideways at 390 px, and the
page a player is on is in sight in it, in every game: their own page is never the tab cut at
the edge while they are on it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest

from cok.links import invites
from tests.browser import PHONE
from tests.games import GAMES, played, ruleset
from tests.serve.process import serving


def _a_player(url: str) -> str:
    """The first player the standings list (every game's standings rows carry an `id`)."""
    rows = httpx.get(url + "/api/standings").json()
    return next(r["id"] for v in rows.values() if isinstance(v, list) for r in v if isinstance(r, dict) and "id" in r)


@pytest.mark.parametrize("game", GAMES)
def test_the_page_a_player_is_on_is_in_sight_in_the_header_of_a_phone(
    browser: Any, tmp_path: Path, game: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COK_DATA_DIR", str(tmp_path / "data"))
    folder = played(tmp_path, game)
    own = [a.path for a in ruleset(game).web().actions if not a.organiser and a.when is None]
    assert own, f"{game} offers a player no page of their own"
    with serving(folder) as served:
        context = browser.new_context(viewport=PHONE)
        try:
            page = context.new_page()
            page.goto(f"{served.url}/join/{invites.invite(folder, _a_player(served.url))}")
            for path in own:
                page.goto(f"{served.url}/play/{path}")
                here = page.locator(".cok-links [aria-current]")
                assert here.count() == 1, path
                page.wait_for_load_state("load")
                box = here.bounding_box()
                assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], (path, box)
        finally:
            context.close()
