"""Names as people type them become the map's and the campaign's own ids here, and only here:
the one step every event takes before the rules decide it (`rules/apply.py`'s `decide`), and
the one that builds what the log holds (`intents.py`). The contract (§1 "Names on the command
line"): a name matches case-insensitively, ignoring spaces and punctuation, an unknown one is
refused with "did you mean"; "the ledger always writes the map's own spelling into the log".
A log written by hand in another spelling (`vultures roost`, `A Clash of Kings`) still folds:
its events are made exact here first, as an upcast makes an old shape today's. After this
step the rules look names up exactly (`state.geo.locations[name]`, `state.players[pid]`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from cok.core.errors import RuleError
from cok.core.events import EventBase, amended
from cok.core.names import NameIndex, did_you_mean, find, spelled_by
from cok.rulesets.clash_of_kings.events import Battle, Join
from cok.rulesets.clash_of_kings.rules.start import known_factions
from cok.rulesets.clash_of_kings.rules.state import State


def spelled(state: State, event: EventBase) -> EventBase:
    """The event in the game's own spelling (`spelled_by`, by this module's `_SPELL`)."""
    return spelled_by(_SPELL, state, event)


def player(state: State, typed: str) -> str:
    """A player's id from their id or display name, typed in any case (`TIM`, `Tim Smith`)."""
    return find(typed, state.players, "player", ((p.name, pid) for pid, p in state.players.items()))


def location(state: State, typed: str) -> str:
    """The map's spelling of a location (`vultures roost` -> Vulture's Roost)."""
    return state.geo.find(typed)


def faction(state: State, typed: str) -> str:
    """The faction's id as the map and the log write it (`Night's Watch` -> nights-watch)."""
    known = known_factions(state)
    return typed if typed in known else NameIndex(known, "faction").find(typed)


def mode(state: State, typed: str) -> str:
    """The id of a game mode the campaign allows, typed in any spelling (`A Clash of Kings`)."""
    return listed_mode(typed, state.settings.modes, "this campaign", "allows", " (campaign.yaml's modes: list)")


def listed_mode(typed: str, modes: Sequence[str], who: str, verb: str, where: str = "") -> str:
    """The id of a game mode among `modes`, typed in any spelling: the one mode finder, for a
    battle's mode (the modes the campaign allows) and `cok modes MODE` (the modes it shows);
    else RuleError: "'x' is not a game mode {who} {verb} (did you mean …); it {verb}: …"."""
    if typed in modes:  # the usual case: the log holds the id
        return typed
    allowed = NameIndex(modes, "game mode")
    if typed not in allowed:
        raise RuleError(
            f"{typed!r} is not a game mode {who} {verb}{did_you_mean(typed, modes)}; "
            f"it {verb}: {', '.join(modes)}{where}"
        )
    return allowed.find(typed)


def _join(state: State, event: Join) -> EventBase:
    changes: dict[str, Any] = {"faction": faction(state, event.faction)}
    if event.castle is not None:
        changes["castle"] = location(state, event.castle)
    if event.territories is not None:
        changes["territories"] = [location(state, t) for t in event.territories]
    return amended(event, changes)


def _battle(state: State, event: Battle) -> EventBase:
    changes: dict[str, Any] = {"location": location(state, event.location)}
    if event.mode is not None:
        changes["mode"] = mode(state, event.mode)
    if event.abandon is not None:
        changes["abandon"] = location(state, event.abandon)
    return amended(event, changes)


#: The events that name something other than a player by its id (players are ids in the log:
#: the event's model refuses any other spelling of them).
_SPELL: dict[type[EventBase], Callable[[State, Any], EventBase]] = {
    Join: _join,
    Battle: _battle,
}
