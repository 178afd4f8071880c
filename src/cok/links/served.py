"""Where a campaign is served in a club (`cok serve` of a folder of campaigns, docs/hosting.md):
its path under the club's address, remembered in the data folder so that `cok invite --url CLUB`
gives a link under that path without loading the server; before the club's first serve, the
path its folder's place gives it (every form of a link opens its campaign: serve/club.py and
serve/moved.py send the others on)."""

from __future__ import annotations

import contextlib
import re
from pathlib import Path

from cok.core.folders import SETTINGS_FILE, data_dir
from cok.links.invites import kept_line, key

ALONE = "/"  # what is kept for a campaign last served alone
#: What a campaign's folder name becomes in its path: lowercase letters, digits and dashes.
_NOT_SLUG = re.compile(r"[^a-z0-9]+")


def slug(folder: Path) -> str:
    """The path a campaign is served under in a club: its folder's name, as a URL and a cookie hold it."""
    return _NOT_SLUG.sub("-", folder.name.lower()).strip("-")


def _served_file(folder: Path) -> Path:
    return data_dir() / "clubs" / f"{key(folder)}.txt"


def remember(folder: Path, name: str | None) -> None:
    """That the campaign is served in a club under `/name/` (None: served alone), so that
    `cok invite --url CLUB` gives a link under its path."""
    with contextlib.suppress(OSError):
        path = _served_file(folder)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text((name or ALONE) + "\n", encoding="utf-8")


def served_as(folder: Path) -> str | None:
    """The slug the campaign was last served under in a club, if it was (None: served alone
    last, or never served)."""
    found = kept_line(folder, "clubs")
    return None if found == ALONE else found


def path_of(folder: Path) -> str | None:
    """The club's path a link of this campaign starts with: the one it was last served under
    (None: served alone); never served yet, the one its folder's place gives it, as `cok serve`
    of the folder holding it and other campaigns would serve it (a campaign alone in its folder:
    None, as it is served alone)."""
    found = kept_line(folder, "clubs")
    if found is not None:
        return None if found == ALONE else found
    parent = folder.resolve().parent
    if (parent / SETTINGS_FILE).is_file() or not slug(folder):
        return None
    with contextlib.suppress(OSError):
        if sum(1 for p in parent.glob(f"*/{SETTINGS_FILE}") if p.is_file()) >= 2:
            return slug(folder)  # a club's folder: `cok serve` of it serves this one at /<slug>/
    return None


def under(url: str, name: str | None) -> str:
    """A club's address, or a campaign's, as the campaign's: its path added once."""
    if name is None or url.rstrip("/").endswith(f"/{name}"):
        return url.rstrip("/")
    return f"{url.rstrip('/')}/{name}"
