"""Setup (contract 5.1): founding kingdoms, and `begin`."""

from __future__ import annotations

from cok.core.errors import RuleError
from cok.core.names import find
from cok.rulesets.mighty_kingdoms.events import Begin, Kingdom
from cok.rulesets.mighty_kingdoms.rules.outcomes import Begun, Founded
from cok.rulesets.mighty_kingdoms.rules.state import Army, State
from cok.rulesets.mighty_kingdoms.rules.state import Kingdom as KingdomState


def find_player(state: State, typed: str) -> str:
    """A kingdom's id from its id or display name, typed in any case."""
    found = state.player_named(typed)  # indexed: the rules look kingdoms up at every event
    return found if found is not None else find(typed, state.kingdoms, "kingdom")


def race_id(typed: str) -> str:
    """A race as an id, normalised like faction ids (`Forces of Nature` → forces-of-nature)."""
    return "-".join("".join(ch if ch.isalnum() else " " for ch in typed.casefold()).split())


def list_fields(state: State, army_list: str | None, units: object, what: str) -> None:
    """Kings of War lists: required in a kings-of-war campaign, refused in a simple one (5.8)."""
    if state.settings.kings_of_war:
        if army_list is None:
            raise RuleError(f"a kings-of-war campaign needs the army list's name on {what}: give `list`")
    elif army_list is not None or units is not None:
        raise RuleError(f"`list` and `units` are for kings-of-war campaigns; this one uses simple battles ({what})")


def found(state: State, event: Kingdom) -> Founded:
    if state.year != 0:
        raise RuleError("kingdoms are founded in setup, and setup is over (the begin event is recorded)")
    if event.player in state.kingdoms:
        raise RuleError(f"{event.player} has already founded a kingdom")
    if event.player == "draw":
        raise RuleError("'draw' is a battle result, not a player id: choose another id")
    hexmap = state.map
    capital = hexmap.find(event.capital)
    if not hexmap.tiles[capital].start:
        starts = [hexmap.label(t) for t, tile in hexmap.tiles.items() if tile.start and t not in state.control]
        raise RuleError(f"{hexmap.label(capital)} is not a start tile; free start tiles: {', '.join(starts) or 'none'}")
    if capital in state.control:
        raise RuleError(f"{hexmap.label(capital)} is already held by {state.control[capital]}")
    around = hexmap.neighbours(capital)
    placed = {
        "city": hexmap.find(event.city),
        "fortress": hexmap.find(event.fortress),
        "village 1": hexmap.find(event.villages[0]),
        "village 2": hexmap.find(event.villages[1]),
    }
    if len(set(placed.values())) != 4:
        raise RuleError("the city, the fortress and the two villages go on four different tiles")
    for what, tile in placed.items():
        if tile not in around:
            raise RuleError(
                f"the {what.split()[0]} must be next to the capital {hexmap.label(capital)}; "
                f"{hexmap.label(tile)} is not (neighbours: {', '.join(around)})"
            )
        if tile in state.control:
            raise RuleError(f"{hexmap.label(tile)} is already held by {state.control[tile]}")
    army_tile = hexmap.find(event.army)
    if army_tile not in (capital, *placed.values()):
        raise RuleError(f"the first army stands on one of the kingdom's settlements, not {hexmap.label(army_tile)}")
    list_fields(state, event.list, event.units, "kingdom")
    # decided: commit
    others = [t for t in around if t not in state.control and t not in placed.values()]
    settlements = {capital: "capital", **{tile: what.split()[0] for what, tile in placed.items()}}
    for tile, kind in settlements.items():
        state.settlement[tile] = kind
    tiles = (capital, *placed.values(), *others)
    for tile in tiles:
        state.control[tile] = event.player
        state.explored.add(tile)
    state.kingdoms[event.player] = KingdomState(
        id=event.player,
        name=event.name or event.player,
        race=race_id(event.race),
        capital=capital,
        founded=len(state.kingdoms),
        list=event.list,
    )
    army_id = f"{event.player}-1"
    state.add_army(
        Army(army_id, event.player, army_tile, list=event.list, units=dict(event.units) if event.units else None)
    )
    state.order.append(event.player)
    return Founded(event.player, capital, tiles, army_id, army_tile)


def begin(state: State, event: Begin) -> Begun:
    if state.year != 0:
        raise RuleError("the campaign has already begun")
    if len(state.kingdoms) < 2:
        raise RuleError(
            f"the campaign begins with at least two kingdoms (a battle needs an enemy); founded: {len(state.kingdoms)}"
        )
    founding = list(state.kingdoms)
    if event.order is not None and list(event.order) != founding:
        raise RuleError(
            f"`order` is the founding order (setup step B): {', '.join(founding)}; "
            "found the kingdoms in the order the table rolled"
        )
    state.year, state.month = 1, 1
    state.order = founding
    return Begun(tuple(founding))
