"""From what a user gave to the event the log will hold, for the command line and the
phone alike: names in any spelling, the answers to the rules' questions routed into the
combat they belong to (`then-…` into a granted move's), and the combat a move into another
house's troops records even when no card was played (contract §4.5). Pure: it reads the
state, changes nothing, and refuses with RuleError; the rules decide afterwards. Names become
the board's own spelling in one place, `rules/spelling.py`: every event built here passes
through it, so the log holds the board's spelling of every area, card and house whoever sent
it; players and houses are found here first, as the event's model takes only ids."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from contextlib import suppress
from typing import TYPE_CHECKING, Any

from cok.core.dice import ROLL
from cok.core.errors import RuleError
from cok.rulesets.no_true_king.rules import spelling
from cok.rulesets.no_true_king.rules.places import find_area, find_house, find_player
from cok.rulesets.no_true_king.rules.state import State

if TYPE_CHECKING:
    from cok.core.dice import Dice
    from cok.core.events import EventBase

Fields = Mapping[str, Any]
#: An answer for the combat of a move a card granted (Asha, Jaime) starts with this.
THEN = "then-"


def build(state: State, type: str, fields: Fields, answers: Fields, dice: Dice) -> EventBase | None:
    """The event of this type from the fields as typed and the answers given; None for a
    type read in the log's own shape (a void)."""
    maker = _BUILDERS.get(type)
    return None if maker is None else spelling.spelled(state, maker(state, fields, answers, dice))


def named(state: State, type: str, fields: Fields) -> frozenset[str] | None:
    """The conspiracy a draft acts as (a join names the one joining, as typed): who may
    record it. None for a type it does not build."""
    if type not in _BUILDERS:
        return None
    typed = fields.get("player")
    if not isinstance(typed, str):
        return frozenset()
    if type == "conspiracy":
        return frozenset({typed.strip()})
    with suppress(RuleError):  # an unknown name is no one
        acting = find_player(state, typed)
        if type == "resolve" and any(p != acting for p in card_players(state, fields)):
            return frozenset()  # another's card: only its player (or an organiser) plays it (§4.4)
        if type == "resolve" and (_others_to_play(state, fields) or _granted_waiting(state, fields) is not None):
            return frozenset()  # the others play theirs first, from their phones (`card`)
        return frozenset({acting})
    return frozenset()


def _others_to_play(state: State, fields: Fields) -> bool:
    """A resolve whose move fights, with no cards played from the phones for it yet while
    another player could play one: recording it would play "none" for them."""
    return _waiting_cards(state, fields) is not None


def _waiting_cards(state: State, fields: Fields) -> tuple[str, str, list[str]] | None:
    """(house, area, the players who could play, clockwise from the active one) of a resolve
    whose move fights before the cards are played from the phones; None otherwise."""
    from cok.rulesets.no_true_king.rules.cards import could_play, others_could_play

    if state.table or state.active is None:
        return None  # the cards were played; the rules check they are this combat's
    try:
        hid = house(state, fields.get("house"))
    except RuleError:
        return None
    fight = empty_combat(state, hid, fields.get("actions"))
    if fight is None and not isinstance(fields.get("combat"), Mapping):
        return None
    for action in fields.get("actions") or [] if isinstance(fields.get("actions"), list) else []:
        move = action.get("move") if isinstance(action, Mapping) else None
        if isinstance(move, Mapping) and isinstance(move.get("to"), str):
            with suppress(RuleError):
                area = find_area(state.board, move["to"])
                if others_could_play(state, hid, area):
                    houses = (hid, state.troops[area][0])
                    after = state.clockwise_from(state.active)[1:]
                    return hid, area, [p for p in after if could_play(state, p, houses)]
    return None


def refusal(state: State, type: str, fields: Fields, who: str) -> str | None:
    """Why a player may not record a resolve, in the game's words (the API's 403): its combat
    waits for the others' cards, played in turn from their own phones (§4.4), or it names
    another player's card. None: the general answer stands."""
    if type != "resolve":
        return None
    names = {p: c.name for p, c in state.players.items()}
    others = sorted(names.get(p, p.lstrip("?")) for p in card_players(state, fields) if p != who)
    if others:
        return (
            f"a card is played only by its own player: {', '.join(others)} play{'s' if len(others) == 1 else ''} "
            "theirs from their own phone (a `card` event), or an organiser records it"
        )
    waiting = _waiting_cards(state, fields)
    granted_at = _granted_waiting(state, fields)
    if waiting is None and granted_at is not None:
        return (
            f"Asha Greyjoy's move into {granted_at} fights: its cards are played first, in turn from the active "
            "player, as the first combat's — once the first combat's cards are played (Asha among them), open its "
            f"table with a `card` event (your card or none, the `house` greyjoy and `to` {granted_at}); then resolve"
        )
    if waiting is None:
        return None
    hid, area, players = waiting
    said = ", then ".join(names.get(p, p) for p in players)
    return (
        f"{hid}'s move into {area} fights: the cards are played first, in turn from the active player "
        f"— open the table with a `card` event (your card or none, the `house` {hid} and `to` {area}), "
        f"then {said} play{'s' if len(players) == 1 else ''} theirs (or none) from their own phone; "
        "then resolve the agent"
    )


