"""What happened, in sentences for `cok log`, the site and the summaries."""

from __future__ import annotations

from typing import Any

from cok.core.events import EventBase
from cok.rulesets.mighty_kingdoms.rules import outcomes as o
from cok.rulesets.mighty_kingdoms.rules.state import State


def _n(count: int, word: str, words: str | None = None) -> str:
    """`1 tile`, `2 tiles`; `words` for a plural that is not just an s (`dice`, `armies`)."""
    return f"{count} {word}" if count == 1 else f"{count} {words or word + 's'}"


def _and(items: list[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def _goods(gold: int, food: int) -> str:
    """What a tithe gives or a building costs: its gold and food, the nil ones left out."""
    return _and([w for w in (f"{gold} gold" if gold else "", f"{food} food" if food else "") if w])


def tell(state: State, outcome: Any) -> str:
    """The outcome in a sentence (state: just after the event)."""
    place = state.map.label
    name = _namer(state)
    match outcome:
        case o.Founded():
            return (
                f"{name(outcome.player)} founds a kingdom with its capital at {place(outcome.capital)} "
                f"({_n(len(outcome.tiles), 'tile')}); army {outcome.army} stands at {place(outcome.army_tile)}"
            )
        case o.Begun():
            return f"The campaign begins: year 1, month 1; player order {', '.join(outcome.order)}"
        case o.Ordered():
            target = f" to {place(outcome.to)}" if outcome.to else ""
            if outcome.order == "raze" and outcome.army in state.armies:  # what the raze will take
                tile = state.armies[outcome.army].tile
                target = f" the {state.settlement.get(tile, 'settlement')} at {place(tile)}"
            return f"{outcome.army} is ordered to {outcome.order}{target}"
        case o.Resolved():
            return _resolved(state, outcome)
        case o.Fought():
            return _fought(state, outcome)
        case o.Reformed():
            parts = [f"Month {outcome.month} of year {outcome.year} ends"]
            if outcome.slowed:
                parts.append(f"slowed by terrain: {', '.join(outcome.slowed)}")
            if outcome.taken:
                parts.append("control: " + ", ".join(f"{place(t)} to {name(k)}" for t, k in outcome.taken))
            if outcome.units_lost:
                parts.append("units lost: " + ", ".join(f"{u} of {a}" for a, u in outcome.units_lost))
            if outcome.armies_lost:
                parts.append("armies lost: " + ", ".join(outcome.armies_lost))
            parts.append(f"player order {', '.join(outcome.order)}")
            if outcome.winter:
                parts.append("winter comes")
            return "; ".join(parts)
        case o.WinterBegun():
            gathered = ", ".join(f"{name(k)} {g} gold {f} food" for k, g, f in outcome.gathered)
            text = f"Winter of year {outcome.year}: armies recalled; gathered: {gathered}"
            if outcome.recalled:
                text += "; recalled to " + ", ".join(f"{place(t)} ({name(k)})" for k, t in outcome.recalled)
            if outcome.lost:
                text += f"; lost with nowhere to winter: {', '.join(outcome.lost)}"
            return text
        case o.Tithed():
            gift = _goods(outcome.gold, outcome.food)
            return f"{name(outcome.giver)} tithes {gift} to {name(outcome.receiver)}"
        case o.Built():
            was = f" (was {outcome.was})" if outcome.was else ""
            cost = _goods(outcome.gold, outcome.food)
            return f"{name(outcome.player)} builds a {outcome.settlement} at {place(outcome.tile)}{was} for {cost}"
        case o.Recruited():
            allied = "an allied army" if outcome.allied else "a new army"
            text = f"{name(outcome.player)} recruits {allied}, {outcome.army}, at {place(outcome.tile)} for 1 gold"
            return text + (f", disbanding {outcome.disbanded}" if outcome.disbanded else "")
        case o.Fed():
            text = f"{name(outcome.player)} feeds {_n(outcome.fed, 'army', 'armies')}"
            if outcome.unfed:
                text += f"; unfed and removed: {', '.join(outcome.unfed)}"
            if outcome.deploy_order:
                text += f"; deploying begins, player order {', '.join(outcome.deploy_order)}"
            return text
        case o.Deployed():
            return f"{outcome.army} deploys at {place(outcome.tile)}"
        case o.Sprung():
            text = f"Spring: year {outcome.year}, month 1 begins; player order {', '.join(outcome.order)}"
            return text + (f"; lost for want of room: {', '.join(outcome.lost)}" if outcome.lost else "")
        case o.Quested():
            return _quested(state, outcome)
        case o.Handed():
            what = outcome.artefact + (f" ({outcome.name})" if outcome.name else "")
            if outcome.receiver == "pool":
                return f"{what} is lost by {name(outcome.giver)} and goes back to the pool"
            text = f"{what} passes from {name(outcome.giver)} to {name(outcome.receiver)}"
            if outcome.cause is not None:
                kind, tile = outcome.cause
                how = "won the battle at" if kind == "battle" else f"took {name(outcome.giver)}'s capital at"
                text += f" ({name(outcome.receiver)} {how} {place(tile)})"
            if outcome.override is not None:
                text += f"; the organiser: {outcome.override}"
            return text
    return str(outcome)


def _namer(state: State) -> Any:
    def name(player: str) -> str:
        kingdom = state.kingdoms.get(player)
        return kingdom.name if kingdom else player

    return name


def _rolled(dice: tuple[int, ...]) -> str:
    """The exploration's dice in words: ` (2D6: 6+3)`, ` (2D6: 4+4, then 2+2)`."""
    if len(dice) < 2:
        return ""
    then = f", then {dice[2]}+{dice[3]}" if len(dice) == 4 else ""
    return f" (2D6: {dice[0]}+{dice[1]}{then})"


def _resolved(state: State, r: o.Resolved) -> str:
    place = state.map.label
    if r.order == "defend":
        return f"{r.army} defends {place(r.tile)}"
    if r.order == "regroup":
        return f"{r.army} regroups and stands upright at {place(r.tile)}"
    if r.order == "raze":
        if r.razed:
            whose = f" ({r.capital_of}'s capital)" if r.capital_of else ""
            return f"{r.army} razes the {r.razed}{whose} at {place(r.tile)}"
        if r.failed:
            return f"{r.army}'s raze at {place(r.tile)} fails: an enemy army is there"
        return f"{r.army} finds nothing left to raze at {place(r.tile)}"
    rolled = _rolled(r.dice)
    if r.explored == "tower":
        return f"{r.army} finds a wizard's tower{rolled} and is pushed back to {place(r.origin)}"
    if r.failed:
        return f"{r.army} cannot enter the wizard's tower and stays at {place(r.origin)}"
    if r.explored:
        found = "nothing" if r.explored == "empty" else f"a {r.explored}"
        return f"{r.army} explores {place(r.tile)}{rolled} and finds {found}; it is {_owner(state, r.tile)}'s now"
    if r.taken_from is not None:
        holder = state.kingdoms[r.taken_from].name if r.taken_from in state.kingdoms else r.taken_from
        return f"{r.army} moves to {place(r.tile)}, taking it from {holder}"
    if r.took:
        return f"{r.army} moves to {place(r.tile)}, which {_owner(state, r.tile)} controls"
    return f"{r.army} moves to {place(r.tile)}, facing an enemy there"


def _owner(state: State, tile: str) -> str:
    holder = state.control.get(tile)
    return state.kingdoms[holder].name if holder in state.kingdoms else "nobody"


def _fought(state: State, f: o.Fought) -> str:
    place = state.map.label
    if f.slaughtered:
        return f"{f.attacker} slaughters {f.slaughtered} of {f.defender} at {place(f.tile)}, on its side"
    hits = sum(1 for h in f.hits if h.hit)
    head = f"Battle at {place(f.tile)}, {f.attacker} attacking {f.defender}: "
    head += f"{f.winner} wins" if f.winner else "a draw"
    parts = [f"{head}: {f.why}"]
    if f.hits:
        parts.append(f"{_n(hits, 'hit')} of {_n(len(f.hits), 'die', 'dice')}")
    if f.destroyed:
        parts.append(f"destroyed: {', '.join(f.destroyed)}")
    if f.retreats:
        parts.append("retreat: " + ", ".join(f"{a} to {place(t)}" for a, t in f.retreats))
    if f.advance:
        parts.append(f"{f.advance[0]} advances to {place(f.advance[1])}")
    if f.strength:
        parts.append("Unit Strength: " + ", ".join(f"{u} of {a} {c:+d}" for a, u, c in f.strength))
    parts.append(f"{place(f.tile)} is held by {f.holder or 'nobody'}")
    return "; ".join(parts)


def _quested(state: State, q: o.Quested) -> str:
    hero = f"{q.hero} of {q.army}" if q.army else q.hero
    plus = f" + {q.bonus} for {q.hero_points} points = {q.total}" if q.hero_points else ""
    roll = f"roll {q.roll}{plus}"
    head = f"{q.player}'s hero {hero} goes on a quest to the tower at {state.map.label(q.tower)}; {roll}: "
    if q.result == "lost":
        tail = "the hero fails to return"
    elif q.result == "hurt":
        tail = "the hero returns badly hurt (−1 Unit Strength)"
    elif q.result == "nothing":
        tail = "the hero returns empty-handed"
    else:
        band = "a rare artefact" if q.points == "rare" else f"an artefact of {q.points} points"
        tail = f"the hero brings back {band}, {q.artefact}"
    if q.army_lost:
        tail += f"; {q.army} has no unit left and is removed"
    return head + tail


def untold(state: State, event: EventBase) -> str:
    """A voided event, which the rules never applied, in a few words."""
    fields = event.model_dump(mode="json", exclude_none=True, exclude={"id", "at", "by", "note", "type"})
    shown = ", ".join(f"{k} {v}" for k, v in fields.items() if v not in ([], {}, False))
    return f"{event.type} ({shown})" if shown else event.type


def when(state: State) -> str:
    """`Year 1, month 3 of summer`, `The winter of year 2` or `Setup` (the map's title too)."""
    if not state.year:
        return "Setup"
    if state.winter:
        return f"The winter of year {state.year}"
    return f"Year {state.year}, month {state.month} of summer"
