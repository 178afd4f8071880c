"""Cards played from the players' own phones before a combat is recorded (§4.4 Cards: "starting
with the active player and moving clockwise, each player may choose to play a House Card"):
the active player opens with the house it moves and the area it enters, then each player who
could play a card of either house plays one or none, in turn; the resolve that fights there
takes these cards. A table that records the whole combat at once (the terminal, an organiser)
gives the cards in the resolve instead."""

from __future__ import annotations

from cok.core.errors import RuleError
from cok.rulesets.no_true_king.events import Card
from cok.rulesets.no_true_king.rules.actions import can_draw, enters_troops
from cok.rulesets.no_true_king.rules.outcomes import CardPlayed
from cok.rulesets.no_true_king.rules.places import find_area, find_card, find_house
from cok.rulesets.no_true_king.rules.state import Game


def could_play(state: Game, player: str, houses: tuple[str, str]) -> bool:
    """Whether a player holds a card of either house of the combat: one who holds none is
    not asked (a card drawn this turn is the active player's, who is always asked)."""
    return any(state.held.get((player, h), 0) > 0 for h in houses)


def playable(state: Game, player: str) -> list[tuple[str, str]]:
    """(house, card) of the cards a conspiracy may play: a house it holds a card of, the card
    not yet played (§4.5)."""
    held = state.cards_held(player)
    return [
        (house, card.name) for house in held for card in state.board.house_cards(house) if card.name not in state.played
    ]


def next_to_play(state: Game) -> str | None:
    """Who plays next on the table: the active player first, then clockwise each player who
    could play; None once every such player has played (or before the table opens)."""
    if state.active is None or state.fight_at is None:
        return None
    houses = (state.fight_at[0], state.troops_house(state.fight_at[1]))
    done = {p for p, _ in state.table}
    for player in state.clockwise_from(state.active)[1:]:
        if player not in done and could_play(state, player, houses):
            return player
    return None


def others_could_play(state: Game, house: str, area: str) -> bool:
    """Whether any player after the active one could play a card in this combat: then its
    cards are played from the phones before the resolve."""
    if state.active is None or area not in state.troops:
        return False
    houses = (house, state.troops[area][0])
    return any(could_play(state, p, houses) for p in state.clockwise_from(state.active)[1:])


def play(state: Game, event: Card) -> CardPlayed:
    if state.phase != "resolution" or state.active is None:
        raise RuleError("cards are played in a combat, while agents resolve")
    player = event.player
    if not state.table:
        if player != state.active:
            raise RuleError(f"{state.active}, the active player, plays first and names the combat (`house`, `to`)")
        if event.house is None or event.to is None:
            raise RuleError("the active player's card names the combat: the `house` it moves, the area it enters `to`")
        house, area = find_house(state.board, event.house), find_area(state.board, event.to)
        if not any(h == house for h, _ in _agents(state)):
            raise RuleError(f"{player} has no {house} agent that may resolve now")
        defender = enters_troops(state, house, area)
        if defender is None:
            raise RuleError(f"{area} holds no other house's troops: a move there is no combat")
        state.fight_at = (house, area)
    else:
        if event.house is not None or event.to is not None:
            raise RuleError("only the active player's card names the combat")
        expected = next_to_play(state)
        if expected is None:
            raise RuleError(f"every card is played: the ledger waits for {state.active} to resolve the combat")
        if player != expected:
            raise RuleError(f"cards are played in turn from the active player: {expected} plays now")
    assert state.fight_at is not None
    house, area = state.fight_at
    houses = (house, state.troops_house(area))
    name = None
    if event.card is not None:
        card = find_card(state.board, event.card)
        if card.house not in houses:
            raise RuleError(f"{card.name} is a {card.house} card; the combat is {houses[0]} against {houses[1]}")
        if card.name in state.played or any(c == card.name for _, c in state.table):
            raise RuleError(f"{card.name} has already been played")
        drawing = player == state.active and card.house == house and can_draw(state, house)
        if state.held.get((player, card.house), 0) < 1 and not drawing:
            raise RuleError(f"{player} holds no {card.house} card to play {card.name}")
        name = card.name
    state.table = [*state.table, (player, name)]
    return CardPlayed(player, name, house, area, next_to_play(state))


def _agents(state: Game) -> list[tuple[str, str]]:
    from cok.rulesets.no_true_king.rules.turns import may_resolve

    return may_resolve(state, state.active) if state.active else []


def check_resolved_here(state: Game, fought_at: list[tuple[str, str]], cards: dict[str, str | None]) -> None:
    """A resolve after cards were played from the phones fights where they were played for,
    with those cards; then the table is cleared."""
    if not state.table:
        return
    waiting = next_to_play(state)
    if waiting is not None:
        raise RuleError(f"the ledger waits for {waiting} to play a card (or none) before the combat")
    assert state.fight_at is not None
    if state.fight_at not in fought_at:
        house, area = state.fight_at
        raise RuleError(f"the cards on the table were played for {house}'s combat in {area}: fight there")
    played = {p: c for p, c in state.table if c is not None}
    given = {p: c for p, c in cards.items() if c is not None}
    if given != played:
        raise RuleError("the combat's cards are the ones played from the phones")
