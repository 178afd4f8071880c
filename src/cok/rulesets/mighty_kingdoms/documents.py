"""The `--json` documents of `cok mk` (contract section 6): tiles always written "q,r"."""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any

from cok.rulesets.mighty_kingdoms.rules import phase as phases
from cok.rulesets.mighty_kingdoms.rules.state import Army, State

if TYPE_CHECKING:
    from cok.core.deadlines import Due

#: The defended tile's benefit by settlement (section 5.3; a capital uses the City row).
BENEFIT = {
    None: "add, remove or move 1 piece of terrain",
    "village": "up to 1 blocking or difficult ground piece and up to 2 obstacles",
    "city": (
        "up to 2 blocking or difficult ground pieces, up to 2 obstacles, and 1 objective marker "
        "on the defender's half worth 1 VP"
    ),
    "fortress": (
        "up to 2 blocking or difficult ground pieces, up to 4 obstacles, and 2 objective markers "
        "on the defender's half worth 1 VP each"
    ),
}


def benefit(state: State, tile: str) -> str:
    kind = state.settlement.get(tile)
    return BENEFIT["city" if kind == "capital" else kind]


def outcome_doc(outcome: Any) -> dict[str, Any]:
    """A recording's `outcome`: its type and its fields, but those only the commit needs
    (the event's own fields, already in the document's `event`)."""
    shown = {f.name for f in dataclasses.fields(outcome) if f.metadata.get("shown", True)}
    fields = {k: v for k, v in dataclasses.asdict(outcome).items() if k in shown}
    return {"type": type(outcome).__name__.lower(), **fields}


def status_doc(name: str, state: State, pending: list[Due] | None = None) -> dict[str, Any]:
    """`waiting_for` as the phase says it; `due`, each wait with its due time (issue 48: ISO
    8601 with its offset, null without a deadline), soonest first; `absent`, the kingdoms
    marked absent for missing deadlines in a row, whose defaults are recorded at once.
    `pending`: the service's due times (`cok mk status`); none given, the core's on the
    state's clock, the same."""
    return {
        "campaign": name,
        "ruleset": "mighty-kingdoms",
        "year": state.year or None,
        "season": phases.season(state),
        "month": state.month or None,
        "phase": phases.phase(state),
        "player_order": list(state.order),
        "waiting_for": phases.waiting_for(state),
        "due": [d.document() for d in (pending if pending is not None else due(state))],
        "absent": absent(state),
    }


def due(state: State) -> list[Due]:
    """Everything the ledger waits for now with its due time, soonest first, from the log's
    own times (`state.clock`) and the campaign's deadlines: every copy of the campaign agrees."""
    from cok.core.deadlines import pending
    from cok.rulesets.mighty_kingdoms.deadlines import waits

    return pending(state.clock, waits(state))


def absent(state: State) -> list[str]:
    """The kingdoms marked absent (issue 48), in player order."""
    marked = state.clock.absent
    return [p for p in state.order if p in marked] + sorted(p for p in marked if p not in state.order)


def army_doc(state: State, army: Army) -> dict[str, Any]:
    doc: dict[str, Any] = {
        "id": army.id,
        "tile": army.tile,
        "points": army.points,
        "upright": army.upright,
        "order": army.order,
        "allied": army.allied,
    }
    if army.order == "move":
        doc["to"] = army.to
    if not army.deployed:
        doc["deployed"] = False
    if army.defending:
        doc["defending"] = True
    if army.list is not None:
        doc["list"] = army.list
    if army.units is not None or army.changes:
        units = set(army.units or {}) | set(army.changes)
        doc["units"] = {u: army.strength(u) for u in sorted(units)}
    return doc


def kingdom_doc(state: State, player: str) -> dict[str, Any]:
    kingdom = state.kingdoms[player]
    doc: dict[str, Any] = {
        "id": player,
        "name": kingdom.name,
        "race": kingdom.race,
        "capital": kingdom.capital if state.has_capital(player) else None,
        "tiles": len(state.tiles_of(player)),
        "villages": state.count(player, "village"),
        "cities": state.count(player, "city"),
        "fortresses": state.count(player, "fortress"),
        "armies": [army_doc(state, a) for a in state.armies_of(player)],
        "gold": kingdom.gold,
        "food": kingdom.food,
        "artefacts": [
            {"id": a.id, "name": a.name, "points": a.points} for a in state.artefacts.values() if a.holder == player
        ],
    }
    if "terrain-recruits" in state.settings.advanced:
        doc["recruit_terrain"] = recruit_terrain(state, player)
    return doc


def recruit_terrain(state: State, player: str) -> dict[str, dict[str, bool]]:
    """5.7b: what a recruit at each of the kingdom's fortresses may include."""
    hexmap = state.map
    found = {}
    for tile in state.tiles_of(player):
        if state.settlement.get(tile) != "fortress":
            continue
        near = [t for t in (tile, *hexmap.neighbours(tile)) if state.control.get(t) == player]
        found[tile] = {
            "monsters": any(hexmap.has_feature(t, "mountain") or hexmap.tiles[t].marsh for t in near),
            "war_machines": any(hexmap.has_feature(t, "forest") for t in near),
        }
    return found


def kingdoms_doc(state: State) -> dict[str, Any]:
    order = sorted(state.kingdoms.values(), key=lambda k: k.founded)
    return {"kingdoms": [kingdom_doc(state, k.id) for k in order]}


def armies_doc(state: State, player: str | None) -> dict[str, Any]:
    armies = [
        {"player": a.player, **army_doc(state, a)}
        for p in sorted(state.kingdoms.values(), key=lambda k: k.founded)
        if player in (None, p.id)
        for a in state.armies_of(p.id)
    ]
    return {"armies": armies}


def battles_doc(state: State) -> dict[str, Any]:
    """The contested tiles: who chooses next, each side's armies, Defence, board, benefit."""
    from cok.rulesets.mighty_kingdoms.rules.battle import board_size, defence  # the battle rules: here only

    now = phases.phase(state)
    battles = []
    for tile in state.contested():
        armies = state.armies_in(tile)
        sides = []
        for player in sorted({a.player for a in armies}, key=lambda p: state.order.index(p)):
            mine = [a for a in armies if a.player == player]
            sides.append(
                {
                    "player": player,
                    "armies": [
                        {
                            "id": a.id,
                            "points": a.points,
                            "upright": a.upright,
                            "defending": a.defending,
                            **({"defence": defence(a)} if a.upright and not state.settings.kings_of_war else {}),
                        }
                        for a in mine
                    ],
                }
            )
        most = max(sum(1 for a in armies if a.player == p and a.upright) for p in {a.player for a in armies})
        defended = sorted({a.player for a in armies if a.defending})
        battles.append(
            {
                "tile": tile,
                "name": state.map.tiles[tile].name,
                "holder": state.control.get(tile),
                "settlement": state.settlement.get(tile),
                "board": board_size(most),
                "defended_by": defended,
                "benefit": benefit(state, tile) if defended else None,
                "sides": sides,
            }
        )
    return {
        "phase": now,
        "attacker": phases.attacker(state) if now == "battles" else None,
        "battles": battles,
    }
