"""Cards played from the players' own phones before a combat is recorded (§4.4 Cards: "starting
with the active player and moving clockwise, each player may choose to play a House Card"):
the active player opens with the house it moves and the area it enters, then each player who
could play a card of either house plays one or none, in turn; the resolve that fights there
takes these cards. A table that records the whole combat at once (the terminal, an organiser)
gives the cards in the resolve instead. A combat Asha Greyjoy's granted move fights (once every
card of the first is played) has its own table, opened by the active player in the same way."""

from __future__ import annotations

from collections.abc import Sequence

from cok.core.errors import RuleError
from cok.rulesets.no_true_king.events import Card
from cok.rulesets.no_true_king.rules.actions import can_draw, enters_troops
from cok.rulesets.no_true_king.rules.combat import ASHA, GRANTS
from cok.rulesets.no_true_king.rules.outcomes import CardPlayed
from cok.rulesets.no_true_king.rules.state import Realm


def could_play(state: Realm, player: str, houses: tuple[str, str]) -> bool:
    """Whether a player holds a card of either house of the combat: one who holds none is
    not asked (a card drawn this turn is the active player's, who is always asked)."""
    return any(_left(state, player, h) > 0 for h in houses)


def _left(state: Realm, player: str, house: str) -> int:
    """The cards of a house a player still holds for this table: those held, less those
    already played in the first combat of this move (a granted combat's table)."""
    spent = sum(1 for p, c in state.won_table if p == player and c is not None and _house_of(state, c) == house)
    return state.held.get((player, house), 0) - spent


def _house_of(state: Realm, card: str) -> str:
    return state.board.cards[card].house


def may_open_granted(state: Realm) -> bool:
    """Whether the active player may open the table of Asha Greyjoy's granted move (§4.4): every
    card of the first combat is played, Asha among them, and no granted table is open yet."""
    return (
        bool(state.table)
        and state.won_at is None
        and next_to_play(state) is None
        and any(c == ASHA for _, c in state.table)
    )


def playable(state: Realm, player: str) -> list[tuple[str, str]]:
    """(house, card) of the cards a conspiracy may play: a house it holds a card of, the card
    not yet played (§4.5)."""
    held = state.cards_held(player)
    return [
        (house, card.name) for house in held for card in state.board.house_cards(house) if card.name not in state.played
    ]


def next_to_play(state: Realm) -> str | None:
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


def others_could_play(state: Realm, house: str, area: str) -> bool:
    """Whether any player after the active one could play a card in this combat: then its
    cards are played from the phones before the resolve."""
    if state.active is None or area not in state.troops:
        return False
    houses = (house, state.troops[area][0])
    return any(could_play(state, p, houses) for p in state.clockwise_from(state.active)[1:])


def others_could_play_granted(state: Realm, area: str) -> bool:
    """Whether a player after the active one could play a card in the combat of Asha
    Greyjoy's granted move into this area, the cards on the first combat's table spent."""
    if state.active is None or area not in state.troops:
        return False
    houses = (GRANTS[ASHA][0], state.troops[area][0])
    for player in state.clockwise_from(state.active)[1:]:
        for house in houses:
            spent = sum(1 for p, c in state.table if p == player and c is not None and _house_of(state, c) == house)
            if state.held.get((player, house), 0) - spent > 0:
                return True
    return False


def play(state: Realm, event: Card) -> CardPlayed:
    if state.phase != "resolution" or state.active is None:
        raise RuleError("cards are played in a combat, while agents resolve")
    player = event.player
    if state.table and event.house is not None and may_open_granted(state):
        if player != state.active:
            raise RuleError(f"{state.active}, the active player, opens the table of Asha Greyjoy's move")
        if event.to is None:
            raise RuleError("the card that opens Asha Greyjoy's table names the area her move enters: `to`")
        house, area = event.house, event.to
        if house != GRANTS[ASHA][0]:
            raise RuleError(f"Asha Greyjoy grants a move for {GRANTS[ASHA][0]}, not for {house}")
        if enters_troops(state, house, area) is None:
            raise RuleError(f"{area} holds no other house's troops: a move there is no combat")
        state.won_table, state.won_at = list(state.table), state.fight_at
        state.table, state.fight_at = [], (house, area)
    elif not state.table:
        if player != state.active:
            raise RuleError(f"{state.active}, the active player, plays first and names the combat (`house`, `to`)")
        if event.house is None or event.to is None:
            raise RuleError("the active player's card names the combat: the `house` it moves, the area it enters `to`")
        house, area = event.house, event.to
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
        card = state.board.cards[event.card]
        if card.house not in houses:
            raise RuleError(f"{card.name} is a {card.house} card; the combat is {houses[0]} against {houses[1]}")
        if card.name in state.played or any(c == card.name for _, c in [*state.won_table, *state.table]):
            raise RuleError(f"{card.name} has already been played")
        drawing = player == state.active and card.house == house and can_draw(state, house) and state.won_at is None
        if _left(state, player, card.house) < 1 and not drawing:
            raise RuleError(f"{player} holds no {card.house} card to play {card.name}")
        name = card.name
    state.table = [*state.table, (player, name)]
    return CardPlayed(player, name, house, area, next_to_play(state))


def _agents(state: Realm) -> list[tuple[str, str]]:
    return state.may_resolve(state.active) if state.active else []


def check_resolved_here(
    state: Realm,
    fought_at: list[tuple[str, str]],
    cards: dict[str, str | None],
    granted: tuple[tuple[str, str], dict[str, str | None]] | None = None,
) -> None:
    """A resolve after cards were played from the phones fights where they were played for,
    with those cards (and Asha's granted move, where its table's cards were played: `granted`,
    its combat's place and cards); then the table is cleared."""
    if not state.table:
        return
    waiting = next_to_play(state)
    if waiting is not None:
        raise RuleError(f"the ledger waits for {waiting} to play a card (or none) before the combat")
    assert state.fight_at is not None
    first = (state.won_at, state.won_table) if state.won_at is not None else (state.fight_at, state.table)
    _same_combat(first[0], first[1], fought_at, cards)
    if state.won_at is not None:
        area = state.fight_at[1]
        if granted is None:
            raise RuleError(f"the cards were played for Asha Greyjoy's move into {area}: make that move, which fights")
        _same_combat(state.fight_at, state.table, [granted[0]], granted[1])


def _same_combat(
    at: tuple[str, str] | None,
    table: Sequence[tuple[str, str | None]],
    fought_at: list[tuple[str, str]],
    cards: dict[str, str | None],
) -> None:
    assert at is not None
    if at not in fought_at:
        house, area = at
        raise RuleError(f"the cards on the table were played for {house}'s combat in {area}: fight there")
    played = {p: c for p, c in table if c is not None}
    given = {p: c for p, c in cards.items() if c is not None}
    if given != played:
        raise RuleError("the combat's cards are the ones played from the phones")
