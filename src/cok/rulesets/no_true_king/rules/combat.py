"""Combat (contract §4.4): power, forts, cards and their seven replacement effects, the
winner, the retreat, the casualties."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cok.core.errors import ChoiceNeeded, RuleError
from cok.rulesets.no_true_king.events import Action, Combat
from cok.rulesets.no_true_king.map import FORT_BONUS, Card
from cok.rulesets.no_true_king.rules.actions import Counts, put_in
from cok.rulesets.no_true_king.rules.outcomes import Fought, Sides
from cok.rulesets.no_true_king.rules.state import Realm

BRIENNE, CATELYN, SALLADHOR = "Brienne of Tarth", "Catelyn Stark", "Salladhor Saan"
ASHA, JAIME, CERSEI, MELISANDRE = "Asha Greyjoy", "Ser Jaime Lannister", "Cersei Lannister", "Melisandre"
#: The cards whose effect is an action for their house when it wins (`after`).
GRANTS = {ASHA: ("greyjoy", "move"), JAIME: ("lannister", "muster")}


def unit_power(units: Counts, sea: bool) -> int:
    f, k, s = units
    return k + s if sea else f + 2 * k


def sides(state: Realm, attacker: str, area: str, units: Counts, cards: list[tuple[str, Card]]) -> Sides:
    """Both sides' power with the cards played (§4.4 Power, Replacement effects)."""
    board = state.board
    defender = state.troops[area][0]
    sea = board.areas[area].sea
    defending = state.force(area, defender)
    names = {card.name for _, card in cards}
    fort = 0 if sea else FORT_BONUS.get(board.areas[area].fort or "", 0)
    if CATELYN in names and defender == "stark":
        fort *= 2
    if BRIENNE in names and attacker == "baratheon":
        fort = 0
    power = {attacker: unit_power(units, sea), defender: unit_power(defending, sea) + fort}
    for _, card in cards:
        power[card.house] += card.strength
    if SALLADHOR in names and "baratheon" in power:
        power["baratheon"] += sum(
            state.force(sea_area, "baratheon")[2] for sea_area in board.neighbours(area) if board.areas[sea_area].sea
        )
    return Sides(area, attacker, defender, sea, units, defending, fort, power, tuple((p, c.name) for p, c in cards))


def play_cards(
    state: Realm, given: dict[str, str | None], active: str, houses: tuple[str, str]
) -> list[tuple[str, Card]]:
    """The cards played, from the active player clockwise; each taken from its player's hand."""
    played: list[tuple[str, Card]] = []
    for player in state.clockwise_from(active):
        named = given.get(player)
        if named is None:
            continue
        card = state.board.cards[named]
        if card.house not in houses:
            raise RuleError(
                f"{player} plays {card.name}, a {card.house} card, but the combat is {houses[0]} against {houses[1]}"
            )
        if card.name in state.played:
            raise RuleError(f"{card.name} has already been played (played cards are gone for the game)")
        if state.held.get((player, card.house), 0) < 1:
            raise RuleError(f"{player} holds no {card.house} card to play {card.name}")
        state.held[(player, card.house)] -= 1
        state.played = [*state.played, card.name]  # replaced: an overlay's list is the state's
        played.append((player, card))
    return played


def retreats(state: Realm, house: str, area: str, group: Counts) -> list[str]:
    """Where the loser's troops in `area` could go together without a combat (§4.4)."""
    found = []
    for to in state.board.neighbours(area):
        holder = state.troops.get(to)
        if holder is not None and holder[0] != house:
            continue
        if _can_arrive(state, house, area, to, group):
            found.append(to)
    return found


def _can_arrive(state: Realm, house: str, area: str, to: str, group: Counts) -> bool:
    board = state.board
    f, k, s = group
    if s and not board.areas[to].sea:
        return False
    if board.areas[to].sea:
        there = state.force(to, house)
        return there[0] + there[1] + f + k <= there[2] + s
    return True


def kill(units: Counts, n: int) -> tuple[Counts, Counts]:
    """Figures lost in order footmen, knights, ships: (left, killed)."""
    left = list(units)
    killed = [0, 0, 0]
    for i in range(3):
        take = min(left[i], n)
        left[i] -= take
        killed[i] += take
        n -= take
    return (left[0], left[1], left[2]), (killed[0], killed[1], killed[2])


