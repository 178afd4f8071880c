"""Generate a Mighty Kingdoms campaign of N events for the benchmarks: six kingdoms play by
chance on the shipped map (the tests' table: every event legal, applied by the rules), and the
log stops at the start of a month's orders, so that orders can be appended to it.

    python benchmarks/generate_mk.py 100000 /tmp/mk-100k
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.mighty_kingdoms.play import SHIPPED, Table, new_state  # noqa: E402

from cok.core.write import to_yaml  # noqa: E402
from cok.rulesets.mighty_kingdoms.events import EVENT_TYPES  # noqa: E402
from cok.rulesets.mighty_kingdoms.rules import phase as phases  # noqa: E402
from cok.rulesets.mighty_kingdoms.rules.state import Settings  # noqa: E402


class Steady(Table):
    """A table whose kingdoms last: each winter they build villages to feed their armies and
    recruit while the food allows, so a long log keeps armies marching and fighting."""

    def spend(self) -> dict[str, Any]:
        s = self.state
        for player in s.order:
            if player in s.fed:
                continue
            kingdom = s.kingdoms[player]
            armies = s.armies_of(player)
            empty = [t for t in s.tiles_of(player) if t not in s.settlement]
            if kingdom.gold and empty:
                return {"type": "build", "player": player, "tile": self.rng.choice(empty), "settlement": "village"}
            forts = [t for t in s.tiles_of(player) if s.settlement.get(t) == "fortress" and t not in s.recruited]
            if kingdom.gold and forts and len(armies) < min(kingdom.food, s.settings.army_limit):
                return {"type": "recruit", "player": player, "tile": forts[0]}
            if kingdom.gold >= 2 and s.count(player, "village") > 2 and not forts:
                village = next(t for t in s.tiles_of(player) if s.settlement_for(t, player) == "village")
                return {"type": "build", "player": player, "tile": village, "settlement": "fortress"}
            return super().spend()
        return super().spend()

    def builds(self, player: str) -> list[tuple[str, str]]:
        """Villages are food: upgrade one only while the kingdom has villages to spare."""
        s = self.state
        spare = s.count(player, "village") > len(s.armies_of(player)) + 2
        return [(t, kind) for t, kind in super().builds(player) if spare or s.settlement_for(t, player) is None]


def generate(total: int, folder: Path, seed: int = 7) -> Path:
    """Write a campaign of about `total` events into `folder` (its own copy of the map)."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "map.yaml").write_text(SHIPPED.read_text(encoding="utf-8"), encoding="utf-8")
    (folder / "campaign.yaml").write_text(
        f"name: Benchmark {total}\nruleset: mighty-kingdoms\nmap: map.yaml\nbattles: simple\narmy_limit: 6\n"
    )
    table = Steady(new_state(Settings()), seed, kingdoms=6)
    state = table.state
    while len(table.log) < total or not (  # stop where an order may be appended
        phases.phase(state) == "orders" and all(a.order is None for a in state.armies.values())
    ):
        table.step()
        if len(table.log) > total * 2:
            raise SystemExit(f"seed {seed}: the kingdoms' armies are all gone; try another seed")
    blocks = (to_yaml(EVENT_TYPES[data["type"]].model_validate(data)) for data in table.log)
    (folder / "events.yaml").write_text("".join(blocks), encoding="utf-8")
    return folder


if __name__ == "__main__":
    size, target = int(sys.argv[1]), Path(sys.argv[2])
    generate(size, target)
    print(f"{size} events in {target}")
