"""A Mighty Kingdoms campaign's keys in campaign.yaml: its battle system, the most armies a
kingdom may have, and the advanced rules in play (contract sections 2 and 5.8)."""

from __future__ import annotations

from typing import Any

from pydantic import Field, field_validator

from cok.core.names import did_you_mean
from cok.core.settings import CampaignSettings

BATTLES = ("simple", "kings-of-war")
ADVANCED = ("wizards-towers", "terrain-recruits")


class MightyKingdomsSettings(CampaignSettings):
    """campaign.yaml of a Mighty Kingdoms campaign."""

    battles: str = Field(
        default="simple",
        description="simple | kings-of-war: how battles are resolved (setup step F).",
        json_schema_extra={"enum": list(BATTLES)},
    )
    army_limit: int = Field(default=6, ge=1, description="The most armies a kingdom may have.")
    advanced: list[str] = Field(
        default_factory=list,
        description="Advanced rules in play.",
        json_schema_extra={"items": {"enum": list(ADVANCED)}},
    )

    @field_validator("battles")
    @classmethod
    def _known_battles(cls, value: str) -> str:
        if value not in BATTLES:
            raise ValueError(f"unknown battles {value!r}{did_you_mean(value, BATTLES)}; known: {', '.join(BATTLES)}")
        return value

    @field_validator("advanced", mode="before")
    @classmethod
    def _known_advanced(cls, value: Any) -> Any:
        if isinstance(value, list):
            for rule in value:
                if rule not in ADVANCED:
                    raise ValueError(
                        f"unknown advanced rule {rule!r}{did_you_mean(str(rule), ADVANCED)}; "
                        f"known: {', '.join(ADVANCED)}"
                    )
        return value
