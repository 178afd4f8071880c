"""campaign.yaml: the keys every campaign has (name, map, ruleset), and reading the file
into the settings model of the campaign's game, refusing mistakes with `file:line`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from cok.core import ruleset as registry
from cok.core.errors import Problem, Refused
from cok.core.validation import check
from cok.core.yamlfile import YamlMap, parse

if TYPE_CHECKING:
    from cok.core.ruleset import Ruleset


class CampaignSettings(BaseModel):
    """The keys of campaign.yaml every game shares; a game's settings model adds its own."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(min_length=1, description="The campaign's name.")
    map: str = Field(min_length=1, description="The map file, relative to campaign.yaml.")
    ruleset: str = Field(default=registry.DEFAULT, description="The game this campaign plays.")
    confirm: Literal["optional", "required"] = Field(
        default="optional",
        description="`required`: a result (a battle) is shown as awaiting confirmation until the other side "
        "confirms it or an organiser rules (docs/confirm.md).",
    )
    id: str | None = Field(
        default=None,
        pattern=r"^[0-9a-f]{16,64}$",
        description="The campaign's identity (written by the first `cok invite`): its links and sessions are "
        "kept under it, so they follow the campaign when its folder moves.",
    )
    # the campaign's own time (issue 48, docs/deadlines.md): checked against the game's steps
    # at their own lines by `core.schedule`, once the model has read them
    timezone: str = Field(
        default="UTC",
        min_length=1,
        description="The IANA time zone deadlines are told and weekday deadlines fall in (Europe/London).",
    )
    deadlines: dict[str, str] = Field(
        default_factory=dict,
        description="How long the ledger waits for each of the game's steps: a duration from the event that "
        "opened the wait (48h, 3d, 1d12h, 90m) or a weekday and time (thursday 20:00). A step not named waits "
        "for ever.",
    )
    defaults: dict[str, str] = Field(
        default_factory=dict,
        description="What is recorded for whoever misses a step's deadline: one of the step's choices "
        "(docs/deadlines.md); the first, the safest, when not given; `none` only tells the organisers.",
    )
    reminders: list[str] = Field(
        default_factory=list,
        description="How long before a deadline the club's chat reminds whoever is still waited for "
        "(24h, 2h), each once.",
    )
    extensions: int = Field(
        default=0, ge=0, le=1000, description="How many times each player may ask for more time themselves."
    )
    extension: str = Field(default="24h", description="How much more time a player's own ask gives (a duration).")
    absent_after: int = Field(
        default=0,
        ge=0,
        le=1000,
        description="Deadlines missed in a row before a player is marked absent (their defaults are then "
        "recorded as soon as a wait opens); 0: never.",
    )


def read_settings(text: str, shown: str) -> tuple[Ruleset, Any, dict[str, int]]:
    """The campaign's game, its settings (the game's model), and the line of each key."""
    data = parse(text, shown)
    if not isinstance(data, YamlMap):
        raise Refused(Problem(shown, 1, "campaign.yaml must be a mapping with name, map and ruleset"))
    ruleset_id = data.get("ruleset", registry.DEFAULT)
    if not isinstance(ruleset_id, str) or ruleset_id not in registry.known():
        raise registry.refuse_unknown(ruleset_id, shown, data.key_lines.get("ruleset", data.line))
    ruleset = registry.get(ruleset_id)
    settings, errors = check(ruleset.settings_model, data)
    if settings is None:
        raise Refused([Problem(shown, _line_of(data, e), e) for e in errors])
    if any(key in data for key in TIME_KEYS):
        from cok.core.schedule import refusals

        problems = refusals(ruleset, data, shown)
        if problems:
            raise Refused(problems)
    return ruleset, settings, data.key_lines


#: The keys of the campaign's time, checked against the game's steps (`core.schedule`).
TIME_KEYS = ("timezone", "deadlines", "defaults", "reminders", "extension")


def _line_of(data: YamlMap, sentence: str) -> int:
    """The line of the key a sentence talks about, else the mapping's first line."""
    for key, line in data.key_lines.items():
        if any(f"{q}{key}{end}" in sentence for q in ("'", "") for end in ("'", ".", ":", "[")):
            return line
    return data.line
