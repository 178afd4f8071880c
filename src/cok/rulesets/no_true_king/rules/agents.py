"""Agents (contract §4.2): placing them, and resolving them — maester, marshal, lord — with
the actions each takes and the move up to the next space."""

from __future__ import annotations

from typing import Any

from cok.core.errors import RuleError
from cok.rulesets.no_true_king.events import Action, Combat, Pass, Place, Resolve
from cok.rulesets.no_true_king.map import SPACES
from cok.rulesets.no_true_king.rules import actions as act
from cok.rulesets.no_true_king.rules.cards import check_resolved_here
from cok.rulesets.no_true_king.rules.combat import fight
from cok.rulesets.no_true_king.rules.outcomes import Fought, Moved, Passed, Placed, Resolved
from cok.rulesets.no_true_king.rules.state import Realm
from cok.rulesets.no_true_king.rules.turns import by_default, free_spaces, refuse_out_of_turn


def place(state: Realm, event: Place) -> Placed:
    refuse_out_of_turn(state, "place", event.player)
    house = event.house
    if (house, event.space) in state.agents:
        free = ", ".join(f"{h} {s}" for h, s in free_spaces(state))
        raise RuleError(
            f"the {house} {event.space} space already holds {state.agents[(house, event.space)]}'s agent; "
            f"free spaces: {free}"
        )
    state.agents[(house, event.space)] = event.player
    state.placed[event.player] += 1
    return Placed(event.player, house, event.space)


def pass_placement(state: Realm, event: Pass) -> Passed:
    """A placement missed at its deadline (issue 48): the turn passes with no agent placed, and
    the player has one agent fewer this round. Only the ledger's default passes a placement:
    at the table every player places three (§4.2.1)."""
    refuse_out_of_turn(state, "place", event.player)
    if not by_default(event):
        free = ", ".join(f"{h} {s}" for h, s in free_spaces(state))
        raise RuleError(
            f"every conspiracy places three agents (§4.2.1): {event.player} places one now "
            f"(`cok ntk place`); a placement passes only at a missed deadline. Free spaces: {free}"
        )
    state.placed[event.player] += 1
    return Passed(event.player, placement=True)


def resolve(state: Realm, event: Resolve) -> Resolved:
    refuse_out_of_turn(state, "resolve", event.player)
    house = event.house
    key = (house, event.space)
    if state.agents.get(key) != event.player:
        mine = ", ".join(f"{h} {s}" for h, s in state.may_resolve(event.player))
        raise RuleError(f"{event.player} has no agent on the {house} {event.space} space; they may resolve {mine}")
    if event.space != state.tier():
        raise RuleError(
            f"no {event.space} may resolve while a {state.tier()} is unresolved (maesters, then marshals, then lords)"
        )
    if by_default(event) and not event.actions:
        return _resolve_idle(state, event)
    _check_kinds(event)
    del state.agents[key]
    done: list[Any] = []
    combat_used = False
    for action in event.actions:
        if action.combat is not None:
            raise RuleError("the combat of an agent's move is given beside its actions (`combat:`), not inside one")
        result = take(state, event.player, house, action, event.combat)
        combat_used = combat_used or isinstance(result, tuple)
        done.append(result)
    if event.combat is not None and not combat_used:
        raise RuleError("`combat` is recorded only when a move entered another house's troops")
    _check_left_out(state, event, house)
    if state.table:  # cards played from the phones (rules/cards.py): this combat's, then cleared
        fought = [(r[1].sides.attacker, r[1].sides.area) for r in done if isinstance(r, tuple)]
        cards = event.combat.cards if event.combat else {}
        check_resolved_here(state, fought, dict(cards), _granted_combat(state, done, event))
        state.table, state.fight_at, state.won_table, state.won_at = [], None, [], None
    up = _move_up(state, house, event.space, event.player)
    return Resolved(event.player, house, event.space, tuple(done), up)


