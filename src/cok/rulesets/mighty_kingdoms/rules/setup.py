"""Setup (contract 5.1): founding kingdoms, and `begin`."""

from __future__ import annotations

from cok.core.errors import RuleError
from cok.rulesets.mighty_kingdoms.events import Begin, Kingdom
from cok.rulesets.mighty_kingdoms.rules.outcomes import Begun, Founded
from cok.rulesets.mighty_kingdoms.rules.spelling import player
from cok.rulesets.mighty_kingdoms.rules.state import Army, State
from cok.rulesets.mighty_kingdoms.rules.state import Kingdom as KingdomState

#: A kingdom's id from its id or display name in any case: the spelling step's finder, by the
#: name the queries and the Ruleset's `player` know it.
find_player = player


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


def decide_kingdom(state: State, event: Kingdom) -> Founded:
    """5.1: a capital on a free start tile, a city, a fortress and two villages next to it, and
    the first army on one of them. Changes nothing."""
    if state.year != 0:
        raise RuleError("kingdoms are founded in setup, and setup is over (the begin event is recorded)")
    if event.player in state.kingdoms:
        raise RuleError(f"{event.player} has already founded a kingdom")
    if event.player == "draw":
        raise RuleError("'draw' is a battle result, not a player id: choose another id")
    hexmap = state.map
    capital = event.capital
    if not hexmap.tiles[capital].start:
        starts = [hexmap.label(t) for t, tile in hexmap.tiles.items() if tile.start and t not in state.control]
        raise RuleError(f"{hexmap.label(capital)} is not a start tile; free start tiles: {', '.join(starts) or 'none'}")
    if capital in state.control:
        raise RuleError(f"{hexmap.label(capital)} is already held by {state.control[capital]}")
    around = hexmap.neighbours(capital)
    placed = {
        "city": event.city,
        "fortress": event.fortress,
        "village 1": event.villages[0],
        "village 2": event.villages[1],
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
    army_tile = event.army
    if army_tile not in (capital, *placed.values()):
        raise RuleError(f"the first army stands on one of the kingdom's settlements, not {hexmap.label(army_tile)}")
    list_fields(state, event.list, event.units, "kingdom")
    others = [t for t in around if t not in state.control and t not in placed.values()]
    settlements = ((capital, "capital"), *((tile, what.split()[0]) for what, tile in placed.items()))
    return Founded(
        event.player,
        capital,
        (capital, *placed.values(), *others),
        f"{event.player}-1",
        army_tile,
        name=event.name or event.player,
        race=race_id(event.race),
        settlements=settlements,
        list=event.list,
        units=tuple(event.units.items()) if event.units else None,
    )


def commit_founded(outcome: Founded, state: State) -> None:
    for tile, kind in outcome.settlements:
        state.settlement[tile] = kind
    for tile in outcome.tiles:
        state.control[tile] = outcome.player
        state.explored.add(tile)
    state.kingdoms[outcome.player] = KingdomState(
        id=outcome.player,
        name=outcome.name,
        race=outcome.race,
        capital=outcome.capital,
        founded=len(state.kingdoms),
        list=outcome.list,
    )
    units = dict(outcome.units) if outcome.units else None
    state.add_army(Army(outcome.army, outcome.player, outcome.army_tile, list=outcome.list, units=units))
    state.order.append(outcome.player)


def decide_begin(state: State, event: Begin) -> Begun:
    """Setup closes with two kingdoms or more; the order is the founding order (step B)."""
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
    return Begun(tuple(founding))


def commit_begun(outcome: Begun, state: State) -> None:
    state.year, state.month = 1, 1
    state.order = list(outcome.order)
