"""A summer month (contract 5.2, 5.3, 5.5): orders, their resolution, and Reform."""

from __future__ import annotations

from cok.core.errors import RuleError
from cok.core.names import did_you_mean
from cok.rulesets.mighty_kingdoms.events import Order, Reform, Resolve
from cok.rulesets.mighty_kingdoms.rules import phase as phases
from cok.rulesets.mighty_kingdoms.rules.outcomes import Ordered, Reformed, Resolved
from cok.rulesets.mighty_kingdoms.rules.state import Army, State

#: The exploration table (2D6), section 5.3.
EXPLORATION = {2: None, 3: None, 4: None, 5: None, 6: None, 7: None, 8: "village", 9: "village", 10: "city"}


def explored_settlement(total: int) -> str | None:
    return EXPLORATION.get(total, "fortress")


def find_army(state: State, typed: str) -> Army:
    """The army of this id, looked up exactly (the events' models take army ids only)."""
    army = state.armies.get(typed)
    if army is None:
        known = list(state.armies)
        raise RuleError(f"there is no army {typed!r}{did_you_mean(typed, known)}; armies: {', '.join(known) or 'none'}")
    return army


def in_phase(state: State, wanted: str, what: str) -> None:
    """An event of another phase is refused, naming the phase and what the ledger waits for."""
    now = phases.phase(state)
    if now != wanted:
        raise RuleError(f"{what} belongs to the {wanted} phase, but the campaign is in {describe(state)}")


def describe(state: State) -> str:
    """`month 3 of year 1, orders phase: waiting for an order for ana-2, bo-1`."""
    now = phases.phase(state)
    if now == "setup":
        where = "setup"
    elif state.winter:
        where = f"the winter of year {state.year}, {now} phase"
    else:
        where = f"month {state.month} of year {state.year}, {now} phase"
    return f"{where}: waiting for {waiting_words(state)}"


def waiting_words(state: State) -> str:
    items = phases.waiting_for(state)
    first = items[0]
    what = first["what"]
    if what == "kingdom":
        needed = first["needed"]
        return f"{needed} more {'kingdom' if needed == 1 else 'kingdoms'} to be founded"
    if what == "order":
        return "an order for " + ", ".join(i["army"] for i in items)
    if what == "resolve":
        return f"{first['player']} to resolve one of {', '.join(first['armies'])}"
    if what == "battle":
        return f"{first['attacker']} to choose a battle in {', '.join(first['tiles'])}"
    if what == "feed":
        first_steps = "builds and recruits" if state.tithing_over else "tithes, builds and recruits"
        return "the feeding of " + ", ".join(i["player"] for i in items) + f" ({first_steps} first)"
    if what == "deploy":
        return "the deployment of " + ", ".join(i["army"] for i in items)
    if first.get("order_needed"):
        return f"the organiser's {what} event, with the roll-off's order of the players tied on armies"
    return f"the organiser's {what} event"


def decide_order(state: State, event: Order) -> Ordered:
    """5.2: one order an army a month; on its side it may only regroup, raze needs a
    settlement, a move an enterable neighbour. Changes nothing."""
    in_phase(state, "orders", "an order")
    army = find_army(state, event.army)
    if army.order is not None:
        raise RuleError(f"{army.id} already has its order this month ({army.order}); {_void_words(army)}")
    hexmap = state.map
    target = None
    if not army.upright and event.order != "regroup":
        raise RuleError(f"{army.id} is on its side: it may only regroup")
    if army.upright and event.order == "regroup":
        raise RuleError(f"{army.id} is upright: only an army on its side regroups")
    if event.order == "raze" and army.tile not in state.settlement:
        raise RuleError(f"{army.id} stands on {hexmap.label(army.tile)}, which has no settlement to raze")
    if event.order == "move":
        assert event.to is not None
        target = event.to
        if target in state.towers:
            raise RuleError(f"{hexmap.label(target)} is a wizard's tower: no army may enter it")
        if not hexmap.may_enter(army.tile, target):
            raise RuleError(
                f"{army.id} cannot move from {hexmap.label(army.tile)} to {hexmap.label(target)}: "
                + _why_not(state, army.tile, target)
            )
    return Ordered(army.id, event.order, target, event_id=event.id)


