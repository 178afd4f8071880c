"""Battles (contract 5.4): who may fight where, the simple battle's dice, the Kings of War
result, and the Results table (loss, draw, win; retreats and the advance)."""

from __future__ import annotations

from typing import NamedTuple

from cok.core.errors import ChoiceNeeded, RuleError
from cok.rulesets.mighty_kingdoms.events import Battle
from cok.rulesets.mighty_kingdoms.rules import phase as phases
from cok.rulesets.mighty_kingdoms.rules.outcomes import Fought, Hit
from cok.rulesets.mighty_kingdoms.rules.state import Army, State
from cok.rulesets.mighty_kingdoms.rules.summer import in_phase

#: Board size by the most upright armies on one side (section 5.4; the source stops at 6).
BOARDS = ((2, "4'×4'"), (3, "5'×4'"), (5, "6'×4'"))


def board_size(armies: int) -> str:
    return next((size for most, size in BOARDS if armies <= most), "8'×4'")


def defence(army: Army) -> int:
    """Simple battles: points ÷ 100, +1 for a `defend` order this month."""
    return army.points // 100 + (1 if army.defending else 0)


class Reckoning(NamedTuple):
    """A simple battle worked out from the dice and the allocations, before anything changes
    (a NamedTuple, like Moves: made at each start for less than a dataclass)."""

    hits: list[Hit]
    points: dict[str, int]  # each involved army's points afterwards
    reduced: dict[str, int]  # points of reduction each kingdom caused


def retreats_from(state: State, army: Army, tile: str) -> list[str]:
    """Where an army leaving the tile may go: an adjacent tile its kingdom controls that a
    move could enter (5.8 Retreat and advance)."""
    hexmap = state.map
    return [
        t
        for t in hexmap.neighbours(tile)
        if state.control.get(t) == army.player and hexmap.may_enter(tile, t) and t not in state.towers
    ]


def check_sides(state: State, tile: str, attacker: str, defender: str) -> None:
    """5.4: the attacker is the next player in turn with a tile to fight in, and the defender
    must have armies there (upright ones, if any enemy there has some)."""
    turn = phases.attacker(state)
    if attacker != turn:
        raise RuleError(
            f"it is {turn}'s turn to choose a battle (in {', '.join(state.may_attack(turn or ''))}), not {attacker}'s"
        )
    if not state.may_attack_in(attacker, tile):
        raise RuleError(
            f"{attacker} has no upright army facing an enemy in {state.map.label(tile)}; "
            f"{attacker} may fight in {', '.join(state.may_attack(attacker))}"
        )
    if attacker == defender:
        raise RuleError("the attacker and the defender are two different kingdoms")
    armies = state.armies_in(tile)
    mine = [a for a in armies if a.player == defender]
    if not mine:
        raise RuleError(f"{defender} has no army in {state.map.label(tile)}")
    upright_enemies = {a.player for a in armies if a.player != attacker and a.upright}
    if upright_enemies and not any(a.upright for a in mine):
        raise RuleError(
            f"{attacker} must choose an enemy with upright armies in {state.map.label(tile)}: "
            f"{', '.join(sorted(upright_enemies))}"
        )


