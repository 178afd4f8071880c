"""From what a user gave to the event the log will hold, for every interface alike (`cok mk`,
`cok serve`): the answers to the rules' questions and the dice the ledger rolls for a player
who asks it to. Pure: it reads the state, changes nothing, and refuses with RuleError. Names become the map's
own spelling in one place, `rules/spelling.py`: the event built here is passed through it, so
the log holds the map's spelling whoever sent it. The rules decide the event afterwards
(`rules/apply.py`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from contextlib import suppress
from typing import TYPE_CHECKING, Any

from cok.core.dice import ROLL
from cok.core.errors import ChoiceNeeded, RuleError

if TYPE_CHECKING:
    from cok.core.dice import Dice
    from cok.core.events import EventBase
    from cok.rulesets.mighty_kingdoms.rules.state import Army, State

Fields = Mapping[str, Any]
#: The answers to the battle's questions, one a step: `allocate-1: "ana-1:bo-2"`, and one a
#: leaving army: `retreat-bo-2: mereside` (rules/battle.py asks them once the dice are known).
ALLOCATE, RETREAT = "allocate-", "retreat-"
__all__ = ["ALLOCATE", "RETREAT", "ROLL", "build", "named"]


def build(state: State, type: str, fields: Fields, answers: Fields, dice: Dice) -> EventBase | None:
    """The event of this type from the fields as typed and the answers given; None for a
    type left to the log's own shape (a void)."""
    from cok.rulesets.mighty_kingdoms.rules.spelling import spelled

    maker = _BUILDERS.get(type)
    return None if maker is None else spelled(state, maker(state, kingdoms_found(state, type, fields), answers, dice))


#: The fields that name a kingdom, by event type; (`draw`, `pool`: the words that name none).
KINGDOM_FIELDS = {
    "battle": ("attacker", "defender", "result"),
    "tithe": ("from", "to"),
    "build": ("player",),
    "recruit": ("player",),
    "feed": ("player",),
    "quest": ("player",),
    "artefact": ("to",),
}


def kingdoms_found(state: State, type: str, fields: Fields) -> Fields:
    """The kingdoms a draft names as their ids (`ANA`, `Ana Smith` -> ana), with the spelling
    step's finder: the event's model takes only ids, and a name typed at the terminal or on
    a page is any spelling of one (contract section 1). An unknown one is refused with "did
    you mean". Winter's recalls are kingdoms too."""
    from cok.rulesets.mighty_kingdoms.rules.spelling import player

    found = dict(fields)
    for key in KINGDOM_FIELDS.get(type, ()):
        typed = fields.get(key)
        if isinstance(typed, str) and typed.strip() and typed not in ("draw", "pool"):  # empty: the model says
            found[key] = player(state, typed)
    recall = fields.get("recall") if type == "winter" else None
    if isinstance(recall, Mapping):
        found["recall"] = {player(state, k) if isinstance(k, str) else k: v for k, v in recall.items()}
    return found


def named(state: State, type: str, fields: Fields) -> frozenset[str] | None:
    """The kingdoms a draft names, found as the rules find them (an unknown name is no one):
    who may record it. An army counts for the kingdom that has it, so that a kingdom orders
    only its own armies; a tithe is the giver's to record (5.6 step 3: it gives); an
    artefact's hand-over has two parties, the kingdom that holds it and the one it goes to
    (5.7). None for a type it does not build."""
    from cok.rulesets.mighty_kingdoms.rules.spelling import player

    if type not in _BUILDERS:
        return None
    found: set[str] = set()
    for key in ("player", "attacker", "defender", "from", *(("to",) if type == "artefact" else ())):
        typed = fields.get(key)
        if isinstance(typed, str):
            with suppress(RuleError):
                found.add(player(state, typed))
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
    dice = dice.rolling(f"resolve {state.year}-{state.month} {army.id}")
    first = [dice.roll(6), dice.roll(6)]
    second = [dice.roll(6), dice.roll(6)] if state.settings.towers and first[0] == first[1] else None
    return first, second


def battle_dice(state: State, typed_tile: str, attacker: str, defender: str, dice: Dice) -> dict[str, int]:
    """A simple battle's dice, rolled: one d6 for each upright army of the two sides (5.4)."""
    from cok.rulesets.mighty_kingdoms.rules.spelling import player, tile

    at = tile(state, typed_tile)
    sides = {player(state, attacker), player(state, defender)}
    dice = dice.rolling(f"battle {state.year}-{state.month} {at} {' '.join(sorted(sides))}")
    return {a.id: dice.roll(6) for a in state.armies_in(at) if a.player in sides and a.upright}


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
    if rolled_for_me(answers, given, "roll") and army is not None:
        first, second = exploration_dice(state, army, dice)
        given.update({"roll": first, "reroll": second})
    return Resolve.model_validate(given)


def _battle(state: State, fields: Fields, answers: Fields, dice: Dice) -> EventBase:
    """ "Roll it for me" in a simple battle: every upright army's d6 rolled and recorded; the
    allocations and retreats the rules asked for (5.4), each answered after the dice."""
    from cok.rulesets.mighty_kingdoms.events import Battle

    given = dict(fields)
    tile, attacker, defender = (fields.get(k) for k in ("tile", "attacker", "defender"))
    asked = answers.get(ROLL) is True and not given.get("dice") and not state.settings.kings_of_war
    if asked and isinstance(tile, str) and isinstance(attacker, str) and isinstance(defender, str):
        given["dice"] = battle_dice(state, tile, attacker, defender, dice)
    steps = sorted((int(k[len(ALLOCATE) :]), v) for k, v in answers.items() if _step(k) and isinstance(v, str))
    if steps:
        given["allocate"] = [*(given.get("allocate") or []), *(list(v.partition(":")[::2]) for _, v in steps)]
    leaving = {k[len(RETREAT) :]: v for k, v in answers.items() if k.startswith(RETREAT) and isinstance(v, str)}
    if leaving:
        given["retreat"] = {**(given.get("retreat") or {}), **leaving}
    return Battle.model_validate(given)


