"""A campaign folder: finding it, and loading its settings, map and log."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

from cok.errors import Problem, Refused, display_path
from cok.eventlog import Log, read_log
from cok.folders import EVENTS_FILE, SETTINGS_FILE
from cok.geography import Geography
from cok.mapfile import load_map
from cok.replay import Replay, replay
from cok.rules.apply import apply, initial_state
from cok.rules.state import Settings, State
from cok.validation import check
from cok.yamlfile import YamlMap, load


class PointsSpec(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    start: int = Field(default=20, ge=1, description="Week 1's points limit.")
    step: int = Field(default=3, ge=0, description="How much the limit grows each week.")


class CampaignSpec(BaseModel):
    """campaign.yaml: the settings of one campaign."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(min_length=1, description="The campaign's name.")
    map: str = Field(min_length=1, description="The map file, relative to campaign.yaml.")
    points: PointsSpec = Field(default_factory=PointsSpec, description="The weekly points limit.")
    modes: list[str] | None = Field(default=None, description="Game modes allowed (default: all known).")


def load_spec(path: Path) -> tuple[CampaignSpec, dict[str, int]]:
    """campaign.yaml, validated, with the line of each of its keys."""
    shown = display_path(path)
    data = load(path, "campaign settings")
    if not isinstance(data, YamlMap):
        raise Refused(Problem(shown, 1, "campaign.yaml must be a mapping with name, map and points"))
    spec, errors = check(CampaignSpec, data)
    if spec is None:
        raise Refused([Problem(shown, _line_of(data, e), e) for e in errors])
    return spec, data.key_lines


def _line_of(data: YamlMap, sentence: str) -> int:
    """The line of the key a sentence talks about, else the mapping's first line."""
    for key, line in data.key_lines.items():
        if any(f"{q}{key}{end}" in sentence for q in ("'", "") for end in ("'", ".", ":", "[")):
            return line
    return data.line


@dataclass
class Campaign:
    folder: Path
    spec: CampaignSpec
    geo: Geography
    log: Log

    @property
    def map_path(self) -> Path:
        return self.folder / self.spec.map

    @property
    def settings(self) -> Settings:
        from cok.modes import allowed_modes

        modes = tuple(allowed_modes(tuple(self.spec.modes) if self.spec.modes is not None else None))
        return Settings(self.spec.points.start, self.spec.points.step, modes)

    def fresh_state(self) -> State:
        return initial_state(self.geo, self.settings)

    @cached_property
    def replayed(self) -> Replay[State]:
        """The log replayed through the rules (every problem collected), with its history."""
        return self.replay(history=True)

    def replay(self, history: bool = False) -> Replay[State]:
        result = replay(self.log.records, self.fresh_state(), apply, self.log.shown, history)
        result.problems[:0] = self.log.problems
        result.problems.sort(key=lambda p: (p.line is None, p.line or 0))
        return result

    def valid(self) -> Replay[State]:
        """The replay, refusing to go on with an invalid log."""
        result = self.replayed
        if result.problems:
            raise Refused(result.problems)
        return result


def load_campaign(folder: Path, with_log: bool = True) -> Campaign:
    """Load settings, map and log. Settings and map problems are refused at once;
    log problems are kept for `check` (and refused by `valid`). Without the log: an
    empty one (the merge driver replays a log of its own on the campaign's rules)."""
    spec, lines = load_spec(folder / SETTINGS_FILE)
    map_path = folder / spec.map
    if not map_path.is_file():
        shown = display_path(folder / SETTINGS_FILE)
        raise Refused(
            Problem(
                shown, lines.get("map"), f"the map {spec.map!r} was not found (looked for {display_path(map_path)})"
            )
        )
    geo = load_map(map_path)
    log = read_log(folder / EVENTS_FILE) if with_log else Log(folder / EVENTS_FILE)
    return Campaign(folder, spec, geo, log)
