"""Clash of Kings' reads, by name: the one home of each document `cok … --json`, the pages at
the table and `GET /api/<name>` show (`service.queries.read`). Field names are a contract
(docs/clash-of-kings.md): add, never rename or drop."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, cast

from cok.core.errors import RuleError

if TYPE_CHECKING:
    from cok.core.ruleset import Campaign, Query


def flag(value: object) -> bool:
    """`--free` as given: True, or in a query string `1`, `true`, `yes` (`0`, `false`, `no`, empty: off);
    ValueError for anything else (a 400 at the API)."""
    if isinstance(value, str):
        word = value.strip().lower()
        if word in ("", "0", "false", "no", "off"):
            return False
        if word in ("1", "true", "yes", "on"):
            return True
        raise ValueError(f"{value!r} is not yes or no: give 1 or 0")
    return bool(value)


def where(
    campaign: Campaign, players: Sequence[str] | str, attacker: str | None = None, brotherhood: Sequence[str] = ()
) -> dict[str, Any]:
    """`cok where P1 P2 --json`: who attacks, who chooses, and the legal locations."""
    from cok.rulesets.clash_of_kings.documents import where_doc
    from cok.rulesets.clash_of_kings.intents import plan

    if isinstance(players, str):
        players = [p.strip() for p in players.split(",") if p.strip()]
    if isinstance(brotherhood, str):
        brotherhood = [p.strip() for p in brotherhood.split(",") if p.strip()]
    if len(players) != 2:
        raise RuleError("where needs two players: `players` P1 P2")
    state = campaign.state
    return {**where_doc(state, plan(state, players[0], players[1], attacker, list(brotherhood))), **due(campaign)}


def locations(campaign: Campaign, free: bool | str = False, player: str | None = None) -> dict[str, Any]:
    """`cok locations --json`: the map's locations (`free`: held by no one; `player`: theirs)."""
    from cok.rulesets.clash_of_kings.documents import location_doc
    from cok.rulesets.clash_of_kings.rules.locations import listed
    from cok.rulesets.clash_of_kings.rules.spelling import player as find_player

    state = campaign.state
    held_by = find_player(state, player) if player else None
    docs = []
    for n in listed(state, free=flag(free), held_by=held_by):
        loc = state.geo.locations[n]
        docs.append({**location_doc(state, n), "home": list(loc.home), "bonus": loc.bonus})
    return {"locations": docs}


def modes_doc(allowed: Sequence[str] | None, mode: str | None = None) -> dict[str, Any]:
    """`cok modes --json` (every mode, or only those a campaign allows), or one mode in full."""
    from cok.rulesets.clash_of_kings.modes import catalogue, find_mode

    known = catalogue()
    names = list(known)
    house: list[str] = []
    if allowed is not None:
        names = [m for m in names if m in allowed]
        house = [m for m in allowed if m not in known]
    chosen = [known[find_mode(mode, names)]] if mode else [known[m] for m in names]
    docs = [dataclasses.asdict(m) for m in chosen]
    return {"modes": docs, "house_modes": house} if mode is None else docs[0]


def modes(campaign: Campaign, mode: str | None = None) -> dict[str, Any]:
    """`cok modes -C DIR --json`: the modes this campaign allows."""
    allowed = campaign.state.settings.modes
    return modes_doc(list(allowed), mode)


def week(campaign: Campaign) -> dict[str, Any]:
    """`cok week --json`: the week and its points limit, and when the next one is due."""
    state = campaign.state
    return {
        "campaign": campaign.name,
        "week": state.week,
        "points_limit": state.limit,
        "limits": state.limits,
        **due(campaign),
    }


def due(campaign: Campaign) -> dict[str, Any]:
    """What the ledger waits for with its due time (`deadlines:` in campaign.yaml; null:
    none), soonest first, and the players marked absent (docs/deadlines.md)."""
    from cok.core.campaign import Campaign as Opened
    from cok.service.deadlines import absent, pending

    opened = cast(Opened, campaign)  # the one the service opened: its game and its state
    return {"due": [d.document() for d in pending(opened)], "absent": absent(opened)}


def players(campaign: Campaign) -> dict[str, Any]:
    """`GET /api/players`: every player in the order they joined (id, name, faction), the
    choices of the pages' forms; the standings rank them instead."""
    state = campaign.state
    return {"players": [{"id": pid, "name": p.name, "faction": p.faction} for pid, p in state.players.items()]}


def factions(campaign: Campaign) -> dict[str, Any]:
    """`GET /api/factions`: the factions a new player may join as (the TMG's, the map's seats,
    campaign.yaml's `factions:`), the ones `join` accepts."""
    from cok.rulesets.clash_of_kings.rules.start import known_factions

    return {"factions": known_factions(campaign.state)}


QUERIES: dict[str, Query] = {
    "where": where,
    "locations": locations,
    "modes": modes,
    "week": week,
    "players": players,
    "factions": factions,
}
