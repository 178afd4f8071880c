"""Ranking the kingdoms: Mighty Kingdoms names no winner (section 6), so the standings, the
site and `cok mk kingdoms` order the kingdoms by settlements, then tiles."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from cok.rulesets.mighty_kingdoms.rules.state import State


def ranked(state: State) -> list[tuple[int, dict[str, Any]]]:
    """Kingdoms by settlements, then tiles (the source names no winner; section 6)."""
    rows: list[dict[str, Any]] = []
    for player, kingdom in state.kingdoms.items():
        tiles = state.tiles_of(player)
        rows.append(
            {
                "id": player,
                "name": kingdom.name,
                "race": kingdom.race,
                "settlements": sum(1 for t in tiles if t in state.settlement),
                "tiles": len(tiles),
                "armies": len(state.armies_of(player)),
                "capital": state.has_capital(player),
                "absent": player in state.clock.absent,  # missed deadlines in a row (issue 48)
            }
        )
    rows.sort(key=lambda r: (-r["settlements"], -r["tiles"], state.kingdoms[r["id"]].founded))
    ranks: list[tuple[int, dict[str, Any]]] = []
    for i, row in enumerate(rows):
        same = i > 0 and (row["settlements"], row["tiles"]) == (rows[i - 1]["settlements"], rows[i - 1]["tiles"])
        ranks.append((ranks[-1][0] if same else i + 1, row))
    return ranks
