"""Issue 37: the pages `cok serve` makes after every recording hold a bounded window (the
newest entries, the pages near them, a chart of at most so many weeks), every entry still on
one served page, and the same whether made from the fold or from a pass over the log."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cok.core.campaign import open_campaign
from cok.render import site
from cok.rulesets.clash_of_kings.site import pages, shown
from tests.site_fold import grown

EXAMPLE = Path(__file__).resolve().parents[1] / "campaigns" / "example"
ENTRY = re.compile(r'<li class="(?:battle|other)[^"]*">.*?</li>', re.S)


@pytest.fixture
def small_pages(monkeypatch: pytest.MonkeyPatch) -> int:
    """Served pages of 5 entries, so that the example's 52 events fill several."""
    monkeypatch.setattr(shown, "SERVED_PAGE_ENTRIES", 5)
    monkeypatch.setattr(pages, "SERVED_PAGE_ENTRIES", 5)
    monkeypatch.setattr(pages, "SERVED_CHART_WEEKS", 2)
    site._FOLDS.clear()
    return 5


def test_the_served_log_holds_every_entry_once_on_pages_of_whole_weeks_at_most_the_window(
    small_pages: int, tmp_path: Path
) -> None:
    *_, campaign = grown(EXAMPLE, tmp_path)
    served = dict(pages.site_pages(campaign, served=True))
    static = dict(pages.site_pages(campaign))
    logs = [name for name in served if re.fullmatch(r"log(-\d+)?\.html", name)]
    assert len(logs) > 3
    found = [e for name in logs for e in ENTRY.findall(served[name])]
    assert sorted(found) == sorted(ENTRY.findall(static["log.html"]))
    weeks = {name: re.findall(r'<h2 id="week-(\d+)">', served[name]) for name in logs}
    for name in logs:  # at most the window, unless one week alone is longer
        assert len(ENTRY.findall(served[name])) <= small_pages or len(weeks[name]) == 1
    assert len(set(w for ws in weeks.values() for w in ws)) == sum(len(ws) for ws in weeks.values())


def test_a_served_page_links_to_the_pages_near_it_and_its_chart_draws_at_most_so_many_weeks(
    small_pages: int, tmp_path: Path
) -> None:
    *_, campaign = grown(EXAMPLE, tmp_path)
    served = dict(pages.site_pages(campaign, served=True))
    logs = [name for name in served if re.fullmatch(r"log(-\d+)?\.html", name)]
    nav = re.search(r'<nav class="log-pages"[^>]*>(.*?)</nav>', served["log.html"], re.S)
    assert nav is not None
    linked = re.findall(r'href="(log-\d+\.html)"', nav[1])
    assert len(linked) < len(logs) - 1 and f"log-{len(logs) - 1}.html" in linked and "log-1.html" in linked
    player = served["players/tim.html"]
    assert 0 < player.count("<circle") <= 3  # two weeks evenly, and the last


def test_the_served_pages_from_the_fold_are_those_of_a_pass_over_the_whole_log(
    small_pages: int, tmp_path: Path
) -> None:
    *_, campaign = grown(EXAMPLE, tmp_path)  # the fold extended event by event
    folded = dict(pages.site_pages(campaign, served=True))
    site._FOLDS.clear()
    made = dict(pages.site_pages(open_campaign(campaign.folder), served=True))
    assert folded.keys() == made.keys()
    assert {k: v for k, v in folded.items() if k != "index.html"} == {
        k: v for k, v in made.items() if k != "index.html"
    }


def test_a_copy_shares_the_record_of_every_week_until_either_state_changes_it() -> None:
    """Each recording copies the state: the record of every week (which grows with the
    log) is shared by the copy, and copied by whichever state changes it first."""
    state = open_campaign(EXAMPLE, use_cache=False).state
    before = set(state.fought)
    made = state.copy()
    assert made.fought is state.fought
    made.own("fought").add(("tim", 99))
    assert ("tim", 99) in made.fought and state.fought == before
    again = state.copy()
    state.own("fought").add(("matt", 98))
    assert ("matt", 98) not in again.fought and ("matt", 98) in state.fought
