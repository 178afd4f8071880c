"""From what a user gave to the event the log will hold, for every interface alike (the
command line, the server): names in any spelling, `P=N` pairs, the answers to the rules'
questions, a roll-off rolled with the dice. Pure: it reads the state, changes nothing, and
refuses with RuleError. Names become the map's own spelling in one place, `rules/spelling.py`:
the event built here is passed through it, so the log holds the map's spelling whoever sent
it; players are found here, as the event's model takes only ids. The rules decide the event
afterwards (`rules/apply.py`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from contextlib import suppress
from typing import TYPE_CHECKING, Any

from cok.core.dice import ROLL
from cok.core.errors import ConfirmNeeded, RuleError
from cok.rulesets.clash_of_kings.rules import spelling
from cok.rulesets.clash_of_kings.rules.state import State

if TYPE_CHECKING:
    from cok.core.dice import Dice
    from cok.core.events import EventBase
    from cok.rulesets.clash_of_kings.rules.where import Where

Fields = Mapping[str, Any]
#: The answer that confirms a points limit that goes down (see `week`).
LOWER_LIMIT = "lower_limit"
__all__ = ["LOWER_LIMIT", "ROLL", "build", "named", "roll_off"]


def build(state: State, type: str, fields: Fields, answers: Fields, dice: Dice) -> EventBase | None:
    """The event of this type from the fields as typed and the answers given; None for a
    type built from the log's own shape (a void)."""
    maker = _BUILDERS.get(type)
    return None if maker is None else spelling.spelled(state, maker(state, fields, answers, dice))


def named(state: State, type: str, fields: Fields) -> frozenset[str] | None:
    """The players a draft names, found as recording finds them (an unknown name is no
    one): who may record it. A painting claim is its `player`'s alone: the painter it
    commissioned is named in it, but the week's claim is not theirs to spend. None for a
    type it does not build."""
    if type not in _BUILDERS:
        return None
    typed: list[Any] = []
    if type == "battle":
        players = fields.get("players")
        typed = list(players) if isinstance(players, (list, tuple)) else []
    else:
        typed = [fields.get("player")]
    found = set()
    for name in typed:
        if isinstance(name, str):
            with suppress(RuleError):  # an unknown name is no one
                found.add(spelling.player(state, name))
    return frozenset(found)


# ---------------------------------------------------------------- names and numbers


def player(state: State, typed: Any, field: str = "player") -> str:
    """A player's id from their id or name in any case."""
    if not isinstance(typed, str):
        raise RuleError(f"`{field}` names a player: an id or a name, not {typed!r}")
    return spelling.player(state, typed)


def pair(item: str) -> tuple[str, int] | None:
    """`tim=7` as ("tim", 7); None when it is not PLAYER=NUMBER."""
    who, sep, number = item.partition("=")
    if not sep or not number.strip().lstrip("-").isdigit():
        return None
    return who.strip(), int(number)


def scores(state: State, given: Any, field: str) -> dict[str, int] | None:
    """Victory points or points remaining by player: `P=N` strings (one, or a list) or a
    mapping of player to number, names in any spelling."""
    if given is None or given == [] or given == {}:
        return None
    items: list[tuple[Any, Any]]
    if isinstance(given, Mapping):
        items = list(given.items())
    else:
        typed = [given] if isinstance(given, str) else list(given) if isinstance(given, (list, tuple)) else None
        if typed is None or not all(isinstance(t, str) for t in typed):
            raise RuleError(f"`{field}` takes PLAYER=NUMBER pairs, like tim=7, or a mapping of player to number")
        items = []
        for item in typed:
            found = pair(item)
            if found is None:
                raise RuleError(f"`{field}` takes PLAYER=NUMBER, like tim=7 (got {item!r})")
            items.append(found)
    result: dict[str, int] = {}
    for who, number in items:
        if isinstance(number, bool) or not isinstance(number, int):
            raise RuleError(f"`{field}` gives {who} {number!r}: a whole number")
        result[player(state, who, field)] = number
    return result


def plan(state: State, first: str, second: str, attacker: str | None = None, brotherhood: Sequence[str] = ()) -> Where:
    """`cok where P1 P2`: who chooses the battle's location, and the legal locations."""
    from cok.rulesets.clash_of_kings.rules.where import where

    a, b = player(state, first), player(state, second)
    if a == b:
        raise RuleError(f"a battle needs two different players, not {a} twice")
    bwb = [player(state, p, "brotherhood") for p in brotherhood]
    given = player(state, attacker, "attacker") if attacker else None
    return where(state, a, b, bwb, given)


# ---------------------------------------------------------------- the events


def _join(state: State, fields: Fields, answers: Fields, dice: Dice) -> EventBase:
    from cok.rulesets.clash_of_kings.events import Join

    pid = fields.get("player")
    if isinstance(pid, str) and pid != pid.lower():
        raise RuleError(f"player ids are lowercase: use {pid.lower()!r} (and `name` {pid!r})")
    return Join(  # the faction, the castle and the territories as typed: `build` spells them
        player=pid,
        name=fields.get("name"),
        faction=fields.get("faction"),
        castle=answers.get("castle") or fields.get("castle") or None,
        territories=fields.get("territories") or None,
        note=fields.get("note"),
    )


