"""A Clash of Kings campaign's keys in campaign.yaml: the weekly points limit and the game
modes its battles may be played in."""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, field_validator

from cok.core.settings import CampaignSettings


class PointsSpec(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    start: int = Field(default=20, ge=1, description="Week 1's points limit.")
    step: int = Field(default=3, ge=0, description="How much the limit grows each week.")


class ClashOfKingsSettings(CampaignSettings):
    """campaign.yaml of a Clash of Kings campaign."""

    points: PointsSpec = Field(default_factory=PointsSpec, description="The weekly points limit.")
    modes: list[str] | None = Field(default=None, description="Game modes allowed (default: all known).")
    factions: list[Annotated[str, StringConstraints(pattern=r"^[a-z0-9_-]+$", min_length=1)]] = Field(
        default_factory=list,
        description="Factions a player may join as beyond the TMG ones and the map's homes (ids like `tully`).",
    )

    @field_validator("modes")
    @classmethod
    def _no_typos_in_modes(cls, modes: list[str] | None) -> list[str] | None:
        """A mode close to a known one is a typo, not a house mode of its own: refused here, on
        campaign.yaml's line, rather than on the first battle that names the real mode."""
        from cok.core.names import suggest
        from cok.rulesets.clash_of_kings.modes import catalogue

        known = catalogue()
        for mode in modes or []:
            close = [] if mode in known else suggest(mode, known)
            if close:
                raise ValueError(
                    f"{mode!r} is not a known game mode (did you mean {close[0]!r}?); known modes: "
                    f"{', '.join(known)} (a house mode of the campaign's own needs a name unlike them)"
                )
        return modes
