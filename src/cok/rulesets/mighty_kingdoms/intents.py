"""From what a user gave to the event the log will hold, for every interface alike (`cok mk`,
`cok serve`): the answers to the rules' questions and the dice the ledger rolls for a player
who asks it to. Pure: it reads the state, changes nothing, and refuses with RuleError. The
rules decide the event afterwards (`rules/apply.py`); names and tiles are theirs to find."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from contextlib import suppress
from typing import TYPE_CHECKING, Any

from cok.core.errors import ChoiceNeeded, RuleError

if TYPE_CHECKING:
    from cok.core.dice import Dice
    from cok.core.events import EventBase
    from cok.rulesets.mighty_kingdoms.rules.state import Army, State

Fields = Mapping[str, Any]
#: The answer that asks the ledger to roll the dice a resolve, a battle or a quest needs.
ROLL = "roll_dice"


def build(state: State, type: str, fields: Fields, answers: Fields, dice: Dice) -> EventBase | None:
    """The event of this type from the fields as typed and the answers given; None for a
    type left to the log's own shape (a void)."""
    maker = _BUILDERS.get(type)
    return None if maker is None else maker(state, fields, answers, dice)


def named(state: State, type: str, fields: Fields) -> frozenset[str] | None:
    """The kingdoms a draft names, found as the rules find them (an unknown name is no one):
    who may record it. An army counts for the kingdom that has it, so that a kingdom orders
    only its own armies; a tithe is the giver's to record (5.6 step 3: it gives); an
    artefact's hand-over has two parties, the kingdom that holds it and the one it goes to
    (5.7). None for a type it does not build."""
    from cok.rulesets.mighty_kingdoms.rules.setup import find_player

    if type not in _BUILDERS:
        return None
    found: set[str] = set()
    for key in ("player", "attacker", "defender", "from", *(("to",) if type == "artefact" else ())):
        typed = fields.get(key)
        if isinstance(typed, str):
            with suppress(RuleError):
                found.add(find_player(state, typed))
    for key in ("army", "slaughter", "disband"):
        typed = fields.get(key)
        army = state.armies.get(typed.strip().casefold()) if isinstance(typed, str) else None
        if army is not None:
            found.add(army.player)
    artefact = fields.get("artefact") if type == "artefact" else None
    held = state.artefacts.get(artefact.strip().casefold()) if isinstance(artefact, str) else None
    if held is not None and held.holder != "pool":
        found.add(held.holder)
    return frozenset(found)


# ---------------------------------------------------------------- what the state allows


def moves(state: State, army: Army) -> list[str]:
    """The tiles an army may move into this month (5.2: a neighbour, over no water, never a
    marsh nor a wizard's tower): the choices of its `move` order."""
    hexmap = state.map
    return [t for t in hexmap.neighbours(army.tile) if hexmap.may_enter(army.tile, t) and t not in state.towers]


def exploring(state: State, army: Army) -> bool:
    """Whether resolving the army's order rolls 2D6 on the exploration table (5.3)."""
    return army.order == "move" and army.to not in state.explored and army.to not in state.towers


def exploration_dice(state: State, army: Army, dice: Dice) -> tuple[list[int] | None, list[int] | None]:
    """The 2D6 the rules will ask for, rolled: into an unexplored tile, and again after a
    double with wizard's towers (5.8)."""
    if not exploring(state, army):
        return None, None
    first = [dice.roll(6), dice.roll(6)]
    second = [dice.roll(6), dice.roll(6)] if state.settings.towers and first[0] == first[1] else None
    return first, second


def battle_dice(state: State, typed_tile: str, attacker: str, defender: str, dice: Dice) -> dict[str, int]:
    """A simple battle's dice, rolled: one d6 for each upright army of the two sides (5.4)."""
    from cok.rulesets.mighty_kingdoms.rules.setup import find_player

    tile = state.map.find(typed_tile)
    sides = {find_player(state, attacker), find_player(state, defender)}
    return {a.id: dice.roll(6) for a in state.armies_in(tile) if a.player in sides and a.upright}


