"""Screenshots of the deadlines on served pages at 390 px (issue 48), to look at, not a test:

    python -m tests.serve.due_shots DIR

A Mighty Kingdoms player's page showing their due time (`COK_NOW` a day and a half before month
2's orders are due), and the log after the server's alarm recorded the defaults at its start
(`COK_NOW` past the deadline): Mighty Kingdoms' orders and Clash of Kings' week."""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

from cok.links import invites
from tests.browser import PHONE, browser
from tests.conftest import ROOT
from tests.serve.process import serving


def _copy(name: str, into: Path, settings: str) -> Path:
    folder = into / name
    shutil.copytree(ROOT / "campaigns" / name, folder)
    with (folder / "campaign.yaml").open("a", encoding="utf-8") as written:
        written.write(settings)
    return folder


def _defaulted(folder: Path, count: int = 1, within: float = 30.0) -> None:
    """Until the server's alarm has recorded `count` defaults (it does at start: the deadline passed)."""
    ends = time.monotonic() + within
    while (folder / "events.yaml").read_text(encoding="utf-8").count("default: deadline") < count:
        if time.monotonic() > ends:
            raise SystemExit(f"{folder.name}: no default recorded within {within:g} s")
        time.sleep(0.2)


def main(into: Path) -> None:
    into.mkdir(parents=True, exist_ok=True)
    scratch = Path(tempfile.mkdtemp())
    os.environ.setdefault("COK_DATA_DIR", str(scratch / "data"))
    mk_settings = "timezone: Europe/London\ndeadlines:\n  orders: 48h\nextensions: 2\nreminders: [24h, 2h]\n"
    with browser() as chromium:
        page = chromium.new_context(viewport=PHONE).new_page()
        mk = _copy("mighty-kingdoms", scratch / "due", mk_settings)
        with serving(mk, env={"COK_NOW": "2026-11-23T18:00:00Z"}) as served:
            page.goto(f"{served.url}/join/{invites.invite(mk, 'bo')}")
            page.goto(served.url + "/")
            page.screenshot(path=str(into / "390-player-due.png"), full_page=False)
        mk = _copy("mighty-kingdoms", scratch / "late", mk_settings)
        with serving(mk, env={"COK_NOW": "2026-11-25T07:00:00Z"}) as served:
            _defaulted(mk)
            page.goto(served.url + "/log.html")
            page.screenshot(path=str(into / "390-mk-log-after-default.png"), full_page=False)
        cok = _copy("example", scratch / "week", "deadlines:\n  week: 3d\n")
        with serving(cok, env={"COK_NOW": "2026-10-08T11:00:00Z"}) as served:
            _defaulted(cok)
            page.goto(served.url + "/log.html")
            page.screenshot(path=str(into / "390-cok-log-after-default.png"), full_page=False)
    print(f"screenshots in {into}")


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else "shots"))
