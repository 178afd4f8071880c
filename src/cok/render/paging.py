"""Long lists on the site in pages: whole groups (a week, a month), at most `per_page`
entries a page, so that no page of a long campaign is too big for a browser.

Pages are counted from the oldest entry, so a page once full never changes again: a
rebuild after one new event rewrites the newest page only. The newest page has the plain
name (`log.html`); older ones are numbered from the oldest (`log-1.html`, `log-2.html` …).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Page:
    """One page: its file, the groups on it (oldest first) and the entries of each group,
    once filled (see `Filler`)."""

    file: str
    groups: tuple[Any, ...]
    entries: dict[Any, list[Any]] = field(default_factory=dict, compare=False)

    @property
    def oldest_first(self) -> list[tuple[Any, list[Any]]]:
        """The groups and their entries, in the order they were recorded."""
        return [(g, self.entries.get(g, [])) for g in self.groups]

    @property
    def newest_first(self) -> list[tuple[Any, list[Any]]]:
        """The groups and their entries, newest first (as the site shows them)."""
        return [(g, list(reversed(self.entries.get(g, [])))) for g in reversed(self.groups)]


def plan(counts: Sequence[tuple[Hashable, int]], base: str, per_page: int) -> list[Page]:
    """The pages for groups of these sizes (oldest first), newest page first. A group is
    never split: one larger than `per_page` is a page of its own. No groups: one empty page."""
    chunks: list[list[Any]] = []
    size = 0
    for group, count in counts:
        if not chunks or size + count > per_page:
            chunks.append([])
            size = 0
        chunks[-1].append(group)
        size += count
    if not chunks:
        return [Page(base, ())]
    stem, dot, suffix = base.rpartition(".")
    names = [f"{stem}-{n}{dot}{suffix}" for n in range(1, len(chunks))] + [base]
    return [Page(name, tuple(chunk)) for name, chunk in reversed(list(zip(names, chunks, strict=True)))]


class Filler:
    """Fills planned pages with their entries, given in the log's order, and hands each page
    over as soon as its last entry is in: only the pages still being filled are held. The
    groups need not come in order (a battle of last week recorded after this week's), so
    each group's last place in the log, counted beforehand, says when its page is done."""

    def __init__(self, pages: Sequence[Page], last: Mapping[Any, int]) -> None:
        self.pages = pages
        self.page_of = {group: page for page in pages for group in page.groups}
        self.ends = {page.file: max((last[g] for g in page.groups if g in last), default=-1) for page in pages}
        self.handed: set[str] = set()

    def add(self, group: Hashable, entry: Any, at: int) -> Iterator[Page]:
        """File the entry at place `at` of the log under its group; yields its page when
        this was the page's last entry."""
        page = self.page_of[group]
        page.entries.setdefault(group, []).append(entry)
        if at == self.ends[page.file]:
            yield from self._hand_over(page)

    def close(self) -> Iterator[Page]:
        """At the end of the entries: the pages not handed over yet (those left empty)."""
        for page in self.pages:
            if page.file not in self.handed:
                yield from self._hand_over(page)

    def _hand_over(self, page: Page) -> Iterator[Page]:
        self.handed.add(page.file)
        yield page
        page.entries.clear()  # shown: not held any longer


class Newest:
    """The newest page of a long list, kept as entries come (in the log's order), so that it
    is shown without reading the list again: the groups of its last chunk (as `plan` cuts
    them) and their entries. An entry of a group older than the page (a full page changed)
    sets `broken`: only a pass over the whole list makes the pages again."""

    def __init__(self, base: str, per_page: int) -> None:
        self.base = base
        self.per_page = per_page
        self.entries: dict[Any, list[Any]] = {}  # the newest page's groups, oldest first
        self.size = 0
        self.broken = False
        self._first: Any = None
        self._last: Any = None
        self._page: Page | None = None  # the page as last handed over, until an entry comes
        self._full: list[Page] = []  # the full pages before it, newest first, numbered from the oldest

    def add(self, group: Any, entry: Any) -> None:
        self._page = None
        found = self.entries.get(group)
        placed = found is None and self._last is not None and group < self._last  # a new group between two
        if found is None:
            if self.entries and group < self._first:
                self.broken = True  # a page already full changed (or the one before this one)
                return
            found = self.entries[group] = []
        found.append(entry)
        self.size += 1
        if placed or (self.size > self.per_page and len(self.entries) > 1):
            self._cut()
        elif self._last is None or group > self._last:
            self._first = group if self._first is None else self._first
            self._last = group

    def _cut(self) -> None:
        """The groups in order, cut as `plan` does: only the last chunk is kept."""
        ordered = sorted(self.entries)
        chunk: list[Any] = []
        size = 0
        stem, dot, suffix = self.base.rpartition(".")
        for group in ordered:
            count = len(self.entries[group])
            if chunk and size + count > self.per_page:
                self._full.insert(0, Page(f"{stem}-{len(self._full) + 1}{dot}{suffix}", tuple(chunk)))
                chunk, size = [], 0
            chunk.append(group)
            size += count
        self.entries = {g: self.entries[g] for g in chunk}
        self.size = size
        self._first, self._last = chunk[0], chunk[-1]

    def page(self) -> Page:
        """The newest page, filled: a copy of its own (the fold goes on with the next version
        of the campaign), made again only once an entry came (a server after a recording
        copies the one or two pages that changed, not every player's)."""
        if self._page is None:
            self._page = Page(self.base, tuple(self.entries), {g: list(e) for g, e in self.entries.items()})
        return self._page

    def pages(self) -> list[Page]:
        """Every page of the list, newest first, as `plan` cuts it, unfilled: kept as the
        pages fill, so that a long log's thousand pages are not planned again after each
        recording. The older pages are shared: fill copies (`Filler` fills what it is given)."""
        return [Page(self.base, tuple(self.entries)), *self._full]


def nearby(pages: Sequence[Page], page: Page, around: int = 2) -> list[Page]:
    """The pages a served page links to (newest first): the newest, the oldest and those
    within `around` of this one, so that its list of pages stays short however long the
    log (each page reaches the next ones: every page is still reachable)."""
    at = next((n for n, p in enumerate(pages) if p.file == page.file), 0)  # the newest: at once
    last = len(pages) - 1
    kept = {0, last, *range(max(0, at - around), min(last, at + around) + 1)} if pages else set()
    return [pages[n] for n in sorted(kept)]  # by index: not a pass over a long log's pages


class NewestPages:
    """The newest page of the log and of each one's own pages (a player's battles, a kingdom's
    history), each kept twice: cut as the site's files are and as `cok serve` shows them. A
    game's site history folds into it entry by entry."""

    def __init__(self, folder: str, per_page: int, served: int) -> None:
        self.folder = folder  # where each one's own pages are: `players/ana.html`
        self.log = Newest("log.html", per_page)
        self.pages: dict[str, Newest] = {}
        self.served_log = Newest("log.html", served)
        self.served_pages: dict[str, Newest] = {}

    @property
    def broken(self) -> bool:
        kept = (self.log, self.served_log, *self.pages.values(), *self.served_pages.values())
        return any(n.broken for n in kept)

    def newest(self, per_page: int) -> tuple[Newest, dict[str, Newest]]:
        """The newest page of the log and of each one's own pages, cut at `per_page`."""
        if per_page == self.served_log.per_page:
            return self.served_log, self.served_pages
        return self.log, self.pages

    def logged(self, group: Any, entry: Any) -> None:
        """An entry on the log's pages."""
        self.log.add(group, entry)
        self.served_log.add(group, entry)

    def logged_about(self, who: str, group: Any, entry: Any) -> None:
        """An entry on `who`'s own pages, cut as the log's are."""
        for kept, log in ((self.pages, self.log), (self.served_pages, self.served_log)):
            newest = kept.get(who)
            if newest is None:
                newest = kept[who] = Newest(f"{self.folder}/{who}.html", log.per_page)
            newest.add(group, entry)
