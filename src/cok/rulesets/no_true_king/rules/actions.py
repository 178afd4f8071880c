"""The three actions of an agent for its house H (contract §4.3): muster, move, draw. The
combat a move may start is in `combat`."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from cok.core.errors import RuleError
from cok.core.text import counted
from cok.rulesets.no_true_king.events import Move, ShipTo
from cok.rulesets.no_true_king.rules.outcomes import Counts as Counts
from cok.rulesets.no_true_king.rules.outcomes import Drew, Moved, Mustered
from cok.rulesets.no_true_king.rules.state import Realm


def muster_points(state: Realm, house: str) -> int:
    """The barrels of the land areas H controls (§4.3 Muster)."""
    return sum(state.board.areas[a].barrels for a in state.controlled(house))


def muster(state: Realm, house: str, spec: dict[str, list[Any]]) -> Mustered:
    """Add footmen and ships, then promote footmen (§4.7 Muster); refuses any broken limit."""
    board = state.board
    points = muster_points(state, house)
    footmen: list[str] = []
    ships: list[tuple[str, str]] = []
    promoted: list[str] = []
    for typed, items in spec.items():
        if typed == "promote":
            for name in items:
                if not isinstance(name, str):
                    raise RuleError("`promote` lists the areas where a footman becomes a knight")
                promoted.append(name)
            continue
        area = typed
        if board.areas[area].sea:
            raise RuleError(f"muster through {area}: troops are added through land areas (a ship names its sea)")
        if state.controller(area) != house:
            raise RuleError(f"muster through {area}: {house} does not control it")
        through = 0
        for given in items:
            item = ShipTo.model_validate(given) if isinstance(given, dict) else given
            if item == "footman":
                footmen.append(area)
            elif isinstance(item, ShipTo):
                sea = item.ship
                _ship_to(state, house, area, sea)
                ships.append((area, sea))
            else:
                raise RuleError(f"muster through {area}: add `footman` or `ship: SEA`, not {item!r}")
            through += 1
        if through > board.areas[area].barrels:
            raise RuleError(
                f"muster through {area}: {through} pieces added, but it has "
                f"{counted(board.areas[area].barrels, 'barrel', 'barrels')}"
            )
    used = len(footmen) + len(ships) + len(promoted)
    if used > points:
        have = counted(points, "muster point", "muster points")
        raise RuleError(f"{house} has {have} (its barrels), and this muster spends {used}")
    for area in footmen:
        f, k, s = state.force(area, house)
        state.set_force(area, house, (f + 1, k, s))
    for _, sea in ships:
        f, k, s = state.force(sea, house)
        state.set_force(sea, house, (f, k, s + 1))
    _within_limits(state, house, ("footman", "ship"))
    for area in promoted:
        f, k, s = state.force(area, house)
        if f < 1:
            raise RuleError(f"promote in {area}: {house} has no footman there to make a knight")
        state.set_force(area, house, (f - 1, k + 1, s))
    _within_limits(state, house, ("knight",))
    return Mustered(house, tuple(footmen), tuple(ships), tuple(promoted), points)


def _ship_to(state: Realm, house: str, through: str, sea: str) -> None:
    board = state.board
    if not board.areas[sea].sea:
        raise RuleError(f"a ship mustered through {through} goes to a sea area, not {sea}")
    if not board.borders_on(through, sea):
        raise RuleError(f"a ship mustered through {through} goes to a sea bordering it; {sea} does not")
    holder = state.troops.get(sea)
    if holder is not None and holder[0] != house:
        raise RuleError(
            f"a mustered ship never goes to a sea holding {holder[0]}'s ships ({sea}): no combat in a muster"
        )


def _within_limits(state: Realm, house: str, kinds: Iterable[str]) -> None:
    totals = dict(zip(("footman", "knight", "ship"), state.on_board(house), strict=True))
    for kind in kinds:
        limit = state.board.pieces[kind]
        if totals[kind] > limit:
            many = {"footman": "footmen"}.get(kind, kind + "s")
            raise RuleError(f"{house} would have {totals[kind]} {many} on the board; the box holds {limit}")


def counts_of(units: list[str]) -> Counts:
    return units.count("footman"), units.count("knight"), units.count("ship")


def check_move(state: Realm, house: str, origin: str, to: str, units: Counts) -> str | None:
    """Why the move is not allowed (None: it is). A move into another house's troops is allowed
    (it is a combat); carrying is checked as if the group arrived alone there."""
    board = state.board
    if not board.borders_on(origin, to):
        return f"{origin} does not border {to}"
    if not any(units):
        return "a move moves at least one piece"
    have = state.force(origin, house)
    if any(n > h for n, h in zip(units, have, strict=True)):
        return f"{house} has {_describe(have)} in {origin}, not {_describe(units)}"
    f, k, s = units
    if s and not board.areas[to].sea:
        return f"ships sail only at sea, not into {to}"
    if board.areas[origin].sea:
        left = (have[0] - f, have[1] - k, have[2] - s)
        if left[0] + left[1] > left[2]:
            return f"the move would leave {house}'s footmen or knights in {origin} without a ship for each"
    if board.areas[to].sea:
        holder = state.troops.get(to)
        there = state.force(to, house) if holder is None or holder[0] == house else (0, 0, 0)
        if there[0] + f + there[1] + k > there[2] + s:
            return f"{house} has too few ships in {to} to carry them (each ship carries one footman or knight)"
    return None


def enters_troops(state: Realm, house: str, to: str) -> str | None:
    """The house whose troops are in `to`, when it is not `house` (a combat)."""
    holder = state.troops.get(to)
    return holder[0] if holder is not None and holder[0] != house else None


def take_out(state: Realm, house: str, origin: str, units: Counts) -> bool:
    """Take the units out of `origin`; leave H's flag when the last troop leaves a land area."""
    have = state.force(origin, house)
    left = (have[0] - units[0], have[1] - units[1], have[2] - units[2])
    state.set_force(origin, house, left)
    if not any(left) and not state.board.areas[origin].sea:
        state.flags[origin] = house
        return True
    return False


