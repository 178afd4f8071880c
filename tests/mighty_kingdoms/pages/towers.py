"""A small Mighty Kingdoms campaign with a wizard's tower in reach, made by `cok mk` commands
as a table would type them (docs/mighty-kingdoms.md 5.3, 5.7): the small test map
(tests/mighty_kingdoms/game.py) with `advanced: [wizards-towers]`; in month 1 ana-1 explores
the Ford (0,0) and rolls a double, then a double again: a wizard's tower, next to ana's city
(-1,0). Five quiet months later (every army defends) the organiser opens winter, where a
quest is recorded."""

from __future__ import annotations

import re
from pathlib import Path

from typer.testing import CliRunner

from cok.main import app

from ..game import EAST, MAP_TEXT, WEST

TOWER = "0,0"


def cok(folder: Path, *args: str) -> str:
    """One `cok` command in the campaign; it must succeed."""
    result = CliRunner().invoke(app, [*args, "-C", str(folder)], catch_exceptions=False)
    assert result.exit_code == 0, f"cok {' '.join(args)}: {result.stdout}{result.stderr}"
    return result.stdout


def _kingdom(player: str, at: dict[str, object]) -> list[str]:
    villages = [str(v) for v in at["villages"]]  # type: ignore[attr-defined]
    where = ["--capital", str(at["capital"]), "--city", str(at["city"]), "--fortress", str(at["fortress"])]
    return ["mk", "kingdom", player, "--race", "elves", *where, "--villages", *villages, "--army", str(at["city"])]


def _month(folder: Path, first: bool) -> None:
    """A month of summer: ana-1 explores the Ford in the first (a tower), else every army defends."""
    cok(folder, "mk", "order", "ana-1", *(("move", TOWER) if first else ("defend",)))
    cok(folder, "mk", "order", "bo-1", "defend")
    if first:
        cok(folder, "mk", "resolve", "ana-1", "--roll", "2", "2", "--reroll", "3", "3")
    else:
        cok(folder, "mk", "resolve", "ana-1")
    cok(folder, "mk", "resolve", "bo-1")
    cok(folder, "mk", "reform", "--order", "ana,bo")  # one army each: tied


def towered(folder: Path) -> Path:
    """The campaign made in `folder`, in winter after the tower's summer."""
    folder.mkdir(parents=True)
    (folder / "map.yaml").write_text(MAP_TEXT)
    (folder / "campaign.yaml").write_text(
        "name: Towers\nruleset: mighty-kingdoms\nmap: map.yaml\nadvanced: [wizards-towers]\n"
    )
    (folder / "events.yaml").write_text("")
    cok(folder, *_kingdom("ana", WEST))
    cok(folder, *_kingdom("bo", EAST))
    cok(folder, "mk", "begin", "--order", "ana,bo")
    for month in range(6):
        _month(folder, month == 0)
    cok(folder, "mk", "winter")
    return folder


def last_event(folder: Path) -> dict[str, object]:
    """The log's last event, without what the ledger adds (id, time, recorder)."""
    import yaml

    events = yaml.safe_load((folder / "events.yaml").read_text())
    return {k: v for k, v in events[-1].items() if k not in ("id", "at", "by")}


def count(folder: Path) -> int:
    return len(re.findall(r"^- ", (folder / "events.yaml").read_text(), re.M))
