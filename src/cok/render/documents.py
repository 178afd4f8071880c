"""The `--json` documents. Field names are a contract: add, never rename or drop."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from cok.errors import Problem
from cok.rules.scoring import Standing
from cok.rules.state import State
from cok.rules.where import Where


def dumps(document: Any) -> str:
    return json.dumps(document, ensure_ascii=False, indent=2, default=_default)


def plain(value: Any) -> dict[str, Any]:
    """A dataclass (an outcome, a mode) as a JSON-ready mapping."""
    return dataclasses.asdict(value) if dataclasses.is_dataclass(value) and not isinstance(value, type) else {}


def _default(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return dataclasses.asdict(value)
    if isinstance(value, (set, frozenset)):
        return sorted(value)
    if hasattr(value, "isoformat"):
        return value.isoformat()
    raise TypeError(f"cannot write {type(value).__name__} as JSON")


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


def problems_doc(problems: list[Problem]) -> dict[str, Any]:
    return {"errors": [{"file": p.file, "line": p.line, "message": p.message} for p in problems]}


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
