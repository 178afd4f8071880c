"""No True King's pages at the table in Chromium (Debian's, through Playwright) at 390 and
1280 px: the resolve form on the board opened on the agent's own troops, no taller than a
few screens, nothing wider than the window. Screenshots go to $COK_SHOTS/cok-ntk-shots."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from cok.links import invites
from tests.conftest import Cok
from tests.no_true_king.pages.test_sealing_in_the_browser import SIZES, shot
from tests.serve.process import serving

CARDS = {
    "ana": ["baratheon", "stark", "lannister", "greyjoy", "tyrell"],
    "bo": ["stark", "baratheon", "tyrell", "greyjoy", "lannister"],
}


@pytest.fixture
def game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """ana and bo, open loyalty, seated and their agents placed: the resolution phase."""
    monkeypatch.setenv("COK_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("COK_CACHE_DIR", str(tmp_path / "cache"))
    cok = Cok(tmp_path)
    assert cok("init", "game", "--ruleset", "no-true-king").exit_code == 0
    folder = tmp_path / "game"
    settings = folder / "campaign.yaml"
    settings.write_text(settings.read_text(encoding="utf-8").replace("sealed", "open"), encoding="utf-8")
    cok = Cok(folder)
    for name, symbol in (("ana", "crown"), ("bo", "torch")):
        done = cok("ntk", "join", name, "--symbol", symbol, "--loyalty", *CARDS[name])
        assert done.exit_code == 0, done.stderr
    assert cok("ntk", "begin", "--seats", "ana", "bo", "--first", "ana").exit_code == 0
    for who, house, space in [
        ("ana", "greyjoy", "maester"),
        ("bo", "stark", "maester"),
        ("ana", "lannister", "lord"),
        ("bo", "tyrell", "lord"),
        ("ana", "baratheon", "lord"),
        ("bo", "greyjoy", "lord"),
    ]:
        done = cok("ntk", "place", who, house, space)
        assert done.exit_code == 0, done.stderr
    return folder


def signed_in(browser: Any, url: str, folder: Path, player: str, size: str, organiser: bool = False) -> tuple[Any, Any]:
    width, height = SIZES[size]
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    page.goto(f"{url}/join/{invites.invite(folder, player, organiser=organiser)}")
    return context, page


@pytest.mark.parametrize("size", list(SIZES))
def test_the_board_opens_on_the_agents_own_troops_and_the_form_is_short(browser: Any, game: Path, size: str) -> None:
    """Issue 35: the board opened on empty sea (the Bay of Ice); the form was ~2,000 px tall."""
    with serving(game) as served:
        context, page = signed_in(browser, served.url, game, "ana", size)
        page.goto(f"{served.url}/play/conspiracy")
        shot(page, "resolve", size)
        frame = page.locator(".ntk-frame")
        seen = page.evaluate(
            """() => {
              const frame = document.querySelector('.ntk-frame').getBoundingClientRect();
              const area = document.querySelector('.area[data-area="Greywater Watch"]').getBoundingClientRect();
              return area.left >= frame.left - 1 && area.right <= frame.right + 1
                && area.top >= frame.top - 1 && area.bottom <= frame.bottom + 1;
            }"""
        )
        assert frame.count() == 1 and seen, "Greywater Watch, greyjoy's troops, is in the frame as it opens"
        form = page.locator("form[action$='/play/resolve']").bounding_box()
        board = page.locator(".ntk-frame").bounding_box()
        assert form is not None and board is not None
        assert form["height"] - board["height"] < 1200, form
        page.get_by_label("Move troops").check()
        assert page.locator("select[name=route]").is_visible() and page.locator("[data-kind=muster]").is_hidden()
        shot(page, "resolve-move", size)
        context.close()
    with serving(game) as served:  # a marshal's plan: the parts in the order the turn is played
        assert Cok(game)("ntk", "resolve", "ana", "greyjoy", "maester", "--draw").exit_code == 0
        assert Cok(game)("ntk", "resolve", "bo", "stark", "maester", "--draw").exit_code == 0
        context, page = signed_in(browser, served.url, game, "ana", size)
        page.goto(f"{served.url}/play/conspiracy")
        order = "() => [...document.querySelectorAll('fieldset[data-kind]')].map(f => f.dataset.kind)"
        assert page.evaluate(order) == ["muster", "move"]
        page.get_by_label("Move troops, then muster troops").check()
        assert page.evaluate(order) == ["move", "muster"]
        context.close()


def test_a_new_game_of_the_same_name_on_the_same_address_draws_a_new_card(
    browser: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 34: a second game with the same name on the same address reused the first game's
    card and secret kept in the phone (no Draw button). The same address is the same origin:
    this phone's storage carried over to the second server's."""
    import shutil

    from tests.no_true_king.pages.test_sealing_in_the_browser import seal_in_the_page

    monkeypatch.setenv("COK_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("COK_CACHE_DIR", str(tmp_path / "cache"))
    folder = tmp_path / "game"
    assert Cok(tmp_path)("init", "game", "--ruleset", "no-true-king").exit_code == 0
    with serving(folder) as served:
        context, page = signed_in(browser, served.url, folder, "ana", "phone")
        first = seal_in_the_page(page, served.url, "crown")
        kept = context.storage_state()
        context.close()
    shutil.rmtree(folder)
    assert Cok(tmp_path)("init", "game", "--ruleset", "no-true-king").exit_code == 0
    with serving(folder) as served:
        for origin in kept["origins"]:
            origin["origin"] = served.url
        context = browser.new_context(viewport={"width": 390, "height": 844}, storage_state=kept)
        page = context.new_page()
        page.goto(f"{served.url}/join/{invites.invite(folder, 'ana')}")
        page.goto(f"{served.url}/play/join")
        assert page.get_by_role("button", name="Draw my loyalty card").is_visible()
        assert page.locator("[data-sealed]").is_hidden() and first["secret"] not in page.content()
        second = seal_in_the_page(page, served.url, "torch")
        assert second["seal"] != first["seal"]
        page.goto(f"{served.url}/play/conspiracy")
        shown = page.locator("[data-card] li").all_inner_texts()
        assert shown == [f"{p}: {h.capitalize()}" for p, h in zip(POSITIONS, second["loyalty"], strict=True)]
        shot(page, "conspiracy-card")
        page.once("dialog", lambda dialog: dialog.accept())
        page.get_by_role("button", name="Forget my card on this phone (I kept a copy)").click()
        keys = page.evaluate("Object.keys(window.localStorage)")
        assert not any(second["seal"] in k for k in keys), keys
        context.close()


POSITIONS = ["Position 1", "Position 2", "Position 3", "Position 4", "Left over"]


@pytest.mark.parametrize("size", list(SIZES))
def test_each_player_plays_their_card_from_their_own_phone(browser: Any, game: Path, size: str) -> None:
    """Issue 35: the others had no page to play their cards; now ana's move opens the table,
    bo plays his card from his phone, and ana resolves with it."""
    cok = Cok(game)
    assert cok("ntk", "resolve", "ana", "greyjoy", "maester", "--move", "Greywater Watch", "Moat Cailin",
               "footman").exit_code == 0  # fmt: skip
    assert cok("ntk", "resolve", "bo", "stark", "maester", "--draw").exit_code == 0
    with serving(game) as served:
        ana, page = signed_in(browser, served.url, game, "ana", size)
        page.goto(f"{served.url}/play/conspiracy")
        page.get_by_label("Muster troops, then move troops").check()
        page.locator("select[name=route]").select_option("Moat Cailin|Winterfell")
        page.get_by_role("button", name="Resolve the agent").click()
        assert "Next: bo to play a card, or none, in the combat in Winterfell" in page.locator("main").inner_text()
        bo, phone = signed_in(browser, served.url, game, "bo", size)
        phone.goto(f"{served.url}/play/conspiracy")
        shot(phone, "card-turn", size)
        phone.locator("input[name=card]").nth(1).check()
        phone.get_by_role("button", name="Play it").click()
        assert "Recorded" in phone.locator("h1").inner_text()
        page.goto(f"{served.url}/play/conspiracy")
        shot(page, "resolve-after-cards", size)
        page.get_by_label("Muster troops, then move troops").check()
        page.get_by_role("button", name="Resolve the agent").click()
        told = page.locator("main").inner_text()
        assert "Recorded" in told and "(bo plays" in told, told
        ana.close()
        bo.close()


#: What a thumb taps inside a page's main part (the bar is the server's own): each at least
#: 44 px tall, or its label when it is a radio or a checkbox. Links inside a sentence excepted.
SMALL_TARGETS = """() => [...document.querySelectorAll(
    'main a, main button, main select, main input:not([type=hidden]), main summary, main textarea')]
  .filter((e) => e.offsetParent !== null && !e.closest('svg'))
  .filter((e) => !(e.tagName === 'A' && e.closest('p, li:not(.picks li)') && !e.classList.contains('go')
                   && !e.closest('ul.picks')))
  .map((e) => (e.type === 'radio' || e.type === 'checkbox') && e.closest('label') ? e.closest('label') : e)
  .filter((e) => e.getBoundingClientRect().height < 44)
  .map((e) => `${e.tagName.toLowerCase()} "${(e.innerText || e.name || '').trim().slice(0, 40)}" `
              + `${Math.round(e.getBoundingClientRect().height)} px`)"""


def looked_at(page: Any, name: str, size: str) -> list[str]:
    """The page screenshotted (nothing wider than the window) and its targets under 44 px."""
    shot(page, name, size)
    small: list[str] = page.evaluate(SMALL_TARGETS)
    return [f"{name}: {s}" for s in small]


@pytest.mark.parametrize("size", list(SIZES))
def test_every_ntk_page_fits_the_phone_and_its_tap_targets_are_44_px(browser: Any, game: Path, size: str) -> None:
    """Issue 35 (second pass): every page of No True King read at 390 and 1280 px — nothing
    wider than the window, every tap target inside the page at least 44 px tall."""
    found: list[str] = []
    with serving(game) as served:
        ana, page = signed_in(browser, served.url, game, "ana", size)
        for name, path in (("conspiracy", "conspiracy"), ("exchange", "exchange"), ("unseal", "unseal"),
                           ("join", "join")):  # fmt: skip
            page.goto(f"{served.url}/play/{path}")
            found += looked_at(page, name, size)
        page.goto(f"{served.url}/play/conspiracy")
        page.get_by_label("Move troops").check()
        page.locator("details.ntk-more").evaluate("(d) => d.open = true") if page.locator(
            "details.ntk-more"
        ).count() else None
        found += looked_at(page, "resolve-move-open", size)
        page.locator("select[name=route]").select_option("Greywater Watch|Moat Cailin")
        page.get_by_role("button", name="See the combat first").click()
        found += looked_at(page, "combat-preview", size)
        ann, organiser = signed_in(browser, served.url, game, "Ann", size, organiser=True)
        for name, path in (("organiser", "conspiracy"), ("organiser-for-ana", "conspiracy?player=ana"),
                           ("seats-begun", "begin"), ("organiser-join", "join"),
                           ("organiser-exchange", "exchange"), ("organiser-unseal", "unseal")):  # fmt: skip
            organiser.goto(f"{served.url}/play/{path}")
            found += looked_at(organiser, name, size)
        ana.close()
        ann.close()
    assert not found, "\n".join(found)