def _granted_waiting(state: State, fields: Fields) -> str | None:
    """The area Asha Greyjoy's granted move fights in, when a resolve gives it while its cards
    are not played from the phones and another player could play one there (§4.4): recording
    it would play "none" for them. None otherwise."""
    from cok.rulesets.no_true_king.rules.cards import others_could_play_granted

    fight = fields.get("combat")
    after = fight.get("after") if isinstance(fight, Mapping) else None
    move = after[0].get("move") if isinstance(after, list) and after and isinstance(after[0], Mapping) else None
    if state.won_at is not None or state.active is None or not isinstance(move, Mapping):
        return None
    with suppress(RuleError):
        area = find_area(state.board, str(move.get("to", "")))
        if state.troops_house(area) not in ("", "greyjoy") and others_could_play_granted(state, area):
            return area
    return None


def card_players(state: State, fields: Fields) -> set[str]:
    """The conspiracies whose cards a resolve's combats play (a card named, not `none`), the
    granted moves' combats included: each card is its own player's act (§4.4 Cards)."""
    found: set[str] = set()
    combats = [fields.get("combat")]
    actions = list(fields.get("actions") or []) if isinstance(fields.get("actions"), list) else []
    while combats or actions:
        if actions:
            action = actions.pop()
            combats.append(action.get("combat") if isinstance(action, Mapping) else None)
            continue
        fight = combats.pop()
        if not isinstance(fight, Mapping):
            continue
        cards = fight.get("cards")
        for typed, card in cards.items() if isinstance(cards, Mapping) else ():
            if card in (None, "", "none"):
                continue
            try:
                found.add(find_player(state, typed))
            except RuleError:
                found.add(f"?{typed}")  # someone not in the game: never the recorder
        after = fight.get("after")
        actions.extend(after if isinstance(after, list) else [])
    return found


# ---------------------------------------------------------------- names


def player(state: State, typed: Any, field: str = "player") -> str:
    """A conspiracy's id from its id or name in any case."""
    if not isinstance(typed, str):
        raise RuleError(f"`{field}` names a conspiracy: an id or a name, not {typed!r}")
    return find_player(state, typed)


def houses(state: State, typed: Any, field: str = "loyalty") -> list[str]:
    """Houses in any case: a loyalty card's, in its order."""
    if not isinstance(typed, (list, tuple)) or not all(isinstance(h, str) for h in typed):
        raise RuleError(f"`{field}` lists houses, e.g. [baratheon, stark, lannister, greyjoy, tyrell]")
    return [find_house(state.board, h) for h in typed]


def house(state: State, typed: Any, field: str = "house") -> str:
    if not isinstance(typed, str):
        raise RuleError(f"`{field}` names a house, not {typed!r}")
    return find_house(state.board, typed)


def _word(typed: Any) -> Any:
    return typed.strip().casefold() if isinstance(typed, str) else typed


# ---------------------------------------------------------------- the empty combat


def empty_combat(state: State, house: str, taken: Any) -> dict[str, Any] | None:
    """A move into another house's troops with no card played still records its combat (§4.5)."""
    for action in taken if isinstance(taken, list) else []:
        move = action.get("move") if isinstance(action, Mapping) else None
        if isinstance(move, Mapping) and isinstance(move.get("to"), str):
            try:
                to = find_area(state.board, move["to"])
            except RuleError:
                return None
            holder = state.troops.get(to)
            if holder is not None and holder[0] != house:
                return {"cards": {}}
    return None


def with_answers(fight: Any, answers: Fields) -> dict[str, Any] | None:
    """The combat with the rules' answers in place: `winner`, `retreat`… into the combat,
    `then-winner`, `then-retreat`… into the combat of the move a card granted."""
    given: dict[str, Any] = dict(fight) if isinstance(fight, Mapping) else {}
    given.update({k: v for k, v in answers.items() if not k.startswith(THEN)})
    inner = {k.removeprefix(THEN): v for k, v in answers.items() if k.startswith(THEN)}
    if inner and given.get("after"):
        after = dict(given["after"][0])
        after["combat"] = {**after.get("combat", {"cards": {}}), **inner}
        given["after"] = [after]
    return given or None


# ---------------------------------------------------------------- the events


def _conspiracy(state: State, fields: Fields, answers: Fields, dice: Dice) -> EventBase:
    from cok.rulesets.no_true_king.events import Conspiracy

    loyalty = fields.get("loyalty")
    return Conspiracy(
        player=fields.get("player"),
        name=fields.get("name"),
        symbol=_word(fields.get("symbol")),
        seal=fields.get("seal"),
        loyalty=houses(state, loyalty) if loyalty else None,
        note=fields.get("note"),
    )