def put_in(state: Realm, house: str, area: str, units: Counts) -> None:
    """Units arrive in an area without a combat: another house's flag there is removed."""
    if state.flags.get(area, house) != house:
        del state.flags[area]
    have = state.force(area, house)
    state.set_force(area, house, (have[0] + units[0], have[1] + units[1], have[2] + units[2]))


def move_without_combat(state: Realm, house: str, move: Move) -> Moved:
    origin, to = move.from_, move.to
    units = counts_of(list(move.units))
    why = check_move(state, house, origin, to, units)
    if why:
        raise RuleError(f"move {origin} → {to}: {why}")
    flag = take_out(state, house, origin, units)
    put_in(state, house, to, units)
    return Moved(house, origin, to, units, flag)


def has_legal_move(state: Realm, house: str) -> bool:
    """Whether H could move at least one piece anywhere (§4.7 Actions left out)."""
    for area, force in state.troops.items():
        if force[0] != house:
            continue
        _, f, k, s = force
        for to in state.board.neighbours(area):
            for units in _groups(f, k, s):
                if check_move(state, house, area, to, units) is None:
                    return True
    return False


def _groups(f: int, k: int, s: int) -> Iterable[Counts]:
    """Every non-empty group of the given troops, small ones first."""
    for total in range(1, f + k + s + 1):
        for ns in range(min(s, total) + 1):
            for nk in range(min(k, total - ns) + 1):
                nf = total - ns - nk
                if nf <= f:
                    yield nf, nk, ns


def draw(state: Realm, player: str, house: str) -> Drew:
    """Take one card of H, while H has cards not yet drawn (§4.3 Draw)."""
    if not can_draw(state, house):
        raise RuleError(f"{house} has no card left to draw (all {state.board.deck_size(house)} drawn)")
    state.drawn[house] = state.drawn.get(house, 0) + 1
    state.held[(player, house)] = state.held.get((player, house), 0) + 1
    return Drew(player, house)


def can_draw(state: Realm, house: str) -> bool:
    return state.drawn.get(house, 0) < state.board.deck_size(house)


def _describe(units: Counts) -> str:
    names = (("footman", "footmen"), ("knight", "knights"), ("ship", "ships"))
    parts = [f"{n} {one if n == 1 else many}" for n, (one, many) in zip(units, names, strict=True) if n]
    return ", ".join(parts) or "nothing"


describe_units = _describe
