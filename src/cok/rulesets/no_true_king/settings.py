"""campaign.yaml keys of a No True King game (contract §2)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from cok.core.settings import CampaignSettings


class NoTrueKingSettings(CampaignSettings):
    loyalty: Literal["sealed", "open"] = Field(
        default="sealed", description="sealed: only a SHA-256 seal of each card is in the log until the end (§4.6)"
    )
