"""Issue 37: the newest page of a long list, kept as entries come, is the page `plan` cuts
from the whole list and fills with its entries."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from cok.render.paging import Newest, plan


@given(st.lists(st.integers(min_value=0, max_value=3), max_size=200), st.integers(min_value=1, max_value=12))
def test_the_newest_page_kept_as_entries_come_is_the_newest_page_of_the_whole_list(
    steps: list[int], per_page: int
) -> None:
    newest = Newest("log.html", per_page)
    group, groups = 0, []
    for n, step in enumerate(steps):
        group = max(0, group + step - 1)  # mostly on or ahead, sometimes one back
        groups.append(group)
        before = newest.page().groups
        newest.add(group, n)
        counts: dict[int, int] = {}
        for g in groups:
            counts[g] = counts.get(g, 0) + 1
        planned = plan(sorted(counts.items()), "log.html", per_page)[0]
        if newest.broken:  # only an entry older than the whole page: the list is made again
            assert before and group < before[0]
            return
        page = newest.page()
        assert page.groups == planned.groups
        assert page.entries == {g: [i for i, h in enumerate(groups) if h == g] for g in planned.groups}


@given(st.lists(st.integers(min_value=0, max_value=3), max_size=200), st.integers(min_value=1, max_value=12))
def test_every_page_kept_as_entries_come_is_the_page_plan_cuts_from_the_whole_list(
    steps: list[int], per_page: int
) -> None:
    """A server shows the pages the fold cut, not a plan of every week made again after
    each recording: they are the pages `plan` cuts, with the same files."""
    newest = Newest("players/p.html", per_page)
    group, counts = 0, {}
    for n, step in enumerate(steps):
        group = max(0, group + step - 1)
        newest.add(group, n)
        if newest.broken:
            return
        counts[group] = counts.get(group, 0) + 1
        planned = plan(sorted(counts.items()), "players/p.html", per_page)
        assert [(p.file, p.groups) for p in newest.pages()] == [(p.file, p.groups) for p in planned]


def test_a_newest_page_handed_over_is_copied_again_only_once_an_entry_came() -> None:
    """After a recording only the pages it changed are copied for the next version."""
    newest = Newest("log.html", 5)
    newest.add(1, "a")
    first = newest.page()
    assert newest.page() is first
    newest.add(1, "b")
    assert newest.page() is not first and first.entries == {1: ["a"]}
