"""Where a campaign is served in a club (`cok serve` of a folder of campaigns, docs/hosting.md):
its path under the club's address, remembered in the data folder so that `cok invite --url CLUB`
gives a link under that path without loading the server."""

from __future__ import annotations

import contextlib
from pathlib import Path

from cok.core.folders import data_dir
from cok.links.invites import key


def _served_file(folder: Path) -> Path:
    return data_dir() / "clubs" / f"{key(folder)}.txt"


def remember(folder: Path, name: str | None) -> None:
    """That the campaign is served in a club under `/name/` (None: served alone), so that
    `cok invite --url CLUB` gives a link under its path."""
    with contextlib.suppress(OSError):
        path = _served_file(folder)
        if name is None:
            path.unlink(missing_ok=True)
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(name + "\n", encoding="utf-8")


def served_as(folder: Path) -> str | None:
    """The slug the campaign was last served under in a club, if it was."""
    try:
        found = _served_file(folder).read_text(encoding="utf-8").strip()
    except OSError:
        return None
    return found or None


def under(url: str, name: str | None) -> str:
    """A club's address, or a campaign's, as the campaign's: its path added once."""
    if name is None or url.rstrip("/").endswith(f"/{name}"):
        return url.rstrip("/")
    return f"{url.rstrip('/')}/{name}"
