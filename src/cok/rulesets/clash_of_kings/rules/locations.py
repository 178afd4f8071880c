"""Where can we fight? The legal battle locations for an attacker and a defender."""

from __future__ import annotations

from cok.rulesets.clash_of_kings.rules.state import State

#: The steps of "Where can we fight?" and "No Eligible Location!", in order.
STEPS = (
    "adjacent-to-attacker",
    "adjacent-to-defender",
    "any-unoccupied",
    "defender-village",
    "defender-fort",
    "defender-castle",
)


def legal_locations(state: State, attacker: str, defender: str) -> tuple[str, list[str]]:
    """The first non-empty step: adjacent to the attacker, else adjacent to the defender,
    else any unoccupied location, else the defender's villages, forts, then castles.

    Excluded everywhere: regions, the attacker's own locations, and locations held by a
    player who is not in the battle (the source's Salt Shore example)."""
    geo = state.geo
    holder = state.holder

    def allowed(loc: str) -> bool:  # reach() never holds a region
        who = holder.get(loc)
        return who is None or who == defender

    near_attacker = sorted(loc for loc in geo.reach(state.territories(attacker)) if allowed(loc))
    if near_attacker:
        return "adjacent-to-attacker", near_attacker
    near_defender = sorted(loc for loc in geo.reach(state.territories(defender)) if allowed(loc))
    if near_defender:
        return "adjacent-to-defender", near_defender
    free = sorted(state.free())
    if free:
        return "any-unoccupied", free
    defenders = state.territories(defender)
    for kind in ("village", "fort", "castle"):
        mine = sorted(loc for loc in defenders if geo.kind(loc) == kind)
        if mine:
            return f"defender-{kind}", mine
    return "none", []


def any_location(state: State) -> list[str]:
    """Both fight as the Brotherhood: there is no attacker, any non-region location will do."""
    return sorted(state.geo.holdable())


def listed(state: State, *, free: bool = False, held_by: str | None = None) -> list[str]:
    """The locations `cok locations` lists, in the map's order: `free` ones are held by no
    one (a region is never held: it is never free either); `held_by` a player's holdings."""
    names = list(state.geo.locations)
    if free:
        names = [n for n in names if n not in state.holder and not state.geo.locations[n].is_region]
    if held_by is not None:
        names = [n for n in names if state.holder.get(n) == held_by]
    return names