def _week(state: State, fields: Fields, answers: Fields, dice: Dice) -> EventBase:
    """Issue #29: a points limit that goes down, or below week 1's, is allowed (an
    organiser's choice) but asked about first: it is most often a typo."""
    from cok.rulesets.clash_of_kings.events import Week

    event = Week(limit=fields.get("limit"), note=fields.get("note"))
    limit, now, first = event.limit, state.limit, state.limits[0]
    if limit is not None and (limit < now or limit < first) and answers.get(LOWER_LIMIT) is not True:
        lower = f"week {state.week}'s {now}" if limit < now else f"week 1's {first}"
        raise ConfirmNeeded(
            f"week {state.week + 1}'s points limit of {limit} is lower than {lower}: "
            "armies would have to shrink from one week to the next",
            LOWER_LIMIT,
        )
    return event


def _battle(state: State, fields: Fields, answers: Fields, dice: Dice) -> EventBase:
    from cok.rulesets.clash_of_kings.events import Battle

    players = fields.get("players")
    if isinstance(players, (list, tuple)) and all(isinstance(p, str) for p in players):
        players = [player(state, p, "players") for p in players]
    attacker = answers.get("attacker") or fields.get("attacker")
    if attacker is None and answers.get(ROLL) is True and isinstance(players, list) and len(players) == 2:
        rolling = [player(state, p, "brotherhood") for p in fields.get("brotherhood") or []]
        attacker = roll_off(state, players, rolling, dice)
    abandon = answers.get("abandon") or fields.get("abandon")
    winner = fields.get("winner")
    return Battle(  # players found in this order, the first mistake said; `build` spells the rest
        players=players,
        location=fields.get("location"),
        week=fields.get("week"),
        attacker=player(state, attacker, "attacker") if attacker else None,
        winner=player(state, winner, "winner") if winner else None,
        vp=scores(state, fields.get("vp"), "vp"),
        remaining=scores(state, answers.get("remaining") or fields.get("remaining"), "remaining"),
        mode=fields.get("mode"),
        points=fields.get("points"),
        brotherhood=[player(state, p, "brotherhood") for p in fields.get("brotherhood") or []],
        abandon=abandon or None,
        occupy=answers.get("occupy", fields.get("occupy", True)),
        override=fields.get("override"),
        note=fields.get("note"),
    )


def roll_off(state: State, players: Sequence[str], brotherhood: Sequence[str], dice: Dice) -> str | None:
    """Choosing the Attacker: players holding as many territories roll off, a die each,
    again on a tie; the roll's winner attacks. None when no roll-off is needed (the rules
    say who attacks)."""
    from cok.rulesets.clash_of_kings.rules.where import where

    a, b = players
    if a == b or a not in state.players or b not in state.players:
        return None
    if where(state, a, b, brotherhood).decided_by != "roll-needed":
        return None
    a, b = sorted((a, b))  # one roll-off a pair a week: [tim, matt] and [matt, tim] roll the same dice
    dice = dice.rolling(f"roll-off week {state.week} {a} {b}")
    while True:
        first, second = dice.roll(6), dice.roll(6)
        if first != second:
            return a if first > second else b


def _painting(state: State, fields: Fields, answers: Fields, dice: Dice) -> EventBase:
    from cok.rulesets.clash_of_kings.events import Painting

    commissioned = fields.get("commissioned")
    return Painting(
        player=player(state, fields.get("player")),
        week=fields.get("week"),
        fully_painted=fields.get("fully_painted", False),
        units=fields.get("units", 0),
        models=fields.get("models", 0),
        commissioned=player(state, commissioned, "commissioned") if commissioned else None,
        note=fields.get("note"),
    )


def _adjust(state: State, fields: Fields, answers: Fields, dice: Dice) -> EventBase:
    from cok.rulesets.clash_of_kings.events import Adjust

    who = player(state, fields.get("player"))
    return Adjust(player=who, cp=fields.get("cp"), reason=fields.get("reason"), note=fields.get("note"))


_BUILDERS: dict[str, Callable[[State, Fields, Fields, Dice], EventBase]] = {
    "join": _join,
    "week": _week,
    "battle": _battle,
    "painting": _painting,
    "adjust": _adjust,
}


# ---------------------------------------------------------------- fair dice (docs/dice.md)


def period(state: State) -> str:
    """A week: its roll-offs' dice are committed and revealed on their own."""
    return f"week {state.week}"


def dice_agree(type: str, fields: dict[str, Any], dice: list[int]) -> str | None:
    """A roll-off: a die each, in the order its roll names the players (their ids sorted; a
    roll recorded before, in the battle's order), again on a tie; the higher die attacks."""
    players, attacker = fields.get("players") or [], fields.get("attacker")
    if type != "battle" or len(players) != 2:
        return None
    players = named_in_roll(fields, players)
    pairs = list(zip(dice[::2], dice[1::2], strict=False))
    decided = next(((a, b) for a, b in pairs if a != b), None)
    if decided is None or len(dice) != 2 * (pairs.index(decided) + 1):
        return f"the dice {dice} are not a roll-off that ends with its first unequal pair"
    winner = players[0] if decided[0] > decided[1] else players[1]
    return None if winner == attacker else f"the roll-off's dice {dice} make {winner} the attacker, not {attacker}"


def named_in_roll(fields: dict[str, Any], players: list[str]) -> list[str]:
    """The players in the order the roll's identity names them (`roll-off week 3 matt tim`),
    the order their dice were rolled in; the battle's own order when it names them otherwise."""
    rolled = fields.get("rolled")
    named = str(rolled.get("what", "")).split()[-2:] if isinstance(rolled, dict) else []
    return named if sorted(named) == sorted(players) else list(players)