def rolled_for_me(answers: Fields, given: dict[str, Any], field: str) -> bool:
    """Whether the ledger rolls what `field` holds: "roll it for me" asked as the answer, with
    the field not given, or as the field's own value `roll_dice` (a draft with no answers: a
    missed deadline's default, docs/mighty-kingdoms.md "Deadlines"), which is dropped here."""
    if given.get(field) == ROLL:
        given[field] = None
        return True
    return answers.get(ROLL) is True and given.get(field) is None


def _step(key: str) -> bool:
    return key.startswith(ALLOCATE) and key[len(ALLOCATE) :].isdigit()


def _ordering(type: str) -> Callable[[State, Fields, Fields, Dice], EventBase]:
    """Reform and spring: "roll it for me" rolls the roll-off of the players tied on armies
    (Reform step 5, after step 4's losses; spring keeps the winter's counts), and records its order."""

    def make(state: State, fields: Fields, answers: Fields, dice: Dice) -> EventBase:
        from cok.rulesets.mighty_kingdoms.events import EVENT_TYPES
        from cok.rulesets.mighty_kingdoms.rules.summer import reformed_counts

        given = dict(fields)
        if rolled_for_me(answers, given, "order"):
            armies = state.deploy_counts if type == "spring" else reformed_counts(state)
            when = f"spring {state.year}" if type == "spring" else f"reform {state.year}-{state.month}"
            given["order"] = roll_off_order(state, armies, dice.rolling(f"{when} {' '.join(state.order)}"))
        return EVENT_TYPES[type].model_validate({"type": type, **given})

    return make


def roll_off_order(state: State, armies: dict[str, int], dice: Dice) -> list[str] | None:
    """The player order by armies, most first, each group tied on armies rolling off: a d6
    each in player order, the highest first, again among those still tied. None: no tie."""
    from cok.rulesets.mighty_kingdoms.rules.phase import ties

    if not ties(state, armies):
        return None

    def settle(group: list[str]) -> list[str]:
        rolled = {p: dice.roll(6) for p in group}
        placed: list[str] = []
        for value in sorted(set(rolled.values()), reverse=True):
            same = [p for p in group if rolled[p] == value]
            placed += same if len(same) == 1 else settle(same)
        return placed

    place: dict[str, int] = {}
    for group in ties(state, armies):
        place.update({p: i for i, p in enumerate(settle(group))})
    return sorted(state.order, key=lambda p: (-armies.get(p, 0), place.get(p, 0)))


def _quest(state: State, fields: Fields, answers: Fields, dice: Dice) -> EventBase:
    """ "Roll it for me": the quest's d6 rolled by the ledger and recorded."""
    from cok.rulesets.mighty_kingdoms.events import Quest

    given = dict(fields)
    who, tower = fields.get("player"), fields.get("tower")
    if answers.get(ROLL) is True and given.get("roll") is None and isinstance(who, str) and isinstance(tower, str):
        given["roll"] = dice.rolling(quest_roll(state, who, tower)).roll(6)
    return Quest.model_validate(given)


def quest_roll(state: State, player: str, tower: str) -> str:
    """A quest's roll named as the log will hold it: the kingdom's id and the tower's `"q,r"`
    from the spelling step, so `-6,2`, `-6, 2` and ` -6,2` are one roll (the rules allow one
    quest a tower a kingdom a winter), never three to choose from."""
    from cok.rulesets.mighty_kingdoms.rules.spelling import player as kingdom
    from cok.rulesets.mighty_kingdoms.rules.spelling import tile

    return f"quest {state.year} {kingdom(state, player)} {tile(state, tower)}"


_BUILDERS: dict[str, Callable[[State, Fields, Fields, Dice], EventBase]] = {
    "kingdom": _kingdom,
    "begin": _as_given("begin"),
    "order": _order,
    "resolve": _resolve,
    "battle": _battle,
    "reform": _ordering("reform"),
    "winter": _as_given("winter"),
    "tithe": _as_given("tithe"),
    "build": _as_given("build"),
    "recruit": _as_given("recruit"),
    "feed": _as_given("feed"),
    "deploy": _as_given("deploy"),
    "spring": _ordering("spring"),
    "quest": _quest,
    "artefact": _as_given("artefact"),
}


# ---------------------------------------------------------------- fair dice (docs/dice.md)


def period(state: State) -> str:
    """A month or a winter: the dice of each are committed and revealed on their own."""
    if state.winter:
        return f"the winter of year {state.year}"
    return f"year {state.year}, month {state.month}" if state.year else "the setup"


def dice_agree(type: str, fields: dict[str, Any], dice: list[int]) -> str | None:
    """The exploration's 2D6 (and the reroll), a battle's dice in their order, a quest's d6."""
    if type == "resolve":
        said = [*(fields.get("roll") or []), *(fields.get("reroll") or [])]
    elif type == "battle":
        said = list((fields.get("dice") or {}).values())
    elif type == "quest":
        said = [fields["roll"]] if fields.get("roll") is not None else []
    else:
        return None
    return None if said == dice else f"the event says {said}, the dice cok rolled {dice}"