def _resolve_idle(state: Realm, event: Resolve) -> Resolved:
    """A resolution missed at its deadline (issue 48): the agent resolves taking no action, then
    moves up or returns as any agent does (§4.2.2). A combat whose cards were played from the
    phones is never fought (its move is never made): the cards stay in their players' hands."""
    if event.combat is not None:
        raise RuleError("an agent that takes no action fights no combat: no `combat`")
    del state.agents[(event.house, event.space)]
    state.table, state.fight_at, state.won_table, state.won_at = [], None, [], None
    up = _move_up(state, event.house, event.space, event.player)
    return Resolved(event.player, event.house, event.space, (), up)


def _granted_combat(
    state: Realm, done: list[Any], event: Resolve
) -> tuple[tuple[str, str], dict[str, str | None]] | None:
    """Where Asha Greyjoy's granted move fought, and with which cards (§4.4), if it did."""
    for result in done:
        if not isinstance(result, tuple):
            continue
        for after in result[1].after:
            if isinstance(after, tuple) and event.combat is not None and event.combat.after:
                fight = event.combat.after[0].combat
                cards = fight.cards if fight is not None else {}
                return (after[1].sides.attacker, after[1].sides.area), dict(cards)
    return None


def _check_kinds(event: Resolve) -> None:
    kinds = [a.kind for a in event.actions]
    if event.space == "maester" and len(kinds) != 1:
        raise RuleError(f"a maester takes exactly one action of muster, move or draw, not {len(kinds)}")
    if event.space == "marshal" and (sorted(kinds) not in (["move", "muster"], ["muster"])):
        raise RuleError(f"a marshal takes a muster and a move (in either order), not {', '.join(kinds) or 'nothing'}")
    if event.space == "lord" and (len(kinds) not in (1, 2) or len(set(kinds)) != len(kinds)):
        raise RuleError(
            f"a lord takes two different actions of muster, move and draw, not {', '.join(kinds) or 'nothing'}"
        )


def _check_left_out(state: Realm, event: Resolve, house: str) -> None:
    """§4.7 Actions left out: a marshal leaves out its move, a lord its second action, only
    when nothing else was possible after its muster."""
    kinds = [a.kind for a in event.actions]
    if event.space == "marshal" and kinds == ["muster"] and act.has_legal_move(state, house):
        raise RuleError("a marshal takes a move too: it may leave it out only when its house has no legal move")
    if event.space == "lord" and len(kinds) == 1:
        if kinds != ["muster"]:
            raise RuleError(
                "a lord takes two different actions; a single one only when it is a muster and nothing else is possible"
            )
        if act.has_legal_move(state, house) or act.can_draw(state, house):
            raise RuleError("a lord takes two different actions: its house still has a legal move or a card to draw")


def take(state: Realm, player: str, house: str, action: Action, combat: Combat | None, asked: str = "") -> Any:
    """One action for the house; a move into another house's troops fights (with `combat`)."""
    if action.muster is not None:
        return act.muster(state, house, action.muster)
    if action.draw is not None:
        return act.draw(state, player, house)
    assert action.move is not None
    move = action.move
    origin, to = move.from_, move.to
    units = act.counts_of(list(move.units))
    why = act.check_move(state, house, origin, to, units)
    if why:
        raise RuleError(f"move {origin} → {to}: {why}")
    if act.enters_troops(state, house, to) is None:
        if combat is not None and action.combat is not None:
            raise RuleError(f"the move into {to} enters no other house's troops: no `combat`")
        return act.move_without_combat(state, house, move)
    flag = act.take_out(state, house, origin, units)
    active = state.active or player

    def granted(by: str, granted_house: str, after: Action) -> Any:
        return take(state, by, granted_house, after, after.combat, "then-")

    fought: Fought = fight(state, house, origin, to, units, combat, active, granted, asked)
    return (Moved(house, origin, to, units, flag), fought)


def _move_up(state: Realm, house: str, space: str, player: str) -> str | None:
    """Maester → marshal, marshal → lord, when that space is empty; else the agent returns."""
    if space == "lord":
        return None
    up = SPACES[SPACES.index(space) + 1]
    if (house, up) in state.agents:
        return None
    state.agents[(house, up)] = player
    return up
