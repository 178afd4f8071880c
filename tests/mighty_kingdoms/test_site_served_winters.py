"""Issue 37: a kingdom's page as `cok serve` shows it after every recording lists only its
newest winters gathered (`SERVED_WINTERS`: hundreds at 100,000 events) and says in words how
many older ones it leaves out and where they are; `cok site`'s page still lists every one."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from cok.core.campaign import open_campaign
from cok.render import site
from cok.rulesets.mighty_kingdoms import site as mk_site
from cok.rulesets.mighty_kingdoms.site import pages

EXAMPLE = Path(__file__).resolve().parents[1].parent / "campaigns" / "mighty-kingdoms"
ROW = re.compile(r"<tr><td>(\d+)</td><td class=\"num\">")


def winters_listed(page: str) -> list[int]:
    """The years in a kingdom page's table of winters gathered."""
    table = re.search(r'<table class="gathered">(.*?)</table>', page, re.S)
    assert table is not None
    return [int(y) for y in ROW.findall(table.group(1))]


@pytest.fixture
def example(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The example (two winters gathered by each kingdom), its served pages keeping one."""
    monkeypatch.setattr(pages, "SERVED_WINTERS", 1, raising=False)
    site._FOLDS.clear()
    return Path(shutil.copytree(EXAMPLE, tmp_path / "mk"))


def test_a_served_kingdom_page_shows_its_newest_winters_and_says_how_many_older_are_not_shown(example: Path) -> None:
    campaign = open_campaign(example)
    gathered = campaign.state.gathered
    assert all(len(winters) == 2 for winters in gathered.values())
    served = dict(mk_site.site_pages(campaign, served=True))
    for player, winters in gathered.items():
        page = served[f"kingdoms/{player}.html"]
        assert winters_listed(page) == [max(g.year for g in winters)]
        words = re.sub(r"\s+", " ", page)
        assert "1 older winter is not shown here" in words
        assert "<code>cok site</code>" in words


def test_the_static_site_kingdom_page_still_lists_every_winter_gathered(example: Path) -> None:
    campaign = open_campaign(example)
    written = dict(mk_site.site_pages(campaign))
    for player, winters in campaign.state.gathered.items():
        page = written[f"kingdoms/{player}.html"]
        assert winters_listed(page) == sorted(g.year for g in winters)
        assert "not shown here" not in page
