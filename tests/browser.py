"""One headless Chromium for the tests that look at pages: Debian's chromium driven by
Playwright (never a browser Playwright downloads), and what a reader sees measured in the
page's own DOM: sideways scrolling, tables cut off, text too small to read.

`browser()` opens it once for a module; `flaws(page)` lists what is wrong on the page
shown. Which Chromium: $COK_CHROMIUM, else Debian's, else the one `playwright install chromium`
put in Playwright's own folder. Without any, a browser test is skipped on a contributor's
machine (the run's last lines say how to run them) and fails under CI (`CI` set), which
installs Chromium, so that a skip can never hide a failure there."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NoReturn

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


#: The words every skipped browser test gives, which conftest.py counts for the run's summary.
NO_CHROMIUM = "no Chromium to run the browser tests"


def required() -> bool:
    """CI requires the browser tests: it installs Chromium, so a missing one is a failure."""
    return bool(os.environ.get("CI"))


def unavailable(why: str) -> NoReturn:
    """Skip the browser test on a contributor's machine; fail it under CI."""
    if required():
        pytest.fail(f"{NO_CHROMIUM} under CI ({why}): .ci/run installs Debian's chromium")
    pytest.skip(f"{NO_CHROMIUM} ({why})")


def chromium() -> str | None:
    """$COK_CHROMIUM, else Debian's chromium (or another on the PATH); None: try Playwright's own."""
    named = os.environ.get("COK_CHROMIUM")
    if named:
        if not Path(named).is_file():
            unavailable(f"COK_CHROMIUM={named} is not a file")
        return named
    return CHROMIUM if shutil.which(CHROMIUM) else shutil.which("chromium") or shutil.which("chromium-browser")


@contextmanager
def browser() -> Iterator[Any]:
    """A headless Chromium, closed when the block ends."""
    try:
        from playwright.sync_api import Error, sync_playwright
    except ImportError:
        unavailable("Playwright is not installed: pip install '.[test]'")
    with sync_playwright() as driver:
        path = chromium()
        try:
            launched = driver.chromium.launch(executable_path=path, args=FLAGS)
        except Error:
            if path is not None:
                raise  # a Chromium that is there but does not start is a failure, not a skip
            unavailable("none found")
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


#: The two windows every page is looked at in: a phone's and a laptop's.
SIZES = {"phone": (390, 844), "laptop": (1280, 900)}
#: Where the screenshots go: $COK_SHOTS, else the system's temporary folder.
SHOTS = Path(os.environ.get("COK_SHOTS") or tempfile.gettempdir()) / "cok-serve-shots"


def fits(page: object, name: str, size: str) -> None:
    """Nothing sideways: the document is no wider than the window. A screenshot is kept."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{size}-{name}.png"), full_page=True)  # type: ignore[attr-defined]
    wide = page.evaluate("document.documentElement.scrollWidth")  # type: ignore[attr-defined]
    window = page.evaluate("window.innerWidth")  # type: ignore[attr-defined]
    assert wide <= window, f"{name}: {wide} px wide in a {window} px window"