def decide_battle(state: State, event: Battle) -> Fought:
    """5.4: the battle on the tile, by the simple battle's dice or the table's result, and the
    Results table's retreats and advance. Changes nothing."""
    in_phase(state, "battles", "a battle")
    tile, attacker, defender = event.tile, event.attacker, event.defender
    check_sides(state, tile, attacker, defender)
    involved = [a for a in state.armies_in(tile) if a.player in (attacker, defender)]
    theirs = [a for a in involved if a.player == defender]
    if not any(a.upright for a in theirs):
        return _slaughter(state, event, tile, attacker, defender, theirs)
    if event.slaughter is not None:
        raise RuleError(
            f"{defender} has upright armies in {state.map.label(tile)}: a slaughter is only of armies on their side"
        )
    if state.settings.kings_of_war:
        if event.dice is not None or event.allocate is not None:
            raise RuleError("`dice` and `allocate` are for simple battles; this campaign plays Kings of War battles")
        if event.result is None:
            raise RuleError(f"give the result: {attacker}, {defender} or draw")
        winner = _result(state, event.result, attacker, defender)
        _check_strength(event, involved, attacker, defender)
        points = {a.id: a.points for a in involved}
        why = "the table's result" if winner else "a draw at the table"
        dice = Reckoning([], points, {attacker: 0, defender: 0})
    else:
        if event.strength is not None:
            raise RuleError("`strength` is for Kings of War battles; simple battles ignore Unit Strength")
        dice = _roll(state, event, involved, attacker, defender)
        winner, why = _simple_result(dice, involved, attacker, defender)
        if event.result is not None and _result(state, event.result, attacker, defender) != winner:
            raise RuleError(f"the dice give {winner or 'a draw'} ({why}), not {event.result}")
    survivors = [a for a in involved if dice.points[a.id] > 0]
    moves = _results(state, event, tile, survivors, winner, attacker, defender)
    destroyed = [a.id for a in involved if dice.points[a.id] <= 0]
    lost_by_retreat = [a for a, t in moves.retreats.items() if t is None]
    return Fought(
        tile,
        attacker,
        defender,
        winner,
        why,
        tuple(dice.hits),
        tuple(dice.reduced.items()),
        tuple(destroyed + lost_by_retreat),
        tuple((a, t) for a, t in moves.retreats.items() if t is not None),
        tuple(moves.stayed),
        moves.advance,
        winner if winner is not None else state.control.get(tile),
        tuple(_strength_changes(event)),
    )


def commit_fought(outcome: Fought, state: State) -> None:
    """Each hit takes 100 points; the destroyed go, the losers retreat on their side, the
    winner takes the tile (and a cause for artefacts to pass, 5.7) and may advance."""
    state.last_attacker = outcome.attacker
    state.battles += 1
    for hit in outcome.hits:
        if hit.hit:
            state.armies[hit.target].points -= 100
    for army_id, unit, change in outcome.strength:
        changed = state.armies[army_id]
        changed.changes[unit] = changed.changes.get(unit, 0) + change
    for army_id in outcome.destroyed:
        state.remove_army(army_id)
    for army_id, target in outcome.retreats:
        army = state.armies[army_id]
        state.move_army(army, target)
        if outcome.winner is not None:
            army.upright = False
    if outcome.winner is not None and outcome.slaughtered is None:
        loser = outcome.defender if outcome.winner == outcome.attacker else outcome.attacker
        state.causes.setdefault((outcome.winner, loser), ("battle", outcome.tile))
        state.take(outcome.tile, outcome.winner)
    if outcome.advance is not None:
        state.move_army(state.armies[outcome.advance[0]], outcome.advance[1])


def _slaughter(state: State, event: Battle, tile: str, attacker: str, defender: str, theirs: list[Army]) -> Fought:
    """Every defender army on its side: one of them is removed, and that is the whole battle."""
    names = ", ".join(a.id for a in theirs)
    if event.slaughter is None:
        raise RuleError(
            f"every army of {defender} in {state.map.label(tile)} is on its side: no battle is fought; "
            f"name the army slaughtered with `slaughter` ({names})"
        )
    if event.slaughter not in {a.id for a in theirs}:
        raise RuleError(f"the army slaughtered is one of {defender}'s in {state.map.label(tile)}: {names}")
    return Fought(
        tile,
        attacker,
        defender,
        attacker,
        "a slaughter of disordered troops",
        destroyed=(event.slaughter,),
        holder=state.control.get(tile),
        slaughtered=event.slaughter,
    )


def _result(state: State, typed: str, attacker: str, defender: str) -> str | None:
    if typed == "draw":
        return None
    if typed not in (attacker, defender):  # a kingdom's id: the spelling step found it
        raise RuleError(f"the result is {attacker}, {defender} or draw, not {typed}")
    return typed


