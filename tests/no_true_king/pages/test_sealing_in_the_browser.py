"""Loyalty sealed in the player's own browser (Playwright driving Debian's chromium, 390 px):
the page makes the seal as `cok ntk seal` does (one shared test vector file), sends only the
seal, and neither the campaign folder, the cache nor the server's own output ever holds the
secret; after the last round the seal verifies, unsealed from the same phone and with
`cok ntk unseal` from the copy kept. Screenshots go to $COK_SHOTS (default: the system's
temporary folder)."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

import pytest
import yaml

from cok.links import invites
from cok.rulesets.no_true_king.rules.loyalty import seal_of
from tests.browser import SIZES
from tests.conftest import Cok
from tests.no_true_king.example import EXAMPLE_SEED
from tests.no_true_king.game import play
from tests.serve.process import serving

VECTORS = json.loads((Path(__file__).parents[1] / "seal-vectors.json").read_text(encoding="utf-8"))["vectors"]
SHOTS = Path(os.environ.get("COK_SHOTS") or tempfile.gettempdir()) / "cok-ntk-shots"


@pytest.fixture
def game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("COK_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("COK_CACHE_DIR", str(tmp_path / "cache"))
    assert Cok(tmp_path)("init", "game", "--ruleset", "no-true-king").exit_code == 0
    return tmp_path / "game"


def shot(page: Any, name: str, size: str = "phone") -> None:
    """A screenshot kept, and nothing wider than the window."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{size}-{name}.png"), full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= page.evaluate("window.innerWidth"), name


def phone(browser: Any, url: str, folder: Path, player: str, size: str = "phone") -> tuple[Any, Any, list[str]]:
    """A browser context signed in as `player`; every request body it sends is kept."""
    width, height = SIZES[size]
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    sent: list[str] = []
    page.on("request", lambda request: sent.append(f"{request.url} {request.post_data or ''}"))
    page.goto(f"{url}/join/{invites.invite(folder, player)}")
    return context, page, sent


def seal_in_the_page(page: Any, url: str, symbol: str, size: str = "phone") -> dict[str, Any]:
    """Draw and seal on the join page; the kept copy as the page offers it; then join."""
    page.goto(f"{url}/play/join")
    page.get_by_role("button", name="Draw my loyalty card").click()
    page.wait_for_selector("[data-sealed]:not([hidden])")
    kept: dict[str, Any] = json.loads(page.locator("[data-kept-text]").input_value())
    page.locator("select[name=symbol]").select_option(symbol)
    shot(page, "sealed", size)
    page.get_by_role("button", name="Join with this seal").click()
    assert "Recorded" in page.locator("h1").inner_text()
    return kept


def test_cok_ntk_seal_makes_the_seal_of_each_shared_test_vector() -> None:
    for vector in VECTORS:
        assert seal_of(vector["player"], vector["loyalty"], vector["secret"]) == vector["seal"]


def test_the_browser_makes_the_seal_of_each_shared_test_vector(browser: Any, game: Path) -> None:
    with serving(game) as served:
        context, page, _ = phone(browser, served.url, game, "ana")
        page.goto(f"{served.url}/play/join")
        made = page.evaluate(
            "vectors => Promise.all(vectors.map(v => cokSeal.sealOf(v.player, v.loyalty, v.secret)))", VECTORS
        )
        assert made == [v["seal"] for v in VECTORS]
        secret = page.evaluate("cokSeal.newSecret()")
        assert len(secret) == 48 and int(secret, 16) >= 0  # 192 random bits, in hex
        context.close()


@pytest.mark.parametrize("size", list(SIZES))
def test_the_join_page_seals_with_no_sideways_scrolling(browser: Any, game: Path, size: str) -> None:
    with serving(game) as served:
        context, page, _ = phone(browser, served.url, game, "ana", size)
        kept = seal_in_the_page(page, served.url, "crown", size)
        assert sorted(kept["loyalty"]) == sorted(["baratheon", "stark", "lannister", "greyjoy", "tyrell"])
        page.goto(f"{served.url}/play/conspiracy")
        shot(page, "conspiracy", size)
        context.close()