def _void_words(army: Army) -> str:
    """How to change an order: void the event that gave it, named as `cok void` takes it."""
    if army.order_id is None:  # written by hand without an id: `cok log` names it
        return "void its order event to change it (`cok log` shows how to name it)"
    return f"void it to change it: `cok void {army.order_id} --reason WHY`"


def commit_ordered(outcome: Ordered, state: State) -> None:
    army = state.armies[outcome.army]
    state.give_order(army, outcome.order, outcome.to, outcome.event_id)


def _why_not(state: State, origin: str, target: str) -> str:
    hexmap = state.map
    if target not in hexmap.neighbours(origin):
        enterable = [hexmap.label(t) for t in hexmap.neighbours(origin) if hexmap.may_enter(origin, t)]
        return "it is not a neighbour; moves go to " + (", ".join(enterable) or "no tile")
    if hexmap.tiles[target].marsh:
        return "armies never move into a marsh"
    return "the edge between them is water"


def decide_resolve(state: State, event: Resolve) -> Resolved:
    """5.3: orders resolve round the table; a move into an unexplored tile rolls on the
    exploration table, into a controlled one takes it unless an enemy is there; a raze burns
    the settlement unless an enemy is there. Changes nothing."""
    in_phase(state, "resolution", "resolving an order")
    army = find_army(state, event.army)
    if army.resolved:
        raise RuleError(f"{army.id}'s order is already resolved this month")
    turn = phases.resolver(state)
    if army.player != turn:
        mine = [a.id for a in state.armies_of(turn or "") if not a.resolved]
        raise RuleError(f"it is {turn}'s turn to resolve an order ({', '.join(mine)}), not {army.player}'s")
    towers = state.settings.towers
    if event.reroll is not None and not towers:
        raise RuleError("`reroll` is for the wizards-towers rule, which this campaign does not use")
    exploring = army.order == "move" and army.to not in state.explored
    if army.order == "move" and army.to in state.towers:
        exploring = False  # became a tower earlier this month: no roll, the army stays (5.8)
    if not exploring and (event.roll is not None or event.reroll is not None):
        what = (
            f"moves into {state.map.label(army.to or '')}, which is explored"
            if army.order == "move"
            else f"has a {army.order} order"
        )
        raise RuleError(f"{army.id} {what}: it explores nothing, so it takes no roll")
    if exploring:
        if event.roll is None:
            raise RuleError(f"{army.id} moves into unexplored {state.map.label(army.to or '')}: give the 2D6 `roll`")
        double = event.roll[0] == event.roll[1]
        if towers and double and event.reroll is None:
            raise RuleError(
                f"a double ({event.roll[0]}, {event.roll[1]}) with wizard's towers: give the second 2D6 `reroll`"
            )
        if event.reroll is not None and not double:
            raise RuleError("`reroll` follows a double, and the roll is not one")
    origin = army.tile
    if army.order in ("defend", "regroup"):
        return Resolved(army.id, army.order or "", origin, origin)
    if army.order == "raze":
        return _raze(state, army)
    target = army.to or origin
    if target in state.towers:
        return Resolved(army.id, "move", origin, origin, failed=True)
    if exploring:
        assert event.roll is not None
        dice = (*event.roll, *(event.reroll or ()))
        if event.reroll is not None and event.reroll[0] == event.reroll[1]:
            return Resolved(army.id, "move", origin, origin, explored="tower", failed=True, dice=dice)
        found = explored_settlement(sum(event.roll))
        return Resolved(army.id, "move", origin, target, explored=found or "empty", took=True, dice=dice)
    took = not state.kingdoms_in(target) - {army.player}
    holder = state.control.get(target)
    taken_from = holder if took and holder not in (None, army.player) else None
    return Resolved(army.id, "move", origin, target, took=took, taken_from=taken_from)


