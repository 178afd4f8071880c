"""The Clash of Kings `--json` documents. Field names are a contract: add, never rename or drop."""

from __future__ import annotations

from typing import Any

from cok.rulesets.clash_of_kings.rules.scoring import Standing
from cok.rulesets.clash_of_kings.rules.state import State
from cok.rulesets.clash_of_kings.rules.where import Where


def location_doc(state: State, name: str) -> dict[str, Any]:
    loc = state.geo.locations[name]
    return {"name": name, "kind": loc.kind, "value": loc.value, "occupant": state.holder.get(name)}


def standings_doc(name: str, state: State, table: list[Standing]) -> dict[str, Any]:
    return {
        "campaign": name,
        "week": state.week,
        "points_limit": state.limit,
        "players": [
            {
                "id": s.player.id,
                "name": s.player.name,
                "faction": s.player.faction,
                "rank": s.rank,
                "cp": s.cp,
                "territory_cp": s.territory_cp,
                "bonus_cp": s.bonus_cp,
                "territories": list(s.territories),
                "castles": s.castles,
                "forts": s.forts,
                "villages": s.villages,
                "battles": s.battles,
                "wins": s.wins,
                "losses": s.losses,
                "supply_lines": s.supply_lines,
            }
            for s in table
        ],
    }


def where_doc(state: State, found: Where) -> dict[str, Any]:
    return {
        "players": list(found.players),
        "attacker": found.attacker,
        "defender": found.defender,
        "decided_by": found.decided_by,
        "step": found.step,
        "locations": None if found.locations is None else [location_doc(state, n) for n in found.locations],
        **({"options": [where_doc(state, o) for o in found.options]} if found.decided_by == "roll-needed" else {}),
    }
