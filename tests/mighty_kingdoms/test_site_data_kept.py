"""Issue 37: a served version of Mighty Kingdoms' site keeps its months' counts as they were
when it was made, while the fold goes on with the next recordings (`pages.Grown`: the
months are not copied on every version, and a version's older pages may be made later)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from cok.rulesets.mighty_kingdoms.site.pages import SERVED_PAGE_ENTRIES, SERVED_WINTERS, SiteHistory, site_data
from tests.site_fold import grown, whole

EXAMPLE = Path(__file__).resolve().parents[2] / "campaigns" / "mighty-kingdoms"


def _months(history: SiteHistory) -> dict[str, Any]:
    return {
        "period_entries": dict(history.period_entries),
        "headings": dict(history.headings),
        "last": dict(history.last),
        "about": {p: dict(m) for p, m in history.about.items()},
        "last_about": {p: dict(m) for p, m in history.last_about.items()},
    }


def _shown(data: Any) -> dict[str, Any]:
    return {
        "period_entries": dict(data.period_entries),
        "headings": dict(data.headings),
        "last": dict(data.last),
        "about": {k.id: dict(k.periods) for k in data.kingdoms},
        "last_about": {k.id: dict(k.last) for k in data.kingdoms},
    }


def test_each_versions_months_stay_as_they_were_when_the_fold_goes_on(tmp_path: Path) -> None:
    kept: list[tuple[Any, dict[str, Any]]] = []
    for campaign in grown(EXAMPLE, tmp_path):
        data = site_data(campaign, SERVED_PAGE_ENTRIES, SERVED_WINTERS)
        expected = _months(whole(campaign, SiteHistory))
        ids = {k.id for k in data.kingdoms}
        expected["about"] = {p: m for p, m in expected["about"].items() if p in ids}
        expected["last_about"] = {p: m for p, m in expected["last_about"].items() if p in ids}
        for k in ids - set(expected["about"]):
            expected["about"][k] = expected["last_about"][k] = {}
        kept.append((data, expected))
    assert len(kept) > 200 and kept[-1][1]["period_entries"]
    for data, expected in kept:  # read after every later event was folded
        assert _shown(data) == expected
        assert sorted(data.period_entries.items()) == sorted(expected["period_entries"].items())
        assert len(data.headings) == len(expected["headings"])
        assert data.period_entries.get(max(expected["period_entries"]) + 1) is None
