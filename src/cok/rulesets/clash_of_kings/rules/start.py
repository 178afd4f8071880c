"""Getting Started: a player's starting castle, or three territories when none is free."""

from __future__ import annotations

from cok.core.errors import ChoiceNeeded, RuleError
from cok.rulesets.clash_of_kings.events import Join
from cok.rulesets.clash_of_kings.rules.outcomes import Joined
from cok.rulesets.clash_of_kings.rules.state import State

#: The factions of A Song of Ice and Fire: Tabletop Miniatures Game.
FACTIONS = (
    "stark",
    "lannister",
    "baratheon",
    "targaryen",
    "greyjoy",
    "martell",
    "nights-watch",
    "free-folk",
    "bolton",
    "brotherhood",
    "neutral",
)


def known_factions(state: State) -> list[str]:
    """The TMG factions, any faction the map gives a seat to, and the campaign's own
    (campaign.yaml's `factions:`): nothing else, so a typo never makes a new faction."""
    homes = [h for loc in state.geo.locations.values() for h in loc.home]
    return list(dict.fromkeys([*FACTIONS, *homes, *state.settings.factions]))


def free_castles(state: State) -> list[str]:
    return [c for c in state.geo.castles() if c not in state.holder]


def _free_castles(state: State) -> str:
    return ", ".join(free_castles(state)) or "none"


def decide_join(state: State, event: Join) -> Joined:
    """Starting castle: the named one, else the faction's traditional home when free;
    "No more castles!": three adjacent unoccupied territories when every castle is taken."""
    if event.player in state.players:
        raise RuleError(f"{event.player} has already joined the campaign")
    faction = event.faction  # the faction's id: `rules/spelling.py` made it so
    geo = state.geo
    if event.territories is not None:
        return Joined(
            event.player,
            event.name or event.player,
            faction,
            state.week,
            _three_territories(state, event.territories),
            "three territories",
        )
    if event.castle is not None:
        castle = event.castle
        if geo.kind(castle) != "castle":
            raise RuleError(f"{castle} is a {geo.kind(castle)}, not a castle; free castles: {_free_castles(state)}")
        if castle in state.holder:
            raise RuleError(f"{castle} is already held by {state.holder[castle]}; free castles: {_free_castles(state)}")
        return Joined(event.player, event.name or event.player, faction, state.week, (castle,), "named castle")
    if all(c in state.holder for c in geo.castles()):
        raise RuleError("every castle is held: give `territories` — three unoccupied, adjacent locations")
    homes = [c for c in geo.castles() if faction in geo.locations[c].home]
    free_homes = [c for c in homes if c not in state.holder]
    logged = ""
    if state.week > 1:  # "joining the campaign after it's begun": the organiser gives options
        why = (
            f"{event.player} joins in week {state.week}: only players joining at the very beginning get their "
            "faction's home castle; a later player is given options by the organiser"
        )
        logged = "A join recorded before cok applied this: void it (`cok void {ref}`), record it again with a castle. "
    elif free_homes:
        return Joined(event.player, event.name or event.player, faction, state.week, (free_homes[0],), "home castle")
    elif homes:
        why = f"the home of {faction}, {' and '.join(homes)}, is held by {state.holder[homes[0]]}"
    else:
        why = f"no castle on the map is the home of {faction}"
    # the free castles are listed once: by the command line with its options, by the log here
    need = ChoiceNeeded(f"{why}; a free `castle` must be chosen", "castle", free_castles(state))
    need.logged = logged + f"The free castles: {_free_castles(state)}"
    raise need


def _three_territories(state: State, typed: list[str]) -> tuple[str, ...]:
    geo = state.geo
    held = [c for c in geo.castles() if c not in state.holder]
    if held:
        raise RuleError(
            "three territories are only for when every castle is held; "
            f"choose a `castle` from the free castles: {', '.join(held)}"
        )
    if len(typed) != 3:
        raise RuleError(f"`territories` must name exactly three locations, not {len(typed)}")
    names = list(typed)
    if len(set(names)) != 3:
        raise RuleError("the three territories must be three different locations")
    for name in names:
        if geo.locations[name].is_region:
            raise RuleError(f"{name} is a region, and regions cannot be occupied")
        if name in state.holder:
            raise RuleError(f"{name} is already held by {state.holder[name]}")
    if not geo.connected(names):
        raise RuleError(
            f"{', '.join(names)} are not connected to each other by adjacency; choose three locations that link up"
        )
    return tuple(names)
