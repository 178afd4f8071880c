"""What an agent's house may do now, as the resolve form offers it: only legal choices (§4.3),
in the order a turn is played — the plan of actions the agent's space allows, the muster's
areas (each with its barrels, its seas for a ship, its footmen to promote), the moves that
exist (from, to, and whether they fight), the cards its player may play — and the form's
fields read back into the actions `cok ntk resolve`'s words make."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

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
WORDS = {"muster": "muster troops", "move": "move troops", "draw": "draw a house card"}


def plan_words(plan: str) -> str:
    """'muster move' as a player says it: 'Muster troops, then move troops'."""
    said = ", then ".join(WORDS[kind] for kind in plan.split())
    return said[:1].upper() + said[1:]


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


# ---------------------------------------------------------------- the form read back


def number(form: Mapping[str, str], name: str) -> int:
    value = form.get(name, "").strip()
    return int(value) if value.isdigit() else 0


def units(form: Mapping[str, str], prefix: str = "") -> list[str]:
    return [
        *["footman"] * number(form, prefix + "footmen"),
        *["knight"] * number(form, prefix + "knights"),
        *["ship"] * number(form, prefix + "ships"),
    ]


def muster_spec(form: Mapping[str, str], prefix: str = "") -> dict[str, Any]:
    """`add:AREA` footmen, `ships:AREA` ships to `sea:AREA`, `promote:AREA` footmen made
    knights: the muster's shape in the log (§3); the one-area fields of older pages too."""
    spec: dict[str, Any] = {}
    promote: list[str] = []
    for key in form:
        if not key.startswith(prefix):
            continue
        kind, _, area = key[len(prefix) :].partition(":")
        if not area:
            continue
        if kind == "add":
            spec.setdefault(area, []).extend(["footman"] * number(form, key))
        elif kind == "ships":
            sea = form.get(f"{prefix}sea:{area}", "")
            spec.setdefault(area, []).extend([{"ship": sea}] * number(form, key))
        elif kind == "promote":
            promote += [area] * number(form, key)
    area = form.get(prefix + "muster_area", "")
    if area:
        what, sea = form.get(prefix + "muster_what", "footman"), form.get(prefix + "muster_sea", "").strip()
        spec.setdefault(area, []).append("footman" if what == "footman" else {"ship": sea})
    if form.get(prefix + "promote", ""):
        promote.append(form[prefix + "promote"])
    spec = {a: items for a, items in spec.items() if items}
    if promote:
        spec["promote"] = promote
    return spec


def move_of(form: Mapping[str, str], prefix: str = "") -> dict[str, Any]:
    """The move's from, to and units: a `route` (`FROM|TO`) or `from` and `to`."""
    origin, _, to = form.get(prefix + "route", "").partition("|")
    if not origin:
        origin, to = form.get(prefix + "from", ""), form.get(prefix + "to", "")
    return {"from": origin, "to": to, "units": units(form, prefix)}


def plan_of(form: Mapping[str, str]) -> list[str]:
    """The actions in the order chosen: a `plan`, else the actions ticked in the `order`."""
    if form.get("plan"):
        return [k for k in form["plan"].split() if k in WORDS]
    ticked = [k for k in ("move", "muster", "draw") if form.get(k) == "on"]
    order = form.get("order", "muster move draw").split()
    return [k for k in order if k in ticked]


def actions(form: Mapping[str, str]) -> list[dict[str, Any]]:
    made: dict[str, dict[str, Any]] = {
        "move": {"move": move_of(form)},
        "muster": {"muster": muster_spec(form)},
        "draw": {"draw": True},
    }
    return [made[kind] for kind in plan_of(form)]


def granted(form: Mapping[str, str], state: Realm | None = None, player: str | None = None) -> dict[str, Any]:
    """A card's effects when its house wins (§4.4): Asha's move, Jaime's muster (`after`),
    Cersei's removal, Melisandre's discard; each left out when not chosen. Asha's move into
    another house's troops fights a combat of its own: its cards (`then-card`, this player's
    own) go with it, and the rules ask its winner on a tie and its loser's retreat."""
    found: dict[str, Any] = {}
    then = form.get("then", "")
    if then == "move" and form.get("then-route"):
        move = move_of(form, "then-")
        found["after"] = [{"move": move}]
        holder = state.troops.get(move["to"]) if state is not None else None
        if holder is not None and holder[0] != GRANTS[ASHA][0]:
            card = form.get("then-card", "")
            found["after"][0]["combat"] = {"cards": {player: card} if card and player else {}}
    elif then == "muster":
        spec = muster_spec(form, "then-")
        if spec:
            found["after"] = [{"muster": spec}]
    if form.get("remove"):
        house, _, space = form["remove"].partition(":")
        found["remove"] = {"house": house, "space": space}
    if form.get("discard-player") and form.get("discard-house"):
        found["discard"] = {"player": form["discard-player"], "house": form["discard-house"]}
    return found