def fight(
    state: Realm,
    attacker: str,
    origin: str,
    area: str,
    units: Counts,
    combat: Combat | None,
    active: str,
    granted: Callable[[str, str, Action], Any],
    asked: str = "",
) -> Fought:
    """`asked`: how the command line names this combat's choices (`then-` for a granted move's)."""
    """The whole combat of a move from `origin` into `area` (the group already out of origin)."""
    defender = state.troops[area][0]
    if combat is None:
        how = " (--then-combat, or --then-card …, at the command line)" if asked else ""
        raise RuleError(
            f"the move into {area} enters {defender}'s troops: "
            f"record the `combat` (cards, winner on a tie, retreat){how}"
        )
    cards = play_cards(state, combat.cards, active, (attacker, defender))
    seen = sides(state, attacker, area, units, cards)
    winner = _winner(seen, combat.winner, state, asked)
    loser = defender if winner == attacker else attacker
    group = seen.defending if loser == defender else units
    kills = {loser: 2, winner: 1}
    for _, card in cards:
        other = loser if card.house == winner else winner
        kills[other] += card.swords
        kills[card.house] -= card.towers
    kills = {h: max(0, n) for h, n in kills.items()}
    options = retreats_after(state, loser, area, group, attacker, units)
    none_left = bool(options) and not any(kill(group, kills[loser])[0]) and combat.retreat is None
    if none_left:
        options = []  # the casualties take every figure of the loser: nobody is left to retreat
    retreat = _retreat(state, combat.retreat, options, loser, area, asked)
    if loser == defender:
        state.set_force(area, defender, (0, 0, 0))
    state.flags.pop(area, None)
    if retreat is None:
        lost_loser = group
    else:
        left, lost_loser = kill(group, kills[loser])
        put_in(state, loser, retreat, left)
    winning = units if winner == attacker else seen.defending
    left_w, lost_winner = kill(winning, kills[winner])
    state.set_force(area, winner, left_w)
    names = {card.name: player for player, card in cards}
    after = _after(state, combat, winner, names, granted)
    removed = _remove(state, combat, winner, names)
    discard = _discard(state, combat, winner, names)
    kills_done = {loser: lost_loser, winner: lost_winner}
    return Fought(seen, winner, loser, retreat, kills_done, after, removed, discard, none_left)


def retreats_after(state: Realm, loser: str, area: str, group: Counts, attacker: str, units: Counts) -> list[str]:
    """The loser's retreats once the attacker is in the area (the attacker's group stands there)."""
    return [to for to in retreats(state, loser, area, group) if to != area]


def _winner(seen: Sides, named: str | None, state: Realm, asked: str = "") -> str:
    a, d = seen.attacker, seen.defender
    pa, pd = seen.power[a], seen.power[d]
    stronger = a if pa > pd else d if pd > pa else None
    if named is not None:
        if named not in (a, d):
            raise RuleError(f"the winner is {a} or {d}, not {named}")
        if stronger is not None and named != stronger:
            raise RuleError(f"{stronger} wins on power ({pa} against {pd} for {a} against {d}), not {named}")
        return named
    if stronger is None:
        raise ChoiceNeeded(
            f"{a} and {d} tie at {pa} power: the active player names the winner", asked + "winner", [a, d]
        )
    return stronger


def _retreat(state: Realm, typed: str | None, options: list[str], loser: str, area: str, asked: str = "") -> str | None:
    if typed is None:
        if options:
            raise ChoiceNeeded(
                f"{loser} retreats from {area}: the active player chooses where", asked + "retreat", options
            )
        return None
    found = typed
    if found not in options:
        allowed = ", ".join(options) if options else "nowhere (the troops are killed)"
        raise RuleError(f"{loser} cannot retreat from {area} to {found}; it may retreat to {allowed}")
    return found


def _after(
    state: Realm, combat: Combat, winner: str, names: dict[str, str], granted: Callable[[str, str, Action], Any]
) -> tuple[Any, ...]:
    if not combat.after:
        return ()
    (action,) = combat.after
    for card, (house, kind) in GRANTS.items():
        if card in names and winner == house:
            if action.kind != kind:
                raise RuleError(f"{card} grants a {kind} for {house}, not a {action.kind}")
            return (granted(names[card], house, action),)
    raise RuleError("`after` is an action granted by Asha Greyjoy or Ser Jaime Lannister when their house wins")


def _remove(state: Realm, combat: Combat, winner: str, names: dict[str, str]) -> tuple[str, str, str] | None:
    if combat.remove is None:
        return None
    if CERSEI not in names or winner != "lannister":
        raise RuleError("`remove` is Cersei Lannister's effect, when she is played and Lannister wins")
    key = (combat.remove.house, combat.remove.space)
    if combat.remove.house != "lannister":
        raise RuleError(f"Cersei Lannister removes an agent from a Lannister space, not a {combat.remove.house} one")
    if key not in state.agents:
        raise RuleError(f"there is no unresolved agent on the lannister {combat.remove.space} space")
    player = state.agents.pop(key)
    return (key[0], key[1], player)


def _discard(state: Realm, combat: Combat, winner: str, names: dict[str, str]) -> tuple[str, str, str] | None:
    if combat.discard is None:
        return None
    if MELISANDRE not in names or winner != "baratheon":
        raise RuleError("`discard` is Melisandre's effect, when she is played and Baratheon wins")
    by = names[MELISANDRE]
    opponent, house = combat.discard.player, combat.discard.house
    if opponent == by:
        raise RuleError("Melisandre makes an opponent discard, not her own player")
    if state.held.get((opponent, house), 0) < 1:
        raise RuleError(f"{opponent} holds no {house} card to discard")
    state.held[(opponent, house)] -= 1
    return (by, opponent, house)
