"""A Mighty Kingdoms campaign for the server's tests: the small test map (tests/mighty_kingdoms/
game.py), ana in the west and bo in the east, month 1 begun, and a link for each and for the
organiser."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from cok.links import invites
from cok.service import Draft, Who, record

from ..game import EAST, MAP_TEXT, WEST

ORGANISER = Who("Ann", organiser=True)


def kingdom(player: str, at: dict[str, Any], kings_of_war: bool = False) -> Draft:
    units = {"list": f"{player} 500", "units": {"Spearmen": 2}} if kings_of_war else {}
    return Draft("kingdom", {"player": player, "race": "elves", "army": at["city"], **at, **units})


def begun(folder: Path, kings_of_war: bool = False) -> dict[str, str]:
    """The campaign made in `folder`; the links' tokens by name (ana, bo, Ann the organiser)."""
    folder.mkdir(parents=True)
    (folder / "map.yaml").write_text(MAP_TEXT)
    battles = "battles: kings-of-war\n" if kings_of_war else ""
    (folder / "campaign.yaml").write_text(f"name: Hexes\nruleset: mighty-kingdoms\nmap: map.yaml\n{battles}")
    (folder / "events.yaml").write_text("")
    tokens = {name: invites.invite(folder, name) for name in ("ana", "bo")}
    tokens["Ann"] = invites.invite(folder, "Ann", organiser=True)
    for draft in (kingdom("ana", WEST, kings_of_war), kingdom("bo", EAST, kings_of_war), Draft("begin")):
        record(folder, [draft], by=ORGANISER)
    return tokens
