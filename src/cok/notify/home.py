"""Where a campaign's chat destinations and outbox live: the user data folder, beside the
personal links, never in the campaign folder that git tracks."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from cok.core.folders import data_dir


def campaign_home(folder: Path) -> Path:
    """This campaign's folder in the user data folder, named as its links are: by its identity
    (`id:` in campaign.yaml, so it follows the campaign when its folder moves), else by its
    path; one named by the path before the campaign had an identity is still found."""
    from cok.links.invites import key

    by_path = data_dir() / "notify" / hashlib.sha256(str(Path(folder).resolve()).encode()).hexdigest()[:24]
    named = data_dir() / "notify" / key(Path(folder))
    return by_path if not named.exists() and by_path.exists() else named


def read_json(path: Path) -> Any:
    """The file's data, or None when it is missing or unreadable."""
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def organisers(folder: Path) -> list[str]:
    """The organisers with a link (`cok invite --organiser NAME`): whom a dispute's nudge names."""
    from cok.links.invites import links

    try:
        return sorted({k.name for k in links(Path(folder)) if k.organiser})
    except Exception:  # the links unreadable: the nudge names "an organiser"
        return []
