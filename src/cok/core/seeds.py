"""Where an unrevealed dice seed waits for its period to end: the user's data folder
($COK_DATA_DIR moves it), one file per commitment named by its SHA-256, readable by this user
only — never the campaign folder, which git tracks and the players read. It survives a
restart; losing it loses only the verification of that period's dice (docs/dice.md)."""

from __future__ import annotations

import json
from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cok.core.errors import Refused
from cok.core.folders import data_dir, write_private


@dataclass
class Kept:
    """A seed this machine holds: its commitment (the dice-commit's id once written), the
    period, and the entropy first sent for each roll not recorded yet (by what it is for)."""

    sha256: str
    seed: str
    campaign: str
    commit: str | None = None
    period: str = ""
    pinned: dict[str, str] = field(default_factory=dict)
    used: bool = False  # a roll made with it is in the log: it is revealed when the period ends


def _folder() -> Path:
    return data_dir() / "dice-seeds"


def _file(sha256: str) -> Path:
    return _folder() / f"{sha256}.json"


def campaign_key(folder: Path) -> str:
    return str(folder.resolve())


def keep(kept: Kept) -> None:
    """Written whole to a new file readable by this user only, then moved over the old one."""
    data: dict[str, Any] = {
        k: getattr(kept, k) for k in ("sha256", "seed", "campaign", "commit", "period", "pinned", "used")
    }
    write_private(_file(kept.sha256), data, sync=True)


def held(folder: Path) -> list[Kept]:
    """The seeds this machine holds for the campaign in `folder` whose commitment is in its
    log (usually none or one: a glance at a small folder, no reading of the log)."""
    key, found = campaign_key(folder), []
    try:
        paths = sorted(_folder().glob("*.json"))
    except (OSError, Refused):  # no data folder here: no seed held (a roll says why it cannot commit)
        return []
    for path in paths:
        kept = _read(path)
        if kept is not None and kept.campaign == key and kept.commit:
            found.append(kept)
    return found


def find(sha256: str) -> Kept | None:
    return _read(_file(sha256))


def _read(path: Path) -> Kept | None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        pinned = {str(k): str(v) for k, v in dict(data.get("pinned") or {}).items()}
        commit = data.get("commit")
        return Kept(
            str(data["sha256"]),
            str(data["seed"]),
            str(data["campaign"]),
            str(commit) if commit else None,
            str(data.get("period", "")),
            pinned,
            bool(data.get("used", False)),
        )
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None


def forget(sha256: str) -> None:
    """The seed is in the log now (revealed), or its commitment never was: nothing to keep."""
    with suppress(OSError):
        _file(sha256).unlink()
