"""One site engine for every game: a Jinja environment with autoescaping (every name from a
campaign's files is shown as text, `for_markup` taking out what a page cannot show), the
shared page layout and style sheet here, each game adding only its own templates and CSS.

A game's templates are found first, then these: a game's `base.html` extends `layout.html`."""

from __future__ import annotations

import functools
import json
import os
import threading
import zlib
from collections.abc import Callable, Sequence
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from jinja2 import Environment, Template
from markupsafe import Markup

from cok.core import cache
from cok.render import markup

if TYPE_CHECKING:
    from cok.core.campaign import Campaign
    from cok.core.history import Told

#: Where the shared templates and style sheet are.
SHARED = "cok.render"


@functools.lru_cache(maxsize=8)
def environment(game: str, pages: Sequence[tuple[str, str]]) -> Environment:
    """The templates of `game` (a package with a `templates/` folder), then the shared ones:
    one environment per game in a process, so that a server compiles each template once
    (compiling them was most of a page made again after a recording). `pages`: the site's
    few pages (label, file), home first, which every page's header links to (`nav`); the
    game's one list, which the server's header reads too (its `web().pages`)."""
    env = markup.environment([game, SHARED])
    env.globals["nav"] = pages
    return env


class Page(str):
    """An HTML page of the site: its text, as `cok site` writes it, and its template and
    values, so that the server renders it again with its bar in the page's `bar` block
    (issue #36: the bar is never spliced into a page's text)."""

    template: Template
    values: dict[str, Any]
    _served: dict[tuple[str, str], str]

    #: The served versions kept per page (one per bar: a person, a reader), so that a page
    #: asked again costs no rendering, as a page of the site costs none.
    KEPT = 8

    def __new__(cls, template: Template, values: dict[str, Any]) -> Page:
        made = super().__new__(cls, template.render(values))
        made.template, made.values, made._served = template, values, {}
        return made

    def served(self, bar: Markup, server_root: str) -> str:
        """The page with the server's bar (made by the server's template) and style sheet."""
        key = (str(bar), server_root)
        found = self._served.get(key)
        if found is None:
            found = self.template.render({**self.values, "bar": bar, "server_root": server_root})
            if len(self._served) >= self.KEPT:
                self._served.clear()
            self._served[key] = found
        return found


def page(env: Environment, name: str, **values: Any) -> Page:
    """The site's page made of the template `name`."""
    return Page(env.get_template(name), values)


def stylesheet(game: str) -> str:
    """The site's `style.css`: the shared rules, then the game's own (which may override them)."""
    shared = resources.files(SHARED).joinpath("templates/style.css").read_text(encoding="utf-8")
    own = resources.files(game).joinpath("templates/style.css")
    return shared + (own.read_text(encoding="utf-8") if own.is_file() else "")


# --- the site's data, folded event by event --------------------------------------------------


class Accumulator(Protocol):
    """A game's site data (the weeks, the latest battles, the charts' history…) made by
    folding the history one entry at a time, as the state is made from the log."""

    @property
    def broken(self) -> bool:
        """Whether an entry changed what only a pass over the whole history can make again
        (an entry of a week already on a full page of the log): the next use folds it all."""

    def add(self, told: Told) -> None: ...


A = TypeVar("A", bound=Accumulator)

#: The bytes before the end of the history already folded, kept to tell that the cache's
#: rows only grew since (a replay writes them again, and they then differ).
_CHECKED = 64
#: Folds kept in this process, by campaign folder (a server holds one, `cok site` one).
_KEPT = 4


class Fold:
    """One campaign's site data kept beside its warm state (the server's, `cok site`'s),
    brought up to date by the history's new entries only. A void (which changes the past:
    the entries it voids are told again), a history written again, or an entry the data
    cannot take in (`broken`) costs a full pass."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._held: Any = None
        self._make: Callable[[], Any] | None = None
        self._mark: tuple[Any, ...] | None = None  # where the history folded ends (`_mark_of`)
        self.full_passes = 0

    def brought_to(self, campaign: Campaign, make: Callable[[], A]) -> A:
        """The site data of this version of the campaign."""
        with self._lock:
            held: A | None = self._held if self._make is make else None
            if held is not None and not held.broken:
                new = _told_since(campaign, self._mark)
                if new is not None and not any(t.type == "void" for t in new):
                    for told in new:
                        held.add(told)
                    if not held.broken:
                        self._mark = _mark_of(campaign)
                        return held
            self.full_passes += 1
            held = make()
            for told in campaign.told():
                held.add(told)
            self._held, self._make, self._mark = held, make, _mark_of(campaign)
            return held


_FOLDS: dict[Path, Fold] = {}
_FOLDS_LOCK = threading.Lock()


def fold_of(campaign: Campaign) -> Fold:
    """The fold kept for this campaign's folder in this process."""
    key = campaign.folder.resolve()
    with _FOLDS_LOCK:
        found = _FOLDS.get(key)
        if found is None:
            if len(_FOLDS) >= _KEPT:
                _FOLDS.pop(next(iter(_FOLDS)))
            found = _FOLDS[key] = Fold()
        return found


