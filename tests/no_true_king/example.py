"""Builds the example campaign with `cok` itself: a game played by `game.py` (seed
EXAMPLE_SEED, chosen because it holds every kind of combat and a tie-break), each event
recorded by the `cok ntk` command a table would type.

    python -m tests.no_true_king.example campaigns/no-true-king-example
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import yaml

from tests.no_true_king.game import play

EXAMPLE_SEED = 1591
COK = [str(Path(sys.executable).with_name("cok"))]


def words(event: dict[str, Any]) -> list[str]:
    """The `cok ntk` command line that records this event."""
    kind = event["type"]
    if kind == "place":
        return ["place", event["player"], event["house"], event["space"]]
    if kind == "pass":
        return ["pass", event["player"]]
    if kind == "unseal":
        return ["unseal", event["player"]]
    if kind == "begin":
        return ["begin", "--seats", *event["seats"], "--first", event["first"]]
    if kind == "exchange":
        line = ["exchange", event["player"], *map(str, event["swap"])]
        if "reveal" in event:
            ((position, _),) = event["reveal"].items()
            line += ["--reveal", str(position)]
        return line
    if kind == "resolve":
        line = ["resolve", event["player"], event["house"], event["space"]]
        line += action_words(event["actions"], "")
        combat = event.get("combat") or {}
        line += combat_words(combat, "")
        for after in combat.get("after", []):
            line += action_words([after], "then-")
            line += combat_words(after.get("combat") or {}, "then-")
        if combat.get("remove"):
            line += ["--remove", combat["remove"]["space"]]
        if combat.get("discard"):
            line += ["--discard", f"{combat['discard']['player']}={combat['discard']['house']}"]
        return line
    raise ValueError(kind)


def action_words(actions: list[dict[str, Any]], prefix: str) -> list[str]:
    line: list[str] = []
    for action in actions:
        if "draw" in action:
            line.append(f"--{prefix}draw")
        elif "move" in action:
            move = action["move"]
            line += [f"--{prefix}move", move["from"], move["to"], *move["units"]]
        elif "muster" in action:
            adds = []
            for area, items in action["muster"].items():
                if area == "promote":
                    continue
                kinds = ["footman" if item == "footman" else f"ship:{item['ship']}" for item in items]
                adds.append(f"{area}={','.join(kinds)}")
            line += [f"--{prefix}muster", *adds]
            if action["muster"].get("promote"):
                line += [f"--{prefix}promote", *action["muster"]["promote"]]
    return line


def combat_words(combat: dict[str, Any], prefix: str) -> list[str]:
    line: list[str] = []
    for player, card in (combat.get("cards") or {}).items():
        if card is not None:
            line += [f"--{prefix}card", f"{player}={card}"]
    for key in ("winner", "retreat"):
        if combat.get(key):
            line += [f"--{prefix}{key}", combat[key]]
    return line


def run(folder: Path, env: dict[str, str], args: list[str]) -> str:
    done = subprocess.run([*COK, *args, "-C", str(folder)], env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"cok {' '.join(args)} failed:\n{done.stderr}")
    return done.stdout


def build(folder: Path, seed: int = EXAMPLE_SEED) -> None:
    game = play(seed)
    if folder.exists():
        shutil.rmtree(folder)
    data = Path(tempfile.mkdtemp(prefix="ntk-seals-"))
    env = dict(os.environ, COK_DATA_DIR=str(data), COK_BY="organiser", NO_COLOR="1")
    subprocess.run(
        [*COK, "init", str(folder), "--ruleset", "no-true-king", "--name", "Friday night at Pyke"], env=env, check=True
    )

    secrets: dict[str, Any] = {}
    for event in game.events:
        if event["type"] == "conspiracy":
            player = event["player"]
            made = json.loads(run(folder, env, ["ntk", "seal", player, *game.sealed[player], "--json"]))
            secrets[player] = {"loyalty": game.sealed[player], "secret": made["secret"], "seal": made["seal"]}
            run(folder, env, ["ntk", "join", player, "--symbol", event["symbol"], "--seal", made["seal"]])
        else:
            run(folder, env, ["ntk", *words(event)])
    note = (
        "# The players' secrets of the example game (campaigns/no-true-king-example): each sealed\n"
        "# loyalty card and the secret `cok ntk seal` made for it. Kept OUT of the campaign folder,\n"
        "# as players keep theirs; committed only so that anyone can check the seals.\n"
    )
    secrets_file = folder.parent / f"{folder.name}-secrets.yaml"
    secrets_file.write_text(note + yaml.safe_dump(secrets, sort_keys=False), encoding="utf-8")
    shutil.rmtree(data)


if __name__ == "__main__":
    build(Path(sys.argv[1]) if len(sys.argv) > 1 else Path("campaigns/no-true-king-example"))