# ---------------------------------------------------------------- the events


def _as_given(type: str) -> Callable[[State, Fields, Fields, Dice], EventBase]:
    """An event whose fields are taken as typed (the rules find the names and tiles)."""

    def make(state: State, fields: Fields, answers: Fields, dice: Dice) -> EventBase:
        from cok.rulesets.mighty_kingdoms.events import EVENT_TYPES

        return EVENT_TYPES[type].model_validate({"type": type, **fields})

    return make


def _kingdom(state: State, fields: Fields, answers: Fields, dice: Dice) -> EventBase:
    pid = fields.get("player")
    if isinstance(pid, str) and pid != pid.lower():
        raise RuleError(f"player ids are lowercase: use {pid.lower()!r} (and `name` {pid!r})")
    return _as_given("kingdom")(state, fields, answers, dice)


def _order(state: State, fields: Fields, answers: Fields, dice: Dice) -> EventBase:
    """A move with no tile asks where to, offering only the tiles the army may enter."""
    from cok.rulesets.mighty_kingdoms.events import Order

    to = answers.get("to") or fields.get("to")
    typed = fields.get("army")
    army = state.armies.get(typed.strip().casefold()) if isinstance(typed, str) else None
    if fields.get("order") == "move" and to is None and army is not None:
        options = [state.map.tiles[t].name or t for t in moves(state, army)]
        if options:
            raise ChoiceNeeded(
                f"{army.id} moves from {state.map.label(army.tile)}: into which adjacent tile", "to", options
            )
    return Order.model_validate({**fields, "to": to})


def _resolve(state: State, fields: Fields, answers: Fields, dice: Dice) -> EventBase:
    """ "Roll it for me": the exploration's 2D6 rolled by the ledger and recorded."""
    from cok.rulesets.mighty_kingdoms.events import Resolve

    given = dict(fields)
    typed = fields.get("army")
    army = state.armies.get(typed.strip().casefold()) if isinstance(typed, str) else None
    if answers.get(ROLL) is True and army is not None and given.get("roll") is None:
        first, second = exploration_dice(state, army, dice)
        given.update({"roll": first, "reroll": second})
    return Resolve.model_validate(given)


def _battle(state: State, fields: Fields, answers: Fields, dice: Dice) -> EventBase:
    """ "Roll it for me" in a simple battle: every upright army's d6 rolled and recorded."""
    from cok.rulesets.mighty_kingdoms.events import Battle

    given = dict(fields)
    tile, attacker, defender = (fields.get(k) for k in ("tile", "attacker", "defender"))
    asked = answers.get(ROLL) is True and not given.get("dice") and not state.settings.kings_of_war
    if asked and isinstance(tile, str) and isinstance(attacker, str) and isinstance(defender, str):
        given["dice"] = battle_dice(state, tile, attacker, defender, dice)
    return Battle.model_validate(given)


def _quest(state: State, fields: Fields, answers: Fields, dice: Dice) -> EventBase:
    """ "Roll it for me": the quest's d6 rolled by the ledger and recorded."""
    from cok.rulesets.mighty_kingdoms.events import Quest

    given = dict(fields)
    if answers.get(ROLL) is True and given.get("roll") is None:
        given["roll"] = dice.roll(6)
    return Quest.model_validate(given)


_BUILDERS: dict[str, Callable[[State, Fields, Fields, Dice], EventBase]] = {
    "kingdom": _kingdom,
    "begin": _as_given("begin"),
    "order": _order,
    "resolve": _resolve,
    "battle": _battle,
    "reform": _as_given("reform"),
    "winter": _as_given("winter"),
    "tithe": _as_given("tithe"),
    "build": _as_given("build"),
    "recruit": _as_given("recruit"),
    "feed": _as_given("feed"),
    "deploy": _as_given("deploy"),
    "spring": _as_given("spring"),
    "quest": _quest,
    "artefact": _as_given("artefact"),
}