def _begin(state: State, fields: Fields, answers: Fields, dice: Dice) -> EventBase:
    """The seats as typed; the first player chosen, or "roll it for me": one die of as many
    faces as seats, its number the seat (the source: "randomly select")."""
    from cok.rulesets.no_true_king.events import Begin

    seats = fields.get("seats")
    typed = [seats] if isinstance(seats, str) else list(seats) if isinstance(seats, (list, tuple)) else []
    found = [player(state, p, "seats") for item in typed for p in str(item).split(",") if p.strip()]
    first = fields.get("first")
    if first is None and answers.get(ROLL) is True:
        first = first_player(found, dice)
    if first is None:
        raise RuleError("choose the first player: `first`")
    return Begin(seats=found, first=player(state, first, "first"), note=fields.get("note"))


def first_player(seats: list[str], dice: Dice) -> str:
    """The first player at random: a die of as many faces as seats, counting the players in
    the order of their ids (the roll every game's "roll it for me" makes, checked with the
    campaign's fair dice): the same table typed from another seat, or in other names, is the
    same roll and draws the same player, never a second draw to choose from."""
    if not seats:
        raise RuleError("`seats` names every player once, clockwise")
    drawn = sorted(seats)
    return drawn[dice.rolling("seating " + " ".join(drawn)).roll(len(drawn)) - 1]


def _place(state: State, fields: Fields, answers: Fields, dice: Dice) -> EventBase:
    from cok.rulesets.no_true_king.events import Place

    pid, hid = player(state, fields.get("player")), house(state, fields.get("house"))
    return Place(player=pid, house=hid, space=_word(fields.get("space")), note=fields.get("note"))


def _resolve(state: State, fields: Fields, answers: Fields, dice: Dice) -> EventBase:
    from cok.rulesets.no_true_king.events import Resolve

    pid, hid = player(state, fields.get("player")), house(state, fields.get("house"))
    taken = fields.get("actions") or []
    fight = fields.get("combat") or empty_combat(state, hid, taken)
    if state.table and isinstance(fight, Mapping):  # the cards played from the phones (`card`)
        first = state.won_table if state.won_at is not None else state.table
        fight = {**fight, "cards": {**dict(fight.get("cards") or {}), **dict(first)}}
        if state.won_at is not None and fight.get("after"):  # Asha's granted move: its own table's
            (after,) = fight["after"]
            inner = dict(after.get("combat") or {})
            inner["cards"] = {**dict(inner.get("cards") or {}), **dict(state.table)}
            fight["after"] = [{**after, "combat": inner}]
    return Resolve(
        player=pid,
        house=hid,
        space=_word(fields.get("space")),
        actions=taken,
        combat=with_answers(fight, answers),
        note=fields.get("note"),
    )


def _card(state: State, fields: Fields, answers: Fields, dice: Dice) -> EventBase:
    from cok.rulesets.no_true_king.events import Card

    given = fields.get("house")
    return Card(
        player=player(state, fields.get("player")),
        card=fields.get("card") or None,
        house=house(state, given) if given else None,
        to=fields.get("to") or None,
        note=fields.get("note"),
    )


def _exchange(state: State, fields: Fields, answers: Fields, dice: Dice) -> EventBase:
    from cok.rulesets.no_true_king.events import Exchange

    pid = player(state, fields.get("player"))
    return Exchange(player=pid, swap=fields.get("swap"), reveal=fields.get("reveal"), note=fields.get("note"))


def _pass(state: State, fields: Fields, answers: Fields, dice: Dice) -> EventBase:
    from cok.rulesets.no_true_king.events import Pass

    return Pass(player=player(state, fields.get("player")), note=fields.get("note"))


def _unseal(state: State, fields: Fields, answers: Fields, dice: Dice) -> EventBase:
    from cok.rulesets.no_true_king.events import Unseal

    pid = player(state, fields.get("player"))
    card = houses(state, fields.get("loyalty"))
    secret = fields.get("secret")
    secret = secret.strip() if isinstance(secret, str) else secret
    return Unseal(player=pid, loyalty=card, secret=secret, note=fields.get("note"))


_BUILDERS: dict[str, Callable[[State, Fields, Fields, Dice], EventBase]] = {
    "conspiracy": _conspiracy,
    "begin": _begin,
    "place": _place,
    "resolve": _resolve,
    "card": _card,
    "exchange": _exchange,
    "pass": _pass,
    "unseal": _unseal,
}


# ---------------------------------------------------------------- fair dice (docs/dice.md)


def period(state: State) -> str:
    """A round (the seating before the first)."""
    return f"round {state.round}" if state.round else "the seating"


def dice_agree(type: str, fields: dict[str, Any], dice: list[int]) -> str | None:
    """The first player: the seat the die of as many faces as seats shows."""
    seats = fields.get("seats") or []
    if type != "begin" or len(dice) != 1 or not 1 <= dice[0] <= len(seats):
        return None if type != "begin" else f"one die of {len(seats)} faces chooses the first player, not {dice}"
    rolled = fields.get("rolled")
    named = str(rolled.get("what", "")).split()[1:] if isinstance(rolled, dict) else []
    drawn = named if sorted(named) == sorted(seats) else seats  # the players as the roll names them
    chosen = drawn[dice[0] - 1]
    return None if chosen == fields.get("first") else f"the die {dice[0]} chooses {chosen}, not {fields.get('first')}"
