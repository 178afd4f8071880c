"""Generate a No True King campaign of N events for the benchmarks, every event legal.

    python benchmarks/generate_ntk.py 100000 /tmp/ntk-100k

No True King's rules end a game after as many rounds as seats (the shipped example is 76
events, four players' game about 130): no game reaches 100,000 events of play. This plays
one game of four conspiracies by the rules (the tests' player, `tests/no_true_king/game.py`,
open loyalty) and makes its log heavy the one way the rules allow: agents placed on the
wrong space and voided at once (each placement legal when it is recorded, each void of an
event nothing depends on yet), spread over every placement before the last round's. The log
stops at the start of the last round's placement, so that placements can be appended; the
game's next placements are written beside the folder (`<folder>.next.json`) for the
benchmark to record.
"""

from __future__ import annotations

import copy
import datetime as dt
import json
import random
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.no_true_king.game import BOARD_FILE, board, event_of, new_game, next_event  # noqa: E402

from cok.core.log import event_types, parse_event  # noqa: E402
from cok.core.write import to_yaml  # noqa: E402
from cok.core.yamlfile import YamlMap  # noqa: E402
from cok.rulesets.no_true_king import RULESET  # noqa: E402
from cok.rulesets.no_true_king.rules.apply import apply, decide, initial_state  # noqa: E402
from cok.rulesets.no_true_king.rules.turns import free_spaces  # noqa: E402

#: The game played (a seed of the tests' player whose four-player game runs its full rounds).
SEED = 7
PLAYERS = 4


def as_event(data: dict[str, Any]) -> Any:
    item = YamlMap(data)
    item.line, item.key_lines = 0, {}
    event, errors = parse_event(item, event_types(RULESET), RULESET)
    if event is None:
        raise ValueError(errors)
    return event


def next_path(folder: Path) -> Path:
    """Where the game's next placements are kept: beside the campaign, not in it."""
    return folder.with_name(folder.name + ".next.json")


def played(seed: int) -> list[dict[str, Any]]:
    """The game's events, each as it was when recorded (the player changes its cards as it
    goes, and the open loyalty of a `conspiracy` is one of them)."""
    game = new_game(seed, PLAYERS, "open")
    events = copy.deepcopy(game.events)
    while game.state.phase != "over":
        data = next_event(game)
        events.append(copy.deepcopy(data))
        game.record(data)
    return events


def generate(total: int, folder: Path, seed: int = SEED) -> Path:
    """Write a campaign of about `total` events into `folder` (its own copy of the board)."""
    game = played(seed)
    rounds = [n for n, e in enumerate(game) if e["type"] == "place" and game[n - 1]["type"] != "place"]
    cut = rounds[-1]  # the last round's first placement
    places = [n for n in range(cut) if game[n]["type"] == "place"]
    mistakes = max(0, total - cut) // 2  # each a placement and its void
    rng = random.Random(seed)
    clock = dt.datetime(2026, 1, 5, 18, 0, tzinfo=dt.UTC)
    state = initial_state(board(), "open")
    blocks: list[str] = []

    def stamped(data: dict[str, Any]) -> dict[str, Any]:
        nonlocal clock
        clock += dt.timedelta(seconds=rng.randint(5, 90))
        stamp = clock.isoformat().replace("+00:00", "Z")
        return {**data, "id": f"{rng.getrandbits(48):012x}", "at": stamp, "by": "organiser"}

    for n, data in enumerate(game[:cut]):
        if n in places:  # before this placement: the wrong ones, each voided at once
            share = mistakes // len(places) + (1 if places.index(n) < mistakes % len(places) else 0)
            choices = [s for s in free_spaces(state) if s != (data["house"], data["space"])]
            for _ in range(share):
                house, space = rng.choice(choices)
                wrong = stamped({"type": "place", "player": data["player"], "house": house, "space": space})
                decide(state, event_of(wrong))  # legal where it is recorded
                blocks.append(to_yaml(as_event(wrong)))
                void = stamped({"type": "void", "target": wrong["id"], "reason": "the wrong space"})
                blocks.append(to_yaml(as_event(void)))
        apply(state, event_of(data))
        blocks.append(to_yaml(as_event(stamped(data))))
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "map.yaml").write_text(BOARD_FILE.read_text(encoding="utf-8"), encoding="utf-8")
    (folder / "campaign.yaml").write_text(
        f"name: Benchmark {total}\nruleset: no-true-king\nmap: map.yaml\nloyalty: open\n", encoding="utf-8"
    )
    (folder / "events.yaml").write_text("".join(blocks), encoding="utf-8")
    after = game[cut:]
    following = after[: next(i for i, e in enumerate(after) if e["type"] != "place")]
    next_path(folder).write_text(json.dumps(following), encoding="utf-8")
    return folder


if __name__ == "__main__":
    size, target = int(sys.argv[1]), Path(sys.argv[2])
    generate(size, target)
    print(f"{size} events in {target}")
