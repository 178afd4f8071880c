"""Stand-in queries (replaced by the service branch on merge)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from cok.core.campaign import Campaign, open_campaign
from cok.core.errors import Problem


def _open(folder_or_campaign: Path | Campaign) -> Campaign:
    return folder_or_campaign if isinstance(folder_or_campaign, Campaign) else open_campaign(folder_or_campaign)


def standings(folder_or_campaign: Path | Campaign) -> dict[str, Any]:
    campaign = _open(folder_or_campaign)
    return campaign.ruleset.standings(campaign, True).document


def check(folder: Path) -> list[Problem]:
    return list(open_campaign(folder).problems)


def status(folder_or_campaign: Path | Campaign, **args: Any) -> dict[str, Any]:
    campaign = _open(folder_or_campaign)
    state = campaign.state
    if campaign.ruleset.id == "clash-of-kings":
        from cok.rulesets.clash_of_kings.documents import where_doc
        from cok.rulesets.clash_of_kings.rules.where import where

        a, b = (campaign.ruleset.player(state, p) for p in args["players"])
        return where_doc(state, where(state, a, b))
    return {}
