"""Where the year stands (contract section 3): the phase, whose turn it is, and what the
ledger waits for next. Everything here is derived from the state, never stored."""

from __future__ import annotations

import itertools
from typing import Any

from cok.core.errors import RuleError
from cok.rulesets.mighty_kingdoms.rules.state import ROOM, Army, State


def phase(state: State) -> str:
    """setup, orders, resolution, battles, reform, winter or deploy."""
    if state.year == 0:
        return "setup"
    if state.winter:
        return "deploy" if state.winter_begun and state.fed >= set(state.kingdoms) else "winter"
    if state.unordered():
        return "orders"
    if state.unresolved():
        return "resolution"
    attackers = state.attackers()
    if any(p in attackers for p in state.order):
        return "battles"
    return "reform"


def season(state: State) -> str | None:
    if state.year == 0:
        return None
    return "winter" if state.winter else "summer"


def next_round_the_table(state: State, after: str | None, has_something: Any) -> str | None:
    """The next player after `after` in player order (wrapping round) for whom
    `has_something(player)` holds; from the first player when nobody has acted yet."""
    order = state.order
    start = (order.index(after) + 1) if after in order else 0
    for i in range(len(order)):
        player = order[(start + i) % len(order)]
        if has_something(player):
            return player
    return None


def resolver(state: State) -> str | None:
    """Whose turn it is to resolve an order (5.3: round the table, skipping the done)."""
    return next_round_the_table(state, state.last_resolver, state.has_unresolved)


def attacker(state: State) -> str | None:
    """Who chooses the next battle (5.4: round the table, skipping who has no tile)."""
    return next_round_the_table(state, state.last_attacker, state.attackers().__contains__)


def room_left(state: State, tile: str, player: str) -> int:
    """How many more of `player`'s armies may deploy on the tile this winter (5.6 step 6)."""
    if state.control.get(tile) != player:
        return 0
    kind = state.settlement_for(tile, player)
    if kind is None:
        return 0
    return max(0, ROOM[kind] - len(state.armies_in(tile)))


def could_deploy(state: State, army: Army) -> bool:
    player = army.player
    return any(p == player and room_left(state, t, player) > 0 for t, p in state.control.items())


def waiting_for(state: State) -> list[dict[str, Any]]:
    """What the ledger waits for next, most pressing first (`cok mk status`)."""
    now = phase(state)
    if now == "setup":
        if len(state.kingdoms) < 2:
            return [{"what": "kingdom", "needed": 2 - len(state.kingdoms)}]
        return [{"what": "begin"}]
    if now == "orders":
        return [{"what": "order", "army": a.id} for p in state.order for a in state.armies_of(p) if a.order is None]
    if now == "resolution":
        player = resolver(state)
        armies = [a.id for a in state.armies_of(player or "") if not a.resolved]
        return [{"what": "resolve", "player": player, "armies": armies}]
    if now == "battles":
        player = attacker(state)
        return [{"what": "battle", "attacker": player, "tiles": state.may_attack(player or "")}]
    if now == "reform":
        return [{"what": "reform", "order_needed": bool(ties(state))}]
    if now == "winter":
        if not state.winter_begun:
            return [{"what": "winter", "recall_needed": recall_needed(state)}]
        return [{"what": "feed", "player": p} for p in state.order if p not in state.fed]
    undeployed = [a for p in state.order for a in state.armies_of(p) if not a.deployed and could_deploy(state, a)]
    if undeployed:
        return [{"what": "deploy", "army": a.id} for a in undeployed]
    return [{"what": "spring", "order_needed": bool(ties(state, state.deploy_counts))}]


def recall_needed(state: State) -> list[str]:
    """Kingdoms that must name where their armies go at recall (5.8 Recall)."""
    return [
        p
        for p in state.order
        if not state.has_capital(p) and state.armies_of(p) and (state.count(p, "city") or state.count(p, "village"))
    ]


def counts(state: State) -> dict[str, int]:
    return {p: len(state.armies_of(p)) for p in state.order}


def ties(state: State, armies: dict[str, int] | None = None) -> list[list[str]]:
    """Groups of players tied on armies (the roll-off decides their places)."""
    by_count: dict[int, list[str]] = {}
    for player, n in (armies if armies is not None else counts(state)).items():
        by_count.setdefault(n, []).append(player)
    return [group for group in by_count.values() if len(group) > 1]


def new_order(state: State, given: list[str] | None, armies: dict[str, int] | None = None) -> list[str]:
    """Player order by armies, most first (Reform step 5); `given` is the roll-off's order,
    required when players are tied and refused when nobody is."""
    armies = armies if armies is not None else counts(state)
    tied = ties(state, armies)
    by_armies = sorted(state.order, key=lambda p: -armies.get(p, 0))
    if not tied:
        if given is not None:
            raise RuleError(
                "no players are tied on armies, so there is no roll-off: drop `order` "
                f"(the order is {', '.join(by_armies)})"
            )
        return by_armies
    described = "; ".join(" and ".join(group) + f" have {armies[group[0]]}" for group in tied)
    if given is None:
        raise RuleError(f"players are tied on armies ({described}): give the roll-off's order with `order`")
    if sorted(given) != sorted(state.order) or len(set(given)) != len(given):
        raise RuleError(f"`order` must list every player once: {', '.join(state.order)}")
    for earlier, later in itertools.pairwise(given):
        if armies.get(earlier, 0) < armies.get(later, 0):
            raise RuleError(
                f"`order` puts {earlier} ({armies.get(earlier, 0)} armies) before {later} "
                f"({armies.get(later, 0)}): most armies go first ({described})"
            )
    return list(given)
