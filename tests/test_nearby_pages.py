"""A served page lists the newest, the oldest and the pages near it (`paging.nearby`), and
finding them for the newest page is no pass over a long log's pages (issue #37)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import overload

from cok.render.paging import Page, nearby


class Watched(Sequence[Page]):
    """Pages that note which of them were looked at."""

    def __init__(self, pages: list[Page]) -> None:
        self.pages = pages
        self.seen: set[int] = set()

    def __len__(self) -> int:
        return len(self.pages)

    @overload
    def __getitem__(self, n: int) -> Page: ...
    @overload
    def __getitem__(self, n: slice) -> Sequence[Page]: ...
    def __getitem__(self, n: int | slice) -> Page | Sequence[Page]:
        if isinstance(n, slice):
            raise AssertionError("no slice expected")
        self.seen.add(n if n >= 0 else len(self.pages) + n)
        return self.pages[n]

    def __iter__(self) -> Iterator[Page]:
        for n in range(len(self.pages)):
            yield self[n]


def _pages(count: int) -> list[Page]:
    return [Page("log.html", (count,))] + [Page(f"log-{n}.html", (n,)) for n in range(count - 1, 0, -1)]


def test_the_pages_listed_are_the_newest_the_oldest_and_those_near_the_page() -> None:
    for count in range(0, 12):
        pages = _pages(count)
        for at, page in enumerate(pages):
            expected = [p for n, p in enumerate(pages) if n in (0, count - 1) or abs(n - at) <= 2]
            assert nearby(pages, page) == expected


def test_the_newest_page_of_a_long_log_looks_at_a_few_pages_only() -> None:
    pages = Watched(_pages(1_000))
    listed = nearby(pages, pages.pages[0])
    assert [p.file for p in listed] == ["log.html", "log-999.html", "log-998.html", "log-1.html"]
    assert len(pages.seen) <= 5, sorted(pages.seen)
