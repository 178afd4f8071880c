"""Creating a campaign folder (`cok init`)."""

from __future__ import annotations

import json
import os
from importlib import resources
from pathlib import Path

import yaml

from cok.errors import Refused
from cok.folders import EVENTS_FILE, SETTINGS_FILE
from cok.mapfile import load_map
from cok.schemas import KINDS, SCHEMA_DIR, modeline, schema

MAP_COPY = "map.yaml"


def builtin_map() -> Path:
    """The shipped Westeros map: packaged in the wheel, or beside the source in a checkout."""
    packaged = resources.files("cok").joinpath("data/westeros.yaml")
    if packaged.is_file():
        return Path(str(packaged))
    checkout = Path(__file__).resolve().parents[2] / "maps" / "westeros.yaml"
    if checkout.is_file():
        return checkout
    raise Refused("the built-in Westeros map is missing from this installation; give --map PATH")


def init_campaign(folder: Path, map_path: Path | None, name: str | None) -> tuple[str, str]:
    """Create campaign.yaml and an empty events.yaml. Without --map the campaign gets its
    own copy of the Westeros map, so that the map it is replayed on never changes under it.
    Returns the campaign's name and its map entry."""
    if (folder / SETTINGS_FILE).exists():
        raise Refused(f"{folder} already holds a campaign ({SETTINGS_FILE} exists)")
    source = map_path or builtin_map()
    geo = load_map(source)  # refuse a broken map before creating anything
    name = name or folder.resolve().name.replace("-", " ").replace("_", " ").title()
    folder.mkdir(parents=True, exist_ok=True)
    _write_schemas(folder)
    if map_path is None:
        (folder / MAP_COPY).write_text(modeline("map") + source.read_text(encoding="utf-8"), encoding="utf-8")
        entry = MAP_COPY
    else:
        entry = os.path.relpath(map_path.resolve(), folder.resolve())
    settings = {"name": name, "map": entry, "points": {"start": 20, "step": 3}}
    (folder / SETTINGS_FILE).write_text(
        modeline("campaign")
        + f"# {name}: campaign settings (map {geo.name}).\n"
        + yaml.safe_dump(settings, sort_keys=False, allow_unicode=True, default_flow_style=None),
        encoding="utf-8",
    )
    if not (folder / EVENTS_FILE).exists():
        (folder / EVENTS_FILE).write_text(
            modeline("events") + f"# The event log of {name}. `cok` appends one event at a time; to undo one,\n"
            "# record a void (`cok void ID --reason …`) rather than editing what is here.\n",
            encoding="utf-8",
        )
    (folder / ".gitattributes").write_text(f"{EVENTS_FILE} merge=cok\n", encoding="utf-8")
    (folder / ".gitignore").write_text(f".{EVENTS_FILE}.lock\n.{EVENTS_FILE}.pending\n", encoding="utf-8")
    return name, entry


def _write_schemas(folder: Path) -> None:
    target = folder / SCHEMA_DIR
    target.mkdir(exist_ok=True)
    for kind in KINDS:
        (target / f"{kind}.schema.json").write_text(json.dumps(schema(kind), indent=2) + "\n", encoding="utf-8")
