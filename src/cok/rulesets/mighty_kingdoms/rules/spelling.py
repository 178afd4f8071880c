"""Names as people type them become the map's and the campaign's own here, and only here: the
one step every event takes before the rules decide it (`rules/apply.py`'s `decide`), and the
one that builds what the log holds (`intents.py`). A tile is named by its name, matched like
location names, or as `q,r`, and "the ledger always writes the quoted form" (contract §1): the
tile's `"q,r"`; a kingdom by its id or its display name in any case, written as its id. A log
written by hand in another spelling (`mereside`, `CYRUS`) still folds: its events are made
exact here first, as an upcast makes an old shape today's. After this step the rules look
names up exactly (`state.map.tiles[tile]`, `state.kingdoms[player]`).

What it spells: every tile an event gives (a kingdom's capital, city, fortress, villages and
army; an order's `to`; a battle's tile, retreats and advance; winter's recalls; a build's,
recruit's and deploy's tile; a quest's tower), every kingdom it names (`player`, `attacker`,
`defender`, a battle's `result`, winter's recalls, a tithe's `from` and `to`, an artefact's
`to`), a quest's hero (the unit's name in its army's list, or the hero's spelling when it has
quested this winter) and its artefact (a held artefact's name, which the rules refuse: artefacts
are unique). Army and artefact ids are exact already: the events' models take nothing else."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from cok.core.errors import RuleError
from cok.core.events import EventBase, amended
from cok.core.names import normalize, spelled_by, unknown
from cok.rulesets.mighty_kingdoms.events import (
    Artefact,
    Battle,
    Build,
    Deploy,
    Feed,
    Kingdom,
    Order,
    Quest,
    Recruit,
    Tithe,
    Winter,
)
from cok.rulesets.mighty_kingdoms.rules.state import State


def spelled(state: State, event: EventBase) -> EventBase:
    """The event in the game's own spelling (`spelled_by`, by this module's `_SPELL`)."""
    return spelled_by(_SPELL, state, event)


def player(state: State, typed: str) -> str:
    """A kingdom's id from its id or display name, typed in any case (`CYRUS` -> cy); the
    first founded when two kingdoms share a name, as the rules have always read it."""
    found = state.kingdom_names(normalize).get(normalize(typed))  # indexed: asked at every event
    if found is None:
        raise RuleError(unknown(typed, state.kingdoms, "kingdom"))
    return found


def tile(state: State, typed: str) -> str:
    """A tile's `"q,r"` from its name in any spelling or its `q,r` (`mereside` -> "-1,1")."""
    return state.map.find(typed)


def _kingdom(state: State, event: Kingdom) -> EventBase:
    find = state.map.find
    tiles = {k: find(getattr(event, k)) for k in ("capital", "city", "fortress")}
    return amended(event, {**tiles, "villages": [find(v) for v in event.villages], "army": find(event.army)})


def _order(state: State, event: Order) -> EventBase:
    if event.to is None or event.to in state.map.tiles:  # a month's many orders: most say "q,r"
        return event
    return amended(event, {"to": tile(state, event.to)})


def _battle(state: State, event: Battle) -> EventBase:
    changes: dict[str, Any] = {
        "tile": tile(state, event.tile),
        "attacker": player(state, event.attacker),
        "defender": player(state, event.defender),
    }
    if event.result is not None and event.result != "draw":
        changes["result"] = player(state, event.result)
    if event.retreat:
        changes["retreat"] = {army: tile(state, t) for army, t in event.retreat.items()}
    if event.advance:
        changes["advance"] = {army: tile(state, t) for army, t in event.advance.items()}
    return amended(event, changes)


def _winter(state: State, event: Winter) -> EventBase:
    if not event.recall:
        return event
    return amended(event, {"recall": {player(state, p): tile(state, t) for p, t in event.recall.items()}})


def _tithe(state: State, event: Tithe) -> EventBase:
    return amended(event, {"from_": player(state, event.from_), "to": player(state, event.to)})


def _on_a_tile(state: State, event: Build | Recruit) -> EventBase:
    return amended(event, {"player": player(state, event.player), "tile": tile(state, event.tile)})


def _feed(state: State, event: Feed) -> EventBase:
    return amended(event, {"player": player(state, event.player)})


def _deploy(state: State, event: Deploy) -> EventBase:
    return event if event.tile in state.map.tiles else amended(event, {"tile": tile(state, event.tile)})


def _quest(state: State, event: Quest) -> EventBase:
    pid = player(state, event.player)
    army = state.armies.get(event.army) if event.army is not None else None
    who = army.id if army is not None else pid
    sent = [hero for by, hero in state.heroes if by == who]  # this winter's, as first written
    units = (army.units or {}) if army is not None else {}
    changes = {"player": pid, "tower": tile(state, event.tower), "hero": _same_name(event.hero, [*sent, *units])}
    if event.artefact is not None:
        held = [a.name for a in state.artefacts.values() if a.holder != "pool" and a.name]
        changes["artefact"] = _same_name(event.artefact, held)
    return amended(event, changes)


def _same_name(typed: str, known: Iterable[str]) -> str:
    """The known name `typed` stands for, however it was typed; else `typed` (a new name)."""
    key = normalize(typed)
    return next((name for name in known if normalize(name) == key), typed)


def _artefact(state: State, event: Artefact) -> EventBase:
    return event if event.to == "pool" else amended(event, {"to": player(state, event.to)})


#: The events that name a tile, a kingdom, a hero or an artefact: each made exact by its function.
_SPELL: dict[type[EventBase], Callable[[State, Any], EventBase]] = {
    Kingdom: _kingdom,
    Order: _order,
    Battle: _battle,
    Winter: _winter,
    Tithe: _tithe,
    Build: _on_a_tile,
    Recruit: _on_a_tile,
    Feed: _feed,
    Deploy: _deploy,
    Quest: _quest,
    Artefact: _artefact,
}
