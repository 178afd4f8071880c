"""Decided once, opened once (issue #45): every reading command opens its campaign once
and asks it everything - `cok check` its problems, its dice still waiting and its results'
marks; `cok standings` its table and its results' marks. `cok check --no-cache` replayed
the whole log three times (1.85 s where the release before took 0.74 s at 10,000 events),
a warm `cok standings` opened the campaign twice."""

from __future__ import annotations

import json
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


def test_a_warm_command_asks_the_campaign_whether_its_log_mentions_a_dispute_not_the_log(
    example: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Known from the bytes the campaign was made from, and kept in the cache with it: a
    warm `cok standings` at 100,000 events searched the 20 MB log for it."""
    from cok.service import confirming

    cok = Cok(example)
    assert cok("standings").exit_code == 0  # the cache written, knowing there is no dispute
    fought = ("battle", "tim", "matt", "--at", "Ghost Hill", "--vp", "tim=7", "--vp", "matt=5")
    assert cok(*fought, env={"COK_BY": "tim"}).exit_code == 0
    hornwood = json.loads(cok("log", "--json").stdout)["events"][-1]["id"]
    assert cok("dispute", hornwood, "--reason", "over points", env={"COK_BY": "matt"}).exit_code == 0

    def never(log: Path) -> bool:
        raise AssertionError(f"{log} searched again")

    monkeypatch.setattr(confirming, "mentions_dispute", never)
    for args in (("standings",), ("standings",), ("check",), ("log",)):  # grown, then warm
        assert f"disputed: {hornwood}" in cok(*args).stdout or args == ("log",)
    assert "disputed by matt" in cok("log").stdout
    marks = [
        confirming.marking(c) for c in (opening.open_campaign(example), opening.open_campaign(example, use_cache=False))
    ]
    assert marks == [True, True]
