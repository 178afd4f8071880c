"""One headless Chromium for the tests that look at pages: Debian's chromium driven by
Playwright (never a browser Playwright downloads), and what a reader sees measured in the
page's own DOM: sideways scrolling, tables cut off, text too small to read.

`browser()` opens it once for a module; `flaws(page)` lists what is wrong on the page
shown. Without chromium the test fails and says how to install it (CI installs it)."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

#: Debian's chromium; its flags keep it from reaching the network or its own updater.
CHROMIUM = "/usr/bin/chromium"
FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
#: A phone held upright, and a laptop.
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
#: The smallest text a reader is asked to read, in CSS pixels as drawn.
SMALLEST_TEXT = 9.0


def chromium() -> str:
    found = CHROMIUM if shutil.which(CHROMIUM) else shutil.which("chromium") or shutil.which("chromium-browser")
    if found is None:
        pytest.fail("the browser tests need Chromium: apt-get install chromium (Debian's, at /usr/bin/chromium)")
    return found


@contextmanager
def browser() -> Iterator[Any]:
    """A headless Chromium, closed when the block ends."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.fail("the browser tests need Playwright: pip install -e '.[test]'")
    with sync_playwright() as driver:
        launched = driver.chromium.launch(executable_path=chromium(), args=FLAGS)
        try:
            yield launched
        finally:
            launched.close()


#: The measuring script, run in the page with the smallest text allowed.
MEASURE = (Path(__file__).parent / "measure.js").read_text(encoding="utf-8")


def flaws(page: Any) -> list[str]:
    """What a reader would find wrong on the page shown (see MEASURE)."""
    found: list[str] = page.evaluate(MEASURE, SMALLEST_TEXT)
    return found


#: The smallest tap target, in CSS pixels each way (issue #35: made for a thumb).
SMALLEST_TAP = 44.0
TAPS = (Path(__file__).parent / "taps.js").read_text(encoding="utf-8")


def small_taps(page: Any) -> list[str]:
    """The links, buttons and fields on the page shown that a thumb would miss (see TAPS)."""
    found: list[str] = page.evaluate(TAPS, SMALLEST_TAP)
    return found
