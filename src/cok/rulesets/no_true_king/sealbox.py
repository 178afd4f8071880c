"""Where `cok ntk seal` keeps a player's secret: the user's data folder (platformdirs), or
$COK_DATA_DIR — never the campaign folder, which the other players read (§4.6)."""

from __future__ import annotations

import json
import os
import secrets
from pathlib import Path

from cok.core.folders import data_dir

SECRET_BYTES = 24  # 48 hex characters: well over the 16 the contract asks


def new_secret() -> str:
    return secrets.token_hex(SECRET_BYTES)


def _file(seal: str) -> Path:
    return data_dir() / "ntk-seals" / f"{seal}.json"


def keep(seal: str, player: str, card: list[str], secret: str) -> Path:
    """Store the card and secret under the seal, readable by this user only."""
    path = _file(seal)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        json.dump({"player": player, "loyalty": card, "secret": secret}, handle)
        handle.write("\n")
    return path


def find(seal: str) -> tuple[list[str], str] | None:
    """The card and secret kept for this seal, if this machine made it."""
    try:
        data = json.loads(_file(seal).read_text(encoding="utf-8"))
        return [str(h) for h in data["loyalty"]], str(data["secret"])
    except (OSError, ValueError, KeyError, TypeError):
        return None
