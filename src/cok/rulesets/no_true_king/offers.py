"""What an agent's house may do now, read from the realm (§4.3): the plan of actions its space
allows, the muster's areas (each with its barrels, its seas for a ship, its footmen to
promote), the moves that exist (from, to, and whether they fight); whose turn it is, the cards
a player may play, whether a move opens the cards' table: only legal choices, for the pages
(`table/`), which never ask the rules themselves. Pure: the rules still decide every event
recorded."""

from __future__ import annotations

from collections.abc import Mapping
from contextlib import suppress
from dataclasses import dataclass
from typing import Any

from cok.core.errors import RuleError
from cok.rulesets.no_true_king.rules.actions import can_draw, check_move, muster_points
from cok.rulesets.no_true_king.rules.cards import (
    may_open_granted,
    others_could_play,
    others_could_play_granted,
    playable,
)
from cok.rulesets.no_true_king.rules.combat import ASHA, GRANTS
from cok.rulesets.no_true_king.rules.places import find_area
from cok.rulesets.no_true_king.rules.state import Realm
from cok.rulesets.no_true_king.rules.turns import free_spaces, waiting_for

#: The plans each space allows (§4.2.2, §4.7 Actions left out): a maester takes one action, a
#: marshal its muster and its move in either order (its move left out only when none is legal),
#: a lord two different actions (one alone only when it is a muster and nothing else is left).
PLANS = {
    "maester": ("muster", "move", "draw"),
    "marshal": ("muster move", "move muster", "muster"),
    "lord": ("muster move", "move muster", "muster draw", "draw muster", "move draw", "draw move", "muster"),
}


@dataclass(frozen=True)
class MusterArea:
    name: str
    barrels: int
    seas: tuple[str, ...]  # the seas a ship mustered through it may go to
    footmen: int  # the house's footmen there (promotions)


@dataclass(frozen=True)
class Route:
    origin: str
    to: str
    against: str | None  # the house whose troops it fights, or None
    mustered: bool = False  # from troops the agent's own muster puts there first (muster, then move)

    @property
    def value(self) -> str:
        return f"{self.origin}|{self.to}"


@dataclass(frozen=True)
class Offer:
    house: str
    points: int
    plans: tuple[str, ...]
    musters: tuple[MusterArea, ...]
    promotions: tuple[tuple[str, int], ...]  # (area, footmen there) where the house has footmen elsewhere
    routes: tuple[Route, ...]
    drawable: bool
    #: where the house's troops are, else the areas it controls: where its board opens
    home: tuple[str, ...] = ()


def offer(state: Realm, house: str, space: str) -> Offer:
    board = state.board
    mine = state.controlled(house)
    musters = []
    for area in mine:
        facts = board.areas[area]
        if facts.sea or facts.barrels < 1:
            continue
        seas = tuple(
            s for s in board.neighbours(area) if board.areas[s].sea and state.troops.get(s, (house,))[0] == house
        )
        musters.append(MusterArea(area, facts.barrels, seas, state.force(area, house)[0]))
    listed = {m.name for m in musters}
    promotions = tuple(
        (area, state.force(area, house)[0])
        for area in board.areas
        if state.force(area, house)[0] and area not in listed
    )
    return Offer(
        house,
        muster_points(state, house),
        PLANS.get(space, ()),
        tuple(musters),
        promotions,
        routes(state, house) + after_muster(state, house, tuple(musters)),
        can_draw(state, house),
        tuple(a for a in board.areas if state.force(a, house) != (0, 0, 0)) or tuple(mine),
    )


def routes(state: Realm, house: str) -> tuple[Route, ...]:
    """Every (from, to) where some group of the house's troops may move (§4.3 Move)."""
    found = []
    for area in state.board.areas:
        have = state.force(area, house)
        if not any(have):
            continue
        for to in state.board.neighbours(area):
            if any(check_move(state, house, area, to, g) is None for g in _singles(have)):
                holder = state.troops.get(to)
                found.append(Route(area, to, holder[0] if holder and holder[0] != house else None))
    return tuple(found)


def after_muster(state: Realm, house: str, musters: tuple[MusterArea, ...]) -> tuple[Route, ...]:
    """The moves a muster makes possible for a plan that musters first (§4.2.2: a marshal
    musters, then moves): from an area, or a sea, the house has no troops in before its muster
    (`cok ntk resolve … --muster "Greywater Watch=footman" --move "Greywater Watch" Seagard`)."""
    if not musters:
        return ()
    from cok.rulesets.no_true_king.rules.overlay import Overlay

    mustered = Overlay(state)  # type: ignore[arg-type]  # reads a State or an Overlay alike
    origins = []
    for m in musters:
        if state.force(m.name, house) == (0, 0, 0):
            mustered.set_force(m.name, house, (m.barrels, 0, 0))
            origins.append(m.name)
        for sea in m.seas:
            if sea not in origins and state.force(sea, house) == (0, 0, 0):
                mustered.set_force(sea, house, (0, 0, m.barrels))
                origins.append(sea)
    found = []
    for area in origins:
        have = mustered.force(area, house)
        for to in state.board.neighbours(area):
            if any(check_move(mustered, house, area, to, g) is None for g in _singles(have)):
                holder = state.troops.get(to)
                found.append(Route(area, to, holder[0] if holder and holder[0] != house else None, mustered=True))
    return tuple(found)


