"""Issue 37: Clash of Kings' site data is extended by the new events instead of made again
from the whole history; a void may cost a full pass."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from cok.rulesets.clash_of_kings.site.pages import site_pages
from cok.rulesets.clash_of_kings.site.shown import SiteHistory, site_data
from tests.site_fold import appended, grown, passes, whole

EXAMPLE = Path(__file__).resolve().parents[2] / "campaigns" / "example"


def shown(data: SiteHistory) -> dict[str, Any]:
    kept = ("log", "pages", "served_log", "served_pages", "latest")
    plain = {k: v for k, v in vars(data).items() if k not in kept}
    plain["latest"] = list(data.latest)
    for name in ("log", "served_log"):
        newest = getattr(data, name)
        plain[name] = (newest.page(), newest.page().entries, newest.pages())
    for name in ("pages", "served_pages"):
        plain[name] = {pid: (n.page(), n.page().entries, n.pages()) for pid, n in getattr(data, name).items()}
    return plain


def test_the_folded_site_data_is_the_site_data_of_the_whole_log_after_each_event(tmp_path: Path) -> None:
    last = None
    for campaign in grown(EXAMPLE, tmp_path):
        site = site_data(campaign)  # folded from what was folded before
        made = whole(campaign, SiteHistory)
        assert shown(made) == shown(site_history_of(campaign))
        assert site.week_entries == made.week_entries and site.void_reasons == made.reasons
        last = campaign
    assert last is not None
    voids = sum(1 for t in last.told() if t.type == "void")
    assert passes(last) == 1 + voids  # one pass at the first event and one per void: the rest folded in


def test_after_a_void_the_site_data_is_made_again_and_is_the_whole_logs(tmp_path: Path) -> None:
    *_, campaign = grown(EXAMPLE, tmp_path)
    site_data(campaign)
    battle = next(t for t in campaign.told() if t.type == "battle" and not t.voided)
    before = passes(campaign)
    campaign = appended(campaign, f"- type: void\n  target: {battle.ref}\n  reason: a typo\n")
    site = site_data(campaign)
    made = whole(campaign, SiteHistory)
    assert shown(made) == shown(site_history_of(campaign))
    assert site.void_reasons[str(battle.ref)] == "a typo"
    assert passes(campaign) == before + 1


def test_the_site_made_from_the_folded_data_is_the_site_made_from_the_whole_log(tmp_path: Path) -> None:
    from cok.render import site

    *_, campaign = grown(EXAMPLE, tmp_path)
    folded = dict(site_pages(campaign))  # from the data folded event by event
    site._FOLDS.clear()
    made = dict(site_pages(campaign))  # from a pass over the whole log
    assert "players/tim.html" in folded and "log.html" in folded
    assert {k: v for k, v in folded.items() if k != "index.html"} == {
        k: v for k, v in made.items() if k != "index.html"
    }


def site_history_of(campaign: Any) -> SiteHistory:
    from cok.render.site import site_history

    return site_history(campaign, SiteHistory)