def _check_strength(event: Battle, involved: list[Army], attacker: str, defender: str) -> None:
    """5.4: Unit Strength changes only for units of upright armies that fought here, and a +1
    only for a unit that routed an enemy unit, which took its −1."""
    by_id = {a.id: a for a in involved}
    gained = {attacker: 0, defender: 0}
    routed = {attacker: 0, defender: 0}
    for army_id, changes in (event.strength or {}).items():
        army = by_id.get(army_id)
        if army is None:
            raise RuleError(f"{army_id} did not fight here; armies in the battle: {', '.join(by_id)}")
        if army.units is not None:
            for unit in changes:
                if unit not in army.units:
                    raise RuleError(f"{army.id} has no unit {unit!r}; its units: {', '.join(army.units)}")
        if not army.upright and any(changes.values()):
            fought = ", ".join(a.id for a in involved if a.upright)
            raise RuleError(
                f"{army.id} is on its side: armies on their side are not brought to the table, so its "
                f"units neither rout nor are routed — drop {army.id} from `strength` "
                f"(the armies that fought: {fought})"
            )
        gained[army.player] += sum(1 for c in changes.values() if c > 0)
        routed[army.player] += sum(1 for c in changes.values() if c < 0)
    for side, other in ((attacker, defender), (defender, attacker)):
        if gained[side] > routed[other]:
            minus = f"to only {routed[other]}" if routed[other] else "to none"
            raise RuleError(
                f"+1 Unit Strength to {gained[side]} of {side}'s units but −1 {minus} of {other}'s: "
                f"a +1 needs an enemy unit it routed, and that unit takes −1 — give each routed unit "
                f"of {other}'s its −1 in `strength`, or drop the extra +1"
            )


def _strength_changes(event: Battle) -> list[tuple[str, str, int]]:
    return [(a, u, c) for a, changes in (event.strength or {}).items() for u, c in changes.items() if c]


def _roll(state: State, event: Battle, involved: list[Army], attacker: str, defender: str) -> Reckoning:
    """Work out a simple battle's allocations in order (turns alternate, attacker first)."""
    upright = {a.id: a for a in involved if a.upright}
    dice = dict(event.dice or {})
    missing = [a for a in upright if a not in dice]
    extra = [a for a in dice if a not in upright]
    if missing or extra:
        parts = []
        if missing:
            parts.append(f"no die for {', '.join(missing)}")
        if extra:
            parts.append(f"{', '.join(extra)} rolls no die (only upright armies in the battle roll)")
        raise RuleError(f"one d6 for each upright army in the battle: {'; '.join(parts)}")
    points = {a.id: a.points for a in involved}
    defences = {a: defence(army) for a, army in upright.items()}
    side = {a.id: a.player for a in involved}
    unused = set(dice)
    reduced = {attacker: 0, defender: 0}
    hits: list[Hit] = []
    plan = list(event.allocate or [])
    turn = attacker

    def usable(player: str) -> bool:
        return any(side[d] == player for d in unused) and any(side[t] != player and points[t] > 0 for t in upright)

    step = 0
    while usable(attacker) or usable(defender):
        if not usable(turn):
            turn = defender if turn == attacker else attacker
            continue
        if step >= len(plan):
            left = sorted(d for d in unused if side[d] == turn)
            targets = sorted(t for t in upright if side[t] != turn and points[t] > 0)
            rolled = ", ".join(f"{a} {n}" for a, n in dice.items())
            done = "".join(f"; {h.die_army} {h.die} against {h.target} ({'hit' if h.hit else 'missed'})" for h in hits)
            raise ChoiceNeeded(
                f"the dice: {rolled}{done}. Allocation {step + 1} is {turn}'s: which die against which army "
                f"(a die of {', '.join(left)}, against {', '.join(f'{t} (Defence {defences[t]})' for t in targets)})",
                f"allocate-{step + 1}",
                [f"{d}:{t}" for d in left for t in targets],
            )
        die_army, target = plan[step]
        if die_army not in unused or side.get(die_army) != turn:
            mine = sorted(d for d in unused if side[d] == turn)
            raise RuleError(f"allocation {step + 1} is {turn}'s turn: a die of {', '.join(mine)}, not {die_army}")
        if target not in upright or side[target] == turn or points[target] <= 0:
            targets = sorted(t for t in upright if side[t] != turn and points[t] > 0)
            raise RuleError(
                f"allocation {step + 1}: {target} is not a target; {turn} may allocate to {', '.join(targets)}"
            )
        hit = dice[die_army] >= defences[target]
        if hit:
            points[target] -= 100
            reduced[turn] += 100
        hits.append(Hit(die_army, target, dice[die_army], defences[target], hit, points[target] <= 0))
        unused.discard(die_army)
        step += 1
        turn = defender if turn == attacker else attacker
    if step < len(plan):
        raise RuleError(f"allocation {step + 1} comes after the last die that had a target: drop it")
    return Reckoning(hits, points, reduced)