def _singles(have: tuple[int, int, int]) -> list[tuple[int, int, int]]:
    """Small groups worth trying: one piece of each kind, a ship with what it carries."""
    f, k, s = have
    tries = [(1, 0, 0), (0, 1, 0), (0, 0, 1), (1, 0, 1), (0, 1, 1), (f, k, s)]
    return [g for g in tries if all(n <= h for n, h in zip(g, have, strict=True))]


def asha_fights(state: Realm, to: str) -> bool:
    """Whether Asha's granted move into `to` fights a combat of its own (§4.4): another
    house's troops hold it."""
    holder = state.troops.get(to)
    return holder is not None and holder[0] != GRANTS[ASHA][0]


# ---------------------------------------------------------------- a conspiracy's turn


@dataclass(frozen=True)
class Turn:
    """What the ledger waits for from a player (§4): the first thing (`what`: place, resolve,
    card, exchange, or None), everything (`waits`), the free spaces when it places and the
    agents it may resolve when it resolves."""

    what: str | None
    waits: tuple[str, ...]
    free: list[tuple[str, str]]
    resolvable: list[tuple[str, str]]


def turn_of(state: Realm, player: str) -> Turn:
    waits = tuple(w.what for w in waiting_for(state) if w.player == player)
    what = waits[0] if waits else None
    return Turn(
        what,
        waits,
        free_spaces(state) if what == "place" else [],
        state.may_resolve(player) if what == "resolve" else [],
    )


def agents_to_resolve(state: Realm, player: str) -> list[tuple[str, str]]:
    """The player's agents that may resolve now (maester, marshal, lord: §4.2.2); while a
    combat's cards are played, those of the house fighting it."""
    agents = state.may_resolve(player)
    first_at = state.won_at or state.fight_at  # the agent's own move's combat (Asha's comes after it)
    if first_at is not None:  # the cards are played for this house's combat: its agents
        agents = [a for a in agents if a[0] == first_at[0]] or agents
    return agents


def cards_held(state: Realm, player: str) -> set[str]:
    """The house cards the player holds and may play now (§4.4)."""
    return {c for _, c in playable(state, player)}


def cards_to_play(state: Realm, player: str, found: Offer) -> list[tuple[str, str]]:
    """The house cards the player may play in the combat its agent's move fights (§4.4): those
    it holds, and when the plan draws before it moves, the house's cards not yet seen."""
    cards = playable(state, player)
    if found.drawable and "draw move" in found.plans:
        have = {c for _, c in cards}
        house = found.house
        unseen = [c.name for c in state.board.house_cards(house) if c.name not in state.played and c.name not in have]
        cards += [(house, name) for name in unseen]  # a card drawn earlier in this resolution
    return cards


def card_turn(state: Realm, player: str) -> dict[str, Any]:
    """A player's turn to play a card in the combat the active player opened (§4.4)."""
    assert state.fight_at is not None
    house, area = state.fight_at
    houses = (house, state.troops_house(area))
    spent = {c for _, c in [*state.won_table, *state.table] if c}  # Asha's combat: the first's cards are gone
    return {
        "houses": houses,
        "granted": state.won_at is not None,
        "choices": [
            (h, c) for h, c in playable(state, player) if h in houses and c not in spent and _left(state, player, h) > 0
        ],
        "facts": state.board.cards,
    }


def _left(state: Realm, player: str, house: str) -> int:
    """The cards of a house a player still holds for a table: a card played on the first
    combat's table (Asha's, from another phone) is no longer in hand for Asha's own (§4.4)."""
    on_tables = [*state.won_table, *state.table]
    spent = sum(1 for p, c in on_tables if p == player and c and state.board.cards[c].house == house)
    return state.held.get((player, house), 0) - spent


def opens_the_table(
    state: Realm, house: str, taken: list[dict[str, Any]], form: Mapping[str, str] | None = None
) -> str | None:
    """The area a resolve's move fights in, when no card is played for it yet and another
    player could play one (there, or in the combat of the move Asha Greyjoy played here would
    grant): the phone opens the table (`card`) instead of recording it."""
    if state.table or house not in state.board.houses:
        return None
    for action in taken:
        to = action.get("move", {}).get("to", "")
        if to:
            try:
                area = find_area(state.board, to)
            except RuleError:
                return None
            if state.troops_house(area) in ("", house):
                continue
            if others_could_play(state, house, area):
                return area
            form = form or {}
            if form.get("card") == ASHA and form.get("then") == "move" and form.get("then-route"):
                with suppress(RuleError):
                    granted_to = find_area(state.board, form["then-route"].partition("|")[2])
                    if state.troops_house(granted_to) not in ("", "greyjoy") and others_could_play_granted(
                        state, granted_to
                    ):
                        return area
    return None


def opens_the_granted_table(state: Realm, form: Mapping[str, str]) -> str | None:
    """The area Asha Greyjoy's granted move fights in, once every card of the first combat is
    on the table (Asha's among them) and another player could play one there (§4.4): the
    phone opens that combat's table too, as the first's."""
    if form.get("then") != "move" or not form.get("then-route") or not may_open_granted(state):
        return None
    _, _, to = form["then-route"].partition("|")
    try:
        area = find_area(state.board, to)
    except RuleError:
        return None
    if state.troops_house(area) in ("", "greyjoy") or not others_could_play_granted(state, area):
        return None
    return area