def test_a_player_seals_in_the_page_and_no_secret_reaches_the_server(browser: Any, game: Path, tmp_path: Path) -> None:
    """Three conspiracies seal on their phones; the rest of a whole game is recorded at the
    organiser's terminal (the seeded game of the example, its exchanges passed); ana unseals
    from her phone, bo from his kept copy with `cok ntk unseal`."""
    played = play(EXAMPLE_SEED)
    symbols = {e["player"]: e["symbol"] for e in played.events if e["type"] == "conspiracy"}
    with serving(game) as served:
        phones = {p: phone(browser, served.url, game, p) for p in symbols}
        kept = {p: seal_in_the_page(phones[p][1], served.url, s) for p, s in symbols.items()}
        secrets = [k["secret"] for k in kept.values()]
        sent = "\n".join(line for _, _, lines in phones.values() for line in lines)
        assert not any(s in sent for s in secrets)  # only the seal left the phones
        log = yaml.safe_load((game / "events.yaml").read_text(encoding="utf-8"))
        assert [e["seal"] for e in log] == [k["seal"] for k in kept.values()]

        cok = Cok(game)
        pages = {"place": "conspiracy", "resolve": "conspiracy", "exchange": "exchange"}
        revealed: list[str] = []
        for event in played.events:
            if event["type"] in ("conspiracy", "unseal"):
                continue
            if event["type"] in pages:  # what the player whose turn it is sees, once
                page = phones[event["player"]][1]
                page.goto(f"{served.url}/play/{pages.pop(event['type'])}")
                shot(page, event["type"])
            if event["type"] == "exchange" and event["player"] == "ana" and not revealed:
                revealed.append(exchange_from_the_page(phones["ana"][1], served.url, kept["ana"], event["swap"]))
                continue
            args = _command(event)
            done = cok("ntk", *args)
            assert done.exit_code == 0, (args, done.stderr)

        context, page, _ = phones["ana"]
        page.goto(f"{served.url}/play/unseal")
        page.wait_for_selector("[data-said]:has-text('match your seal')")
        shot(page, "unseal")
        page.get_by_role("button", name="Unseal").click()
        assert "Recorded" in page.locator("h1").inner_text(), page.locator("main").inner_text()
        assert revealed, "ana revealed a token from her page"
        page.goto(f"{served.url}/play/conspiracy")  # issue 34: cleared once unsealed
        keys = page.evaluate("Object.keys(window.localStorage)")
        assert not any(kept["ana"]["seal"] in k for k in keys), keys
        assert "no longer keeps it" in page.locator("[data-said]").inner_text()

        everything_kept = b"".join(
            f.read_bytes() for root in (game, tmp_path / "cache") for f in root.rglob("*") if f.is_file()
        )
        served.process.terminate()
        out, err = served.process.communicate(timeout=20)
        before_unseal = [k["secret"] for p, k in kept.items() if p != "ana"]
        assert kept["ana"]["secret"].encode() in everything_kept  # the search finds an unsealed one
        assert any((tmp_path / "cache").rglob("*.json*")), "the cache was searched"
        assert not any(s.encode() in everything_kept for s in before_unseal)
        assert not any(s in out + err for s in secrets)

    bo = kept["bo"]
    done = cok("ntk", "unseal", "bo", "--secret", bo["secret"], "--loyalty", *bo["loyalty"])
    assert done.exit_code == 0, done.stderr
    for context, _, _ in phones.values():
        context.close()


def exchange_from_the_page(page: Any, url: str, kept: dict[str, Any], swap: list[Any]) -> str:
    """Ana's first exchange from her phone: the token revealed shows the house her kept card
    has there once swapped (the page reads it; the card itself is never sent)."""
    a, b = (str(p) for p in swap)
    page.goto(f"{url}/play/exchange")
    page.locator("select[name=a]").select_option(a)
    page.locator("select[name=b]").select_option(b)
    page.locator("select[name=reveal]").select_option(a)
    card = list(kept["loyalty"])
    index = {"1": 0, "2": 1, "3": 2, "4": 3, "left": 4}
    card[index[a]], card[index[b]] = card[index[b]], card[index[a]]
    assert page.locator("select[name=house]").input_value() == card[index[a]]
    shot(page, "exchange-reveal")
    page.get_by_role("button", name="Exchange", exact=True).click()
    assert "Recorded" in page.locator("h1").inner_text(), page.locator("main").inner_text()
    page.goto(f"{url}/play/conspiracy")  # issue 35: the card as it stands after the exchange, to ana only
    names = ["Position 1", "Position 2", "Position 3", "Position 4", "Left over"]
    assert page.locator("[data-card] li").all_inner_texts() == [
        f"{n}: {h.capitalize()}" for n, h in zip(names, card, strict=True)
    ]
    shot(page, "card-after-exchange")
    return card[index[a]]


def test_a_page_not_served_securely_refuses_to_seal_and_says_why(browser: Any, game: Path) -> None:
    """Plain http over Wi-Fi: the browser offers no Web Crypto there (crypto.subtle is absent
    outside a secure context), made so here by removing it before the page's script runs."""
    with serving(game) as served:
        context, page, _ = phone(browser, served.url, game, "ana")
        page.add_init_script("Object.defineProperty(window.crypto, 'subtle', {value: undefined})")
        page.goto(f"{served.url}/play/join")
        assert "not open over https" in page.locator("[data-insecure]").inner_text()
        assert page.get_by_role("button", name="Draw my loyalty card").is_hidden()
        assert page.get_by_role("button", name="Join with this seal").is_hidden()
        shot(page, "insecure")
        context.close()


def _command(event: dict[str, Any]) -> list[str]:
    """The organiser's `cok ntk` words for an event of the seeded game; an exchange passed."""
    from tests.no_true_king.example import words

    if event["type"] == "exchange":
        return ["pass", event["player"]]
    return words(event)
