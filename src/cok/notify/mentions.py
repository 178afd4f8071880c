"""The chat handle a nudge mentions a player by (`cok invite tim --mention '<@1234>'`),
kept with the campaign's notify data in the user data folder, never in the campaign."""

from __future__ import annotations

from pathlib import Path

from cok.core.folders import write_private
from cok.notify.home import campaign_home, read_json


def _file(folder: Path) -> Path:
    return campaign_home(folder) / "mentions.json"


def mentions(folder: Path) -> dict[str, str]:
    data = read_json(_file(folder))
    return {str(k): str(v) for k, v in data.items()} if isinstance(data, dict) else {}


def mention(folder: Path, name: str, handle: str) -> None:
    """Tim is mentioned as `handle` from now on (an empty handle: by his name)."""
    kept = mentions(folder)
    if handle:
        kept[name] = handle
    else:
        kept.pop(name, None)
    write_private(_file(folder), kept)
