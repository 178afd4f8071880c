"""Issue 37: Mighty Kingdoms' site data is extended by the new events instead of made again
from the whole history; a void may cost a full pass."""

from __future__ import annotations

from pathlib import Path

from cok.rulesets.mighty_kingdoms.site.pages import SiteHistory, site_data
from tests.site_fold import checked_after_a_void, checked_event_by_event, grown

EXAMPLE = Path(__file__).resolve().parents[2] / "campaigns" / "mighty-kingdoms"


def test_the_folded_site_data_is_the_site_data_of_the_whole_log_after_each_event(tmp_path: Path) -> None:
    checked_event_by_event(EXAMPLE, tmp_path, SiteHistory, site_data)


def test_after_a_void_the_site_data_is_made_again_and_is_the_whole_logs(tmp_path: Path) -> None:
    *_, campaign = grown(EXAMPLE, tmp_path)
    checked_after_a_void(campaign, SiteHistory, site_data)