def _raze(state: State, army: Army) -> Resolved:
    tile = army.tile
    kind = state.settlement.get(tile)
    if kind is None:  # already gone when it resolves (5.8)
        return Resolved(army.id, "raze", tile, tile)
    if state.kingdoms_in(tile) - {army.player}:
        return Resolved(army.id, "raze", tile, tile, failed=True)  # "the Raze fails with no effect"
    owner = next((k.id for k in state.kingdoms.values() if k.capital == tile), None) if kind == "capital" else None
    return Resolved(army.id, "raze", tile, tile, razed=kind, capital_of=owner)


def commit_resolved(outcome: Resolved, state: State) -> None:
    army = state.armies[outcome.army]
    target = army.to
    state.last_resolver = army.player
    state.resolve_order(army)
    if outcome.order == "defend":
        army.defending = True
    elif outcome.order == "regroup":
        army.upright = True
    elif outcome.razed is not None:
        del state.settlement[outcome.tile]
        if outcome.capital_of is not None:
            state.kingdoms[outcome.capital_of].capital = None
    if outcome.explored is not None and target is not None:
        state.explored.add(target)
        if outcome.explored == "tower":
            state.towers.add(target)
        elif outcome.explored != "empty":
            state.settlement[target] = outcome.explored
    if outcome.tile != outcome.origin:
        state.move_army(army, outcome.tile)
        army.slowed = state.map.slows(outcome.origin, outcome.tile)
    if outcome.took:
        state.take(outcome.tile, army.player)


def decide_reform(state: State, event: Reform) -> Reformed:
    """5.5: armies slowed by terrain laid on their side, tiles of one kingdom's armies taken,
    weakened units lost, the new player order. Changes nothing."""
    in_phase(state, "reform", "the reform event")
    lost_units, lost_armies = weakened(state)
    new_order = phases.new_order(state, event.order, reformed_counts(state, lost_armies))
    slowed = [a.id for a in state.armies.values() if a.order == "move" and a.slowed]
    taken = []
    for tile in sorted(state.occupied()):  # an army not deployed is on no tile (none are in summer)
        kingdoms = state.kingdoms_in(tile)
        if len(kingdoms) == 1:
            (holder,) = kingdoms
            if state.control.get(tile) != holder:
                taken.append((tile, holder))
    return Reformed(
        state.month,
        state.year,
        tuple(slowed),
        tuple(taken),
        tuple(lost_units),
        tuple(lost_armies),
        tuple(new_order),
        state.month == 6,
    )


def reformed_counts(state: State, lost: list[str] | None = None) -> dict[str, int]:
    """Each kingdom's armies once Reform step 4 has removed the armies left with no unit: the
    counts step 5 orders the players by (and a roll-off settles their ties)."""
    counts = phases.counts(state)
    for army_id in lost if lost is not None else weakened(state)[1]:
        counts[state.armies[army_id].player] -= 1
    return counts


def commit_reformed(outcome: Reformed, state: State) -> None:
    for army_id in outcome.slowed:
        state.armies[army_id].upright = False
    state.new_month()
    for tile, holder in outcome.taken:
        state.take(tile, holder)
    for army_id, unit in outcome.units_lost:
        army = state.armies[army_id]
        if army.units is not None:
            army.units.pop(unit, None)
            army.changes.pop(unit, None)
    for army_id in outcome.armies_lost:
        state.remove_army(army_id)
    state.order = list(outcome.order)
    state.last_resolver = state.last_attacker = None
    if outcome.winter:
        state.winter, state.month = True, 0
    else:
        state.month += 1


def weakened(state: State, armies: list[Army] | None = None) -> tuple[list[tuple[str, str]], list[str]]:
    """Reform step 4: units at −2 Unit Strength or worse, and the armies left with no unit."""
    if not state.settings.kings_of_war:
        return [], []
    lost_units: list[tuple[str, str]] = []
    lost_armies: list[str] = []
    for army in armies if armies is not None else state.armies.values():
        if army.units is None:
            continue
        gone = [u for u in army.units if army.strength(u) <= -2]
        lost_units += [(army.id, u) for u in gone]
        if gone and len(gone) == len(army.units):
            lost_armies.append(army.id)
    return lost_units, lost_armies
