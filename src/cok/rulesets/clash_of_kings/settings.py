"""A Clash of Kings campaign's keys in campaign.yaml: the weekly points limit and the game
modes its battles may be played in."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from cok.core.settings import CampaignSettings


class PointsSpec(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    start: int = Field(default=20, ge=1, description="Week 1's points limit.")
    step: int = Field(default=3, ge=0, description="How much the limit grows each week.")


class ClashOfKingsSettings(CampaignSettings):
    """campaign.yaml of a Clash of Kings campaign."""

    points: PointsSpec = Field(default_factory=PointsSpec, description="The weekly points limit.")
    modes: list[str] | None = Field(default=None, description="Game modes allowed (default: all known).")
