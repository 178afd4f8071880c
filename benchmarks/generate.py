"""Generate a large, valid Clash of Kings campaign on the Westeros map, of any size.

    python benchmarks/generate.py 10000 /tmp/cok-bench/10k

Twelve players join; the organiser starts a new week every ~60 events; every battle is
fought at a legal location, with roll-offs, tied games on victory points, the
Brotherhood, castle caps and supply lines answered; painting claims, corrections and
voids are mixed in. The rules decide every event, so the log always passes `cok check`.
"""

from __future__ import annotations

import datetime as dt
import random
import sys
from pathlib import Path
from typing import Any

from cok.core.errors import ChoiceNeeded
from cok.core.log import event_types, parse_event
from cok.core.write import to_yaml
from cok.core.yamlfile import YamlMap
from cok.rulesets.clash_of_kings import RULESET
from cok.rulesets.clash_of_kings.mapfile import load_map
from cok.rulesets.clash_of_kings.rules.apply import apply, decide, initial_state
from cok.rulesets.clash_of_kings.rules.state import Settings, State
from cok.rulesets.clash_of_kings.rules.where import where

ROOT = Path(__file__).resolve().parents[1]
WESTEROS = RULESET.builtin_map()
FACTIONS = [
    "stark",
    "martell",
    "lannister",
    "baratheon",
    "greyjoy",
    "targaryen",
    "bolton",
    "nights-watch",
    "free-folk",
    "neutral",
    "neutral",
    "brotherhood",
]


def as_event(data: dict[str, Any]) -> Any:
    item = YamlMap(data)
    item.line, item.key_lines = 0, {}
    event, errors = parse_event(item, event_types(RULESET), RULESET)
    if event is None:
        raise ValueError(errors)
    return event


class Generator:
    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.geo = load_map(WESTEROS)
        self.state: State = initial_state(self.geo, Settings())
        self.clock = dt.datetime(2026, 1, 5, 18, 0, tzinfo=dt.UTC)
        self.count = 0
        self.last_adjust: tuple[str, str, int] | None = None

    def stamp(self, data: dict[str, Any]) -> dict[str, Any]:
        self.count += 1
        self.clock += dt.timedelta(minutes=self.rng.randint(5, 90))
        return {
            **data,
            "id": f"{self.rng.getrandbits(48):012x}",
            "at": self.clock.isoformat().replace("+00:00", "Z"),
            "by": "organiser",
        }

    def accept(self, data: dict[str, Any]) -> str | None:
        """Apply the event if the rules accept it (answering their questions); its YAML, or None."""
        for _ in range(4):
            try:
                decide(self.state, as_event(data))
                break
            except ChoiceNeeded as need:
                if need.decline and (not need.options or self.rng.random() < 0.5):
                    data = {**data, "occupy": False}
                else:
                    data = {**data, need.field: self.rng.choice(need.options)}
            except Exception:
                return None
        else:
            return None
        event = as_event(self.stamp(data))
        apply(self.state, event)
        if data["type"] == "adjust" and event.id:
            self.last_adjust = (event.id, data["player"], data["cp"])
        return to_yaml(event)

    def players(self) -> list[str]:
        return list(self.state.players)

    def events(self, total: int) -> list[str]:
        out: list[str] = []
        castles = self.geo.castles()
        for i, faction in enumerate(FACTIONS):
            block = self.accept(
                {
                    "type": "join",
                    "player": f"player{i:02d}",
                    "name": f"Player {i}",
                    "faction": faction,
                    "castle": castles[i],
                }
            )
            assert block is not None
            out.append(block)
        while len(out) < total:
            roll = self.rng.random()
            if self.last_adjust is not None and self.rng.random() < 0.1:
                block = self.void_last_adjust()
            elif roll < 0.016:
                block = self.accept({"type": "week"})
            elif roll < 0.25:
                block = self.painting()
            elif roll < 0.27:
                block = self.accept(
                    {
                        "type": "adjust",
                        "player": self.rng.choice(self.players()),
                        "cp": self.rng.choice([-2, -1, 1, 2]),
                        "reason": "organiser ruling",
                    }
                )
            else:
                block = self.battle()
            if block is not None:
                out.append(block)
                self.last_adjust = self.last_adjust if block.startswith("- type: adjust") else None
        return out

    def void_last_adjust(self) -> str:
        """Void the adjustment just recorded: the state without it is the state less its CP."""
        assert self.last_adjust is not None
        target, player, cp = self.last_adjust
        event = as_event(self.stamp({"type": "void", "target": target, "reason": "recorded twice"}))
        self.state.bonus[player] -= cp
        self.last_adjust = None
        return to_yaml(event)

    def battle(self) -> str | None:
        a, b = self.rng.sample(self.players(), 2)
        brotherhood = [p for p in (a, b) if self.rng.random() < 0.04]
        found = where(self.state, a, b, brotherhood)
        data: dict[str, Any] = {
            "type": "battle",
            "players": [a, b],
            "brotherhood": brotherhood,
            "mode": self.rng.choice(["a-clash-of-kings", "a-game-of-thrones"]),
            "points": self.state.limit,
        }
        if found.decided_by == "roll-needed":
            found = self.rng.choice(found.options)
            data["attacker"] = found.attacker
        if not found.locations:
            return None
        data["location"] = self.rng.choice(found.locations)
        if self.rng.random() < 0.3:
            vp = self.rng.randint(0, 12)
            data["vp"] = {a: vp, b: vp if self.rng.random() < 0.3 else self.rng.randint(0, 12)}
            left = self.state.limit  # what is left of an army of the battle's points
            data["remaining"] = {a: min(left, self.rng.randint(0, 30)), b: min(left, self.rng.randint(0, 30))}
        else:
            data["winner"] = self.rng.choice([a, b])
        return self.accept(data)

    def painting(self) -> str | None:
        player = self.rng.choice(self.players())
        data: dict[str, Any] = {"type": "painting", "player": player}
        if self.rng.random() < 0.5:
            data["fully_painted"] = True
        if self.rng.random() < 0.5:
            data["units"] = self.rng.randint(1, 3)
        if self.rng.random() < 0.3:
            data["models"] = self.rng.randint(1, 8)
        if self.rng.random() < 0.1:
            data["commissioned"] = self.rng.choice([p for p in self.players() if p != player])
        return self.accept(data) if len(data) > 2 else None


def generate(total: int, folder: Path, seed: int = 7) -> Path:
    """Write a campaign of `total` events into `folder` (its own copy of the map)."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "map.yaml").write_text(WESTEROS.read_text(encoding="utf-8"), encoding="utf-8")
    (folder / "campaign.yaml").write_text(f"name: Benchmark {total}\nmap: map.yaml\npoints: {{start: 20, step: 3}}\n")
    blocks = Generator(seed).events(total)
    (folder / "events.yaml").write_text("".join(blocks), encoding="utf-8")
    return folder


if __name__ == "__main__":
    size, target = int(sys.argv[1]), Path(sys.argv[2])
    generate(size, target)
    print(f"{size} events in {target}")
