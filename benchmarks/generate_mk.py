"""Generate a Mighty Kingdoms campaign of N events for the benchmarks: the shipped example's
kingdoms (its players, names, races and founding tiles, its map and its settings) play on by
chance (the tests' table: every event legal, applied by the rules), and the log stops at the
start of a month's orders, so that orders can be appended to it.

    python benchmarks/generate_mk.py 100000 /tmp/mk-100k

The campaign is the example's shape at a larger size, so that a page of it compares like for
like with the same page of the example (docs/performance.md, rows 56–59): a generator of six
kingdoms made every page ~45 % larger than the example's four, whatever the history.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.mighty_kingdoms.play import Table, new_state  # noqa: E402

from cok.core.write import to_yaml  # noqa: E402
from cok.rulesets.mighty_kingdoms.events import EVENT_TYPES  # noqa: E402
from cok.rulesets.mighty_kingdoms.rules import phase as phases  # noqa: E402
from cok.rulesets.mighty_kingdoms.rules.state import Settings  # noqa: E402

#: The shipped example whose shape the generated campaign takes.
EXAMPLE = ROOT / "campaigns" / "mighty-kingdoms"
#: A kingdom holding fewer tiles than this is left alone by the others' armies.
SPARED = 8
#: … and so is a kingdom down to its last few villages (its food: without, it has no armies).
SPARED_VILLAGES = 4
#: A kingdom holding this many tiles takes no more (the smaller still march on it), so that
#: the board stays the example's size (a dozen tiles each) however long the campaign runs.
HELD = 11


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

    def order_for(self, army: Any) -> dict[str, Any]:
        """An army leaves alone a kingdom down to its last few tiles or villages, so that every
        kingdom of the example lasts the whole campaign with armies (as the example's four
        do): a kingdom gone would leave a smaller page than the example's. A kingdom of HELD
        tiles stays home, where the others' armies may still come: a board of every tile held draws a larger map than
        the example's."""
        s = self.state
        weak = {
            p
            for p in s.kingdoms
            if p != army.player and (len(s.tiles_of(p)) < SPARED or s.count(p, "village") < SPARED_VILLAGES)
        }
        chosen = super().order_for(army)
        if (
            chosen.get("order") == "move"
            and s.control.get(chosen["to"]) != army.player
            and (held := len(s.tiles_of(army.player))) >= HELD
            and (held >= HELD + 3 or not any(a.player != army.player for a in s.armies_in(chosen["to"])))
        ):
            return {"type": "order", "army": army.id, "order": "defend"}
        if weak and (
            (chosen.get("order") == "move" and s.control.get(chosen["to"]) in weak)
            or (chosen.get("order") == "raze" and s.control.get(army.tile) in weak)
            or (chosen.get("order") == "move" and any(a.player in weak for a in s.armies_in(chosen["to"])))
        ):
            return {"type": "order", "army": army.id, "order": "defend" if army.upright else "regroup"}
        return chosen

    def builds(self, player: str) -> list[tuple[str, str]]:
        """Villages are food: upgrade one only while the kingdom has villages to spare."""
        s = self.state
        spare = s.count(player, "village") > len(s.armies_of(player)) + 2
        return [(t, kind) for t, kind in super().builds(player) if spare or s.settlement_for(t, player) is None]


def example_foundings() -> list[dict[str, Any]]:
    """The example's kingdoms as it founded them (its `kingdom` events, without their ids)."""
    log = yaml.safe_load((EXAMPLE / "events.yaml").read_text(encoding="utf-8"))
    return [
        {k: v for k, v in event.items() if k not in ("id", "at", "by")} for event in log if event["type"] == "kingdom"
    ]


def generate(total: int, folder: Path, seed: int = 7) -> Path:
    """Write a campaign of about `total` events into `folder` (its own copy of the example's
    map and settings, its kingdoms founded as the example's)."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "map.yaml").write_text((EXAMPLE / "map.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    settings = yaml.safe_load((EXAMPLE / "campaign.yaml").read_text(encoding="utf-8"))
    (folder / "campaign.yaml").write_text(
        f"name: Benchmark {total}\nruleset: mighty-kingdoms\nmap: map.yaml\n"
        f"battles: {settings['battles']}\narmy_limit: {settings['army_limit']}\n",
        encoding="utf-8",
    )
    foundings = example_foundings()
    table = Steady(
        new_state(
            Settings(settings["battles"], settings["army_limit"], tuple(settings.get("advanced") or ())),
            EXAMPLE / "map.yaml",
        ),
        seed,
        kingdoms=len(foundings),
    )
    for founding in foundings:
        table.record(founding)
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
