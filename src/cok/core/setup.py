"""Creating a campaign folder of any game (`cok init`)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import TYPE_CHECKING

import yaml

from cok.core.errors import Refused, display_path
from cok.core.folders import EVENTS_FILE, SETTINGS_FILE, refuse_dangling_link
from cok.core.schemas import KINDS, SCHEMA_DIR, modeline, schema
from cok.core.yamlfile import read_text

if TYPE_CHECKING:
    from cok.core.ruleset import Ruleset

MAP_COPY = "map.yaml"


def init_campaign(folder: Path, map_path: Path | None, name: str | None, ruleset: Ruleset) -> tuple[str, str]:
    """Create campaign.yaml and an empty events.yaml. Without --map the campaign gets its
    own copy of the game's map, so that the map it is replayed on never changes under it.
    Returns the campaign's name and its map entry."""
    if (folder / SETTINGS_FILE).exists():
        raise Refused(f"{folder} already holds a campaign ({SETTINGS_FILE} exists)")
    refuse_dangling_link(folder / EVENTS_FILE, "the event log")
    source = map_path or ruleset.builtin_map()
    geo = ruleset.load_map(read_text(source, "map file"), display_path(source))  # refuse a broken map first
    name = name or folder.resolve().name.replace("-", " ").replace("_", " ").title()
    folder.mkdir(parents=True, exist_ok=True)
    _write_schemas(folder, ruleset)
    if map_path is None:
        (folder / MAP_COPY).write_text(modeline("map") + source.read_text(encoding="utf-8"), encoding="utf-8")
        entry = MAP_COPY
    else:
        entry = os.path.relpath(map_path.resolve(), folder.resolve())
    settings = {"name": name, "ruleset": ruleset.id, "map": entry, **ruleset.new_settings}
    (folder / SETTINGS_FILE).write_text(
        modeline("campaign")
        + f"# {_comment(name)}: campaign settings (map {_comment(getattr(geo, 'name', source.stem))}).\n"
        + _settings_text(settings),
        encoding="utf-8",
    )
    if not (folder / EVENTS_FILE).exists():
        (folder / EVENTS_FILE).write_text(
            modeline("events")
            + f"# The event log of {_comment(name)}. `cok` appends one event at a time; to undo one,\n"
            "# record a void (`cok void ID --reason …`) rather than editing what is here.\n",
            encoding="utf-8",
        )
    (folder / ".gitattributes").write_text(f"{EVENTS_FILE} merge=cok\n", encoding="utf-8")
    (folder / ".gitignore").write_text(f".{EVENTS_FILE}.lock\n.{EVENTS_FILE}.pending\n", encoding="utf-8")
    return name, entry


def _settings_text(settings: dict[str, object]) -> str:
    """campaign.yaml's keys a line each, as people write them (a short list or mapping on its
    key's line): PyYAML writes a mapping of plain values on one flow line otherwise."""
    text = yaml.safe_dump(settings, sort_keys=False, allow_unicode=True, default_flow_style=None)
    if text.startswith("{"):
        text = yaml.safe_dump(settings, sort_keys=False, allow_unicode=True, default_flow_style=False)
    return text


def _comment(text: str) -> str:
    """Text for a YAML comment: one line, no control characters (a line break would end the
    comment and turn the rest into YAML)."""
    return " ".join("".join(ch if ch.isprintable() else " " for ch in text).split())


def _write_schemas(folder: Path, ruleset: Ruleset) -> None:
    target = folder / SCHEMA_DIR
    target.mkdir(exist_ok=True)
    for kind in KINDS:
        (target / f"{kind}.schema.json").write_text(
            json.dumps(schema(kind, ruleset), indent=2) + "\n", encoding="utf-8"
        )
