"""Names as people type them become the board's and the game's own ids here, and only here:
the one step every event takes before the rules decide it (`rules/apply.py`'s `decide`), and
the one that builds what the log holds (`intents.py`). A name matches case-insensitively,
ignoring spaces and punctuation (`places.py`'s finders, the core's `find`); an unknown one is
refused with "did you mean". A hand-written log in another spelling (`kings landing`,
`jaime lannister`) still folds: its events are made exact here first. After this step the
rules look names up exactly (`state.board.areas[area]`, `state.board.cards[name]`,
`state.players[pid]`).

What it spells: the acting `player`, a `house`, every area of a resolve's actions (a muster's
areas, its ships' seas, its promotions, a move's `from` and `to`), its combats (the cards'
players and names, the `winner`, the `retreat`, the granted `after` action, Cersei's `remove`,
Melisandre's `discard`), a card's `card`, `house` and `to`, an exchange's revealed house. A
loyalty card is not spelled: its seal is made over its exact words (§4.6)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cok.core.events import EventBase, amended
from cok.core.names import spelled_by
from cok.rulesets.no_true_king.events import Action, Card, Combat, Exchange, Pass, Place, Resolve, ShipTo, Unseal
from cok.rulesets.no_true_king.map import Board
from cok.rulesets.no_true_king.rules.places import find_area, find_card, find_house, find_player
from cok.rulesets.no_true_king.rules.state import Realm


def spelled(state: Realm, event: EventBase) -> EventBase:
    """The event in the game's own spelling (`spelled_by`, by this module's `_SPELL`)."""
    return spelled_by(_SPELL, state, event)


def _acting(state: Realm, event: Place | Resolve | Card | Exchange | Pass | Unseal) -> dict[str, Any]:
    """The conspiracy acting, as its id (the rules once only checked that the name was known)."""
    return {"player": find_player(state, event.player)}


def _place(state: Realm, event: Place) -> EventBase:
    return amended(event, {**_acting(state, event), "house": find_house(state.board, event.house)})


def _resolve(state: Realm, event: Resolve) -> EventBase:
    changes = {**_acting(state, event), "house": find_house(state.board, event.house)}
    changes["actions"] = _actions(state, event.actions)
    changes["combat"] = _combat(state, event.combat)
    return amended(event, changes)


def _card(state: Realm, event: Card) -> EventBase:
    board = state.board
    changes = _acting(state, event)
    if event.card is not None:
        changes["card"] = find_card(board, event.card).name
    if event.house is not None:
        changes["house"] = find_house(board, event.house)
    if event.to is not None:
        changes["to"] = find_area(board, event.to)
    return amended(event, changes)


def _exchange(state: Realm, event: Exchange) -> EventBase:
    changes = _acting(state, event)
    if event.reveal is not None:
        changes["reveal"] = {k: find_house(state.board, h) for k, h in event.reveal.items()}
    return amended(event, changes)


def _actor(state: Realm, event: Pass | Unseal) -> EventBase:
    return amended(event, _acting(state, event))


def _actions(state: Realm, actions: list[Action]) -> list[Action]:
    spelled = [_action(state, a) for a in actions]
    return actions if all(a is b for a, b in zip(spelled, actions, strict=True)) else spelled


def _action(state: Realm, action: Action) -> Action:
    board = state.board
    changes: dict[str, Any] = {}
    if action.muster is not None:
        changes["muster"] = spelled_muster(board, action.muster)
    if action.move is not None:
        move = action.move
        changes["move"] = amended(move, {"from_": find_area(board, move.from_), "to": find_area(board, move.to)})
    if action.combat is not None:
        changes["combat"] = _combat(state, action.combat)
    return amended(action, changes)


def spelled_muster(board: Board, muster: dict[str, Any]) -> dict[str, Any]:
    """A muster's areas, its ships' seas (`ShipTo`, or `{ship: SEA}` as a form gives it) and
    its promotions (`promote`); two spellings of one area are one area (its barrels count what
    both add). Also for `cok ntk combat`'s preview of what a resolve does before its move."""
    found: dict[str, list[Any]] = {}
    for typed, items in muster.items():
        if typed == "promote":
            found.setdefault(typed, []).extend(find_area(board, i) if isinstance(i, str) else i for i in items)
            continue
        found.setdefault(find_area(board, typed), []).extend(_ship(board, i) for i in items)
    return muster if found == muster else found


def _ship(board: Board, item: Any) -> Any:
    if isinstance(item, ShipTo):
        return amended(item, {"ship": find_area(board, item.ship)})
    if isinstance(item, dict) and isinstance(item.get("ship"), str):
        return {**item, "ship": find_area(board, item["ship"])}
    return item  # `footman`, or what the rules refuse with their words


def spelled_cards(state: Realm, cards: dict[str, str | None]) -> dict[str, str | None]:
    """A combat's cards: each player's id and the board's name of the card (None: no card).
    Also for `cok ntk combat`'s preview of the cards named."""
    found = {find_player(state, p): None if c is None else find_card(state.board, c).name for p, c in cards.items()}
    return cards if found == cards else found


def _combat(state: Realm, combat: Combat | None) -> Combat | None:
    if combat is None:
        return None
    board = state.board
    changes: dict[str, Any] = {"cards": spelled_cards(state, combat.cards)}
    if combat.winner is not None:
        changes["winner"] = find_house(board, combat.winner)
    if combat.retreat is not None:
        changes["retreat"] = find_area(board, combat.retreat)
    if combat.after is not None:
        changes["after"] = _actions(state, combat.after)
    if combat.remove is not None:
        changes["remove"] = amended(combat.remove, {"house": find_house(board, combat.remove.house)})
    if combat.discard is not None:
        discard = combat.discard
        changes["discard"] = amended(
            discard, {"player": find_player(state, discard.player), "house": find_house(board, discard.house)}
        )
    return amended(combat, changes)


#: The events that name something: each made exact by its function.
_SPELL: dict[type[EventBase], Callable[[Realm, Any], EventBase]] = {
    Place: _place,
    Resolve: _resolve,
    Card: _card,
    Exchange: _exchange,
    Pass: _actor,
    Unseal: _actor,
}
