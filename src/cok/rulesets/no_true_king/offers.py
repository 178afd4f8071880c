"""What an agent's house may do now, read from the realm (§4.3): the plan of actions its space
allows, the muster's areas (each with its barrels, its seas for a ship, its footmen to
promote), the moves that exist (from, to, and whether they fight): only legal choices, for the
resolve form (`table/`), which never asks the rules itself. Pure: the rules still decide
every event recorded."""

from __future__ import annotations

from dataclasses import dataclass

from cok.rulesets.no_true_king.rules.actions import can_draw, check_move, muster_points
from cok.rulesets.no_true_king.rules.combat import ASHA, GRANTS
from cok.rulesets.no_true_king.rules.state import Realm

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
        routes(state, house),
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
