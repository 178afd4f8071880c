"""The ruleset contract, run for the toy game: the core alone, with no Clash of Kings."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from cok.core import ruleset as registry
from cok.core.write import to_yaml

from .contract import RulesetContract
from .toy import RULESET

registry.register("toy", "tests.core.toy")

PLAYERS = ["ann", "bob", "cy"]


@st.composite
def toy_logs(draw: st.DrawFn) -> list[dict[str, Any]]:
    """Valid toy logs: everyone joins, then scores within the board's cap."""
    log: list[dict[str, Any]] = [{"type": "join", "player": p, "id": f"j{i}"} for i, p in enumerate(PLAYERS)]
    for n in range(draw(st.integers(0, 12))):
        log.append(
            {
                "type": "score",
                "player": draw(st.sampled_from(PLAYERS)),
                "points": draw(st.integers(0, 5)),
                "id": f"s{n}",
            }
        )
    return log


class TestToyKeepsTheContract(RulesetContract):
    ruleset = RULESET
    logs = toy_logs()

    def write_campaign(self, folder: Path, log: list[dict[str, Any]]) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "board.yaml").write_text("name: Toy board\ncap: 5\n")
        (folder / "campaign.yaml").write_text("name: Toy\nruleset: toy\nmap: board.yaml\nbonus: 2\n")
        (folder / "events.yaml").write_text("".join(to_yaml(self.parsed(e)) for e in log))