def _simple_result(dice: Reckoning, involved: list[Army], attacker: str, defender: str) -> tuple[str | None, str]:
    remain = {p for p in (attacker, defender) if any(a.player == p and dice.points[a.id] > 0 for a in involved)}
    if len(remain) == 1:
        (winner,) = remain
        return winner, f"only {winner}'s armies remain"
    a, d = dice.reduced[attacker], dice.reduced[defender]
    if a == d:
        return None, f"both caused {a} points of reduction"
    winner = attacker if a > d else defender
    return winner, f"{winner} caused more reduction, {max(a, d)} points to {min(a, d)}"


class Moves(NamedTuple):
    """The Results table worked out before anything moves: retreats, who stays, the advance."""

    retreats: dict[str, str | None]  # army -> tile, None: destroyed for want of one
    stayed: list[str]
    advance: tuple[str, str] | None


def _results(
    state: State, event: Battle, tile: str, survivors: list[Army], winner: str | None, attacker: str, defender: str
) -> Moves:
    """The Results table, checked against `retreat` and `advance` before anything moves."""
    hexmap = state.map
    given = dict(event.retreat or {})
    must_leave: list[Army] = []
    stayed: list[str] = []
    for army in survivors:
        if winner is None:
            if state.control.get(tile) == army.player:
                stayed.append(army.id)
            else:
                must_leave.append(army)
        elif army.player != winner:
            must_leave.append(army)
    leaving = {a.id for a in must_leave}
    for army_id in given:
        if army_id not in leaving:
            raise RuleError(
                f"{army_id} does not retreat from this battle"
                + (f"; the armies that must leave are {', '.join(sorted(leaving))}" if leaving else "")
            )
    retreats: dict[str, str | None] = {}
    for army in must_leave:
        options = retreats_from(state, army, tile)
        chosen = given.get(army.id)
        if not options:
            if chosen is not None:
                raise RuleError(f"{army.id} has no adjacent tile of its kingdom to retreat to: it is destroyed")
            retreats[army.id] = None
            continue
        if chosen is None:
            result = f"{winner} wins" if winner is not None else "a draw"
            raise ChoiceNeeded(
                f"{result}: {army.id} must leave {hexmap.label(tile)}: to which tile of its kingdom (`retreat`)",
                f"retreat-{army.id}",
                [hexmap.tiles[t].name or t for t in options],
            )
        if chosen not in options:
            raise RuleError(
                f"{army.id} may retreat only to an adjacent tile of its kingdom that a move could enter: "
                f"{', '.join(hexmap.label(t) for t in options)}; not {hexmap.label(chosen)}"
            )
        retreats[army.id] = chosen
    advance = None
    if event.advance:
        if winner is None:
            raise RuleError("there is no advance after a draw")
        ((army_id, target),) = event.advance.items()
        advancing = next((a for a in survivors if a.id == army_id and a.player == winner), None)
        if advancing is None:
            raise RuleError(f"the advance is by one of {winner}'s armies that fought here, not {army_id}")
        options = retreats_from(state, advancing, tile)
        if target not in options:
            raise RuleError(
                f"{army_id} may advance only to an adjacent tile {winner} controls that a move could enter: "
                f"{', '.join(hexmap.label(t) for t in options) or 'none'}"
            )
        advance = (army_id, target)
    return Moves(retreats, stayed, advance)