def site_history(campaign: Campaign, make: Callable[[], A]) -> A:
    """A game's site data for the campaign, folded from what was folded before."""
    return fold_of(campaign).brought_to(campaign, make)


def _history_rows(campaign: Campaign) -> tuple[Path, int, int] | None:
    """The cache's history rows file and its extent (lines, bytes), when the campaign's
    history is read from it (not held in memory after a replay)."""
    extent = getattr(campaign, "_extents", {}).get("history")
    path = cache.rows_file(campaign.folder, "history")
    if path is None or not (isinstance(extent, list) and len(extent) == 2):
        return None
    lines, size = extent
    if not (type(lines) is int and type(size) is int):
        return None
    return path, lines, size


def _held(campaign: Campaign) -> list[Told] | None:
    """The history the campaign holds in memory (after a replay), which recordings extend."""
    held = getattr(campaign, "_history", None)
    return held if isinstance(held, list) else None


def _mark_of(campaign: Campaign) -> tuple[Any, ...] | None:
    """Where the history folded so far ends: in the list the campaign holds (that very list,
    its length, its last entry), or in the cache's rows file (that very file, its extent,
    its last bytes: a replay writes a new file)."""
    held = _held(campaign)
    if held is not None:
        return ("held", id(held), len(held), held[-1] if held else None)
    found = _history_rows(campaign)
    if found is None:
        return None
    path, lines, size = found
    try:
        with open(path, "rb") as handle:
            info = os.fstat(handle.fileno())
            handle.seek(max(0, size - _CHECKED))
            last = handle.read(min(size, _CHECKED))
    except OSError:
        return None
    if len(last) != min(size, _CHECKED):
        return None
    return ("rows", info.st_dev, info.st_ino, lines, size, last)


def _told_since(campaign: Campaign, mark: tuple[Any, ...] | None) -> list[Told] | None:
    """The history's entries after `mark`; None when the history did not only grow since
    (or cannot be read): then the whole of it is folded again."""
    held = _held(campaign)
    if held is not None:
        if mark is None or mark[0] != "held" or mark[1] != id(held) or len(held) < mark[2]:
            return None
        if mark[2] and held[mark[2] - 1] is not mark[3]:
            return None
        return held[mark[2] :]
    found = _history_rows(campaign)
    if found is None or mark is None or mark[0] != "rows":
        return None
    return _rows_since(found, mark)


def _rows_since(found: tuple[Path, int, int], mark: tuple[Any, ...]) -> list[Told] | None:
    """The entries in the cache's rows file after `mark`, each line checked as the cache
    checks it."""
    from cok.core.store import told_of

    path, lines, size = found
    _, device, inode, seen_lines, seen_size, last = mark
    if lines < seen_lines or size < seen_size:
        return None
    try:
        with open(path, "rb") as handle:
            info = os.fstat(handle.fileno())
            if (info.st_dev, info.st_ino) != (device, inode):
                return None  # written again (a replay)
            handle.seek(seen_size - len(last))
            if handle.read(len(last)) != last:
                return None
            data = handle.read(size - seen_size)
    except OSError:
        return None
    if len(data) != size - seen_size or (data and not data.endswith(b"\n")):
        return None
    read = data.split(b"\n")[:-1]
    if len(read) != lines - seen_lines:
        return None
    told: list[Told] = []
    for line in read:
        crc, _, body = line.partition(b" ")
        if crc != b"%08x" % zlib.crc32(body):
            return None
        try:
            told += [told_of(row) for row in json.loads(body)]
        except (TypeError, ValueError, RecursionError):
            return None
    return told
