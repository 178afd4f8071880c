"""`cok serve --https` (issue 38: No True King seals at the store): a certificate made for this
machine, refused by a phone until accepted, and then the page is a secure context in which
Chromium seals (Playwright, Debian's chromium; screenshots in $COK_SHOTS, default the temporary
folder). Accepting is what `ignore_https_errors` stands for: the page's origin stays https."""

from __future__ import annotations

import os
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest
import yaml

from cok.links import invites
from tests.browser import browser as launch
from tests.conftest import Cok
from tests.serve.process import COK, free_port

SHOTS = Path(os.environ.get("COK_SHOTS") or tempfile.gettempdir()) / "cok-https-shots"


@contextmanager
def serving_https(folder: Path) -> Iterator[tuple[str, str]]:
    port = free_port()
    process = subprocess.Popen(
        [*COK, "serve", "-C", str(folder), "--port", str(port), "--https"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    url = f"https://127.0.0.1:{port}"
    try:
        for _ in range(300):
            if process.poll() is not None:
                raise AssertionError(process.stderr.read() if process.stderr else "")
            try:
                if httpx.get(f"{url}/api/standings", verify=False, timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.1)
        process.terminate()
        out, _ = process.communicate(timeout=10)
        process = subprocess.Popen(
            [*COK, "serve", "-C", str(folder), "--port", str(port), "--https"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )  # again, its output read: the same certificate serves
        for _ in range(300):
            try:
                if httpx.get(f"{url}/api/standings", verify=False, timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.1)
        yield url, out
    finally:
        process.terminate()
        process.wait(10)


def test_https_serves_a_certificate_made_for_this_machine_and_chromium_seals_once_it_is_accepted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COK_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("COK_CACHE_DIR", str(tmp_path / "cache"))
    assert Cok(tmp_path)("init", "game", "--ruleset", "no-true-king").exit_code == 0
    game = tmp_path / "game"
    with serving_https(game) as (url, printed), launch() as browser:
        assert f"{url.replace('127.0.0.1', 'localhost')}/" in printed and "fingerprint" in printed
        kept = list((tmp_path / "data" / "tls").rglob("key.pem"))
        assert len(kept) == 1 and kept[0].stat().st_mode & 0o077 == 0
        assert not any(p.suffix == ".pem" for p in game.rglob("*"))

        wary = browser.new_context()
        with pytest.raises(Exception, match="CERT"):
            wary.new_page().goto(f"{url}/")  # a phone is warned first
        wary.close()

        accepted = browser.new_context(ignore_https_errors=True, viewport={"width": 390, "height": 844})
        page = accepted.new_page()
        page.goto(f"{url}/join/{invites.invite(game, 'ana')}")
        assert page.evaluate("window.isSecureContext && typeof crypto.subtle.digest === 'function'")
        page.goto(f"{url}/play/join")
        page.get_by_role("button", name="Draw my loyalty card").click()
        page.wait_for_selector("[data-sealed]:not([hidden])")
        page.locator("select[name=symbol]").select_option("crown")
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / "phone-sealed-over-https.png"), full_page=True)
        page.get_by_role("button", name="Join with this seal").click()
        assert "Recorded" in page.locator("h1").inner_text()
        accepted.close()
    log = yaml.safe_load((game / "events.yaml").read_text(encoding="utf-8"))
    assert [e["player"] for e in log if e.get("seal")] == ["ana"]


def test_item6_plain_http_to_the_https_port_is_redirected_to_https_never_closed_silently(
    example: Path, tmp_path: Path
) -> None:
    """Issue 47, item 6: `http://` typed for an `--https` server answers 308 to the same host,
    port and path over https; https itself is served on that port as before."""
    with serving_https(example) as (url, _):
        port = url.rsplit(":", 1)[1]
        plain = httpx.get(f"http://127.0.0.1:{port}/api/standings?x=1", timeout=5, follow_redirects=False)
        assert plain.status_code == 308 and plain.headers["location"] == f"https://127.0.0.1:{port}/api/standings?x=1"
        followed = httpx.get(f"http://localhost:{port}/", verify=False, timeout=5, follow_redirects=True)
        assert followed.status_code == 200 and str(followed.url) == f"https://localhost:{port}/"
        posted = httpx.post(f"http://127.0.0.1:{port}/api/events", json={}, timeout=5, follow_redirects=False)
        assert posted.status_code == 308  # the method kept: the client sends its body again over https
        assert httpx.get(f"{url}/api/standings", verify=False, timeout=5).json()["campaign"]
