"""The resolve form's words and its fields read back into the actions `cok ntk resolve`'s words
make; what the house may do now (only legal choices, §4.3) is the game's offers (`offers.py`),
which the rules answer, not the page."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

WORDS = {"muster": "muster troops", "move": "move troops", "draw": "draw a house card"}


def plan_words(plan: str) -> str:
    """'muster move' as a player says it: 'Muster troops, then move troops'."""
    said = ", then ".join(WORDS[kind] for kind in plan.split())
    return said[:1].upper() + said[1:]


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


def granted(form: Mapping[str, str], player: str | None = None, fights: bool = False) -> dict[str, Any]:
    """A card's effects when its house wins (§4.4): Asha's move, Jaime's muster (`after`),
    Cersei's removal, Melisandre's discard; each left out when not chosen. Asha's move into
    another house's troops (`fights`: the `opening` read's `granted_fights`) fights a combat of
    its own: its cards (`then-card`, this player's own) go with it, and the rules ask its winner
    on a tie and its loser's retreat."""
    found: dict[str, Any] = {}
    then = form.get("then", "")
    if then == "move" and form.get("then-route"):
        move = move_of(form, "then-")
        found["after"] = [{"move": move}]
        if fights:
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
