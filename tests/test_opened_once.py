"""Decided once, opened once (issue #45): every reading command opens its campaign once
and asks it everything - `cok check` its problems, its dice still waiting and its results'
marks; `cok standings` its table and its results' marks. `cok check --no-cache` replayed
the whole log three times (1.85 s where the release before took 0.74 s at 10,000 events),
a warm `cok standings` opened the campaign twice."""

from __future__ import annotations

import shutil
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

import cok.core.campaign as opening

from .conftest import EXAMPLE, ROOT, Cok

MK = ROOT / "campaigns" / "mighty-kingdoms"
NTK = ROOT / "campaigns" / "no-true-king-example"

COMMANDS = [
    (EXAMPLE, ("check",)),
    (EXAMPLE, ("check", "--no-cache")),
    (EXAMPLE, ("standings",)),
    (EXAMPLE, ("standings", "--json")),
    (EXAMPLE, ("standings", "--no-cache")),
    (EXAMPLE, ("log",)),
    (EXAMPLE, ("log", "--json")),
    (EXAMPLE, ("where", "tim", "matt")),
    (EXAMPLE, ("locations", "--json")),
    (MK, ("check", "--no-cache")),
    (MK, ("standings",)),
    (MK, ("mk", "status")),
    (MK, ("mk", "kingdoms")),
    (NTK, ("check", "--no-cache")),
    (NTK, ("standings", "--json")),
    (NTK, ("ntk", "houses")),
]


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    """How often the campaign is opened, and its log replayed, from here on."""
    seen: Counter[str] = Counter()

    def counting(name: str, real: Any) -> Any:
        def call(*args: Any, **kwargs: Any) -> Any:
            seen[name] += 1
            return real(*args, **kwargs)

        return call

    monkeypatch.setattr(opening, "open_campaign", counting("opened", opening.open_campaign))
    monkeypatch.setattr(opening, "replay", counting("replayed", opening.replay))
    return seen


@pytest.mark.parametrize(("source", "args"), COMMANDS, ids=[f"{s.name}: cok {' '.join(a)}" for s, a in COMMANDS])
def test_every_reading_command_opens_its_campaign_once(
    source: Path, args: tuple[str, ...], tmp_path: Path, counted: Counter[str]
) -> None:
    folder = tmp_path / source.name
    shutil.copytree(source, folder)
    cok = Cok(folder)
    assert cok("standings").exit_code == 0  # the cache written: a warm command replays nothing
    counted.clear()
    assert cok(*args).exit_code == 0
    assert counted["opened"] == 1
    assert counted["replayed"] == (1 if "--no-cache" in args else 0)
