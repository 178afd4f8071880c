"""The ruleset contract (tests/core/contract.py), run for No True King on logs of random
games cut at a random length: cached = uncached, a void is the log without it, events read
back as written, and the schema accepts what the log reader accepts."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from cok.core.write import to_yaml
from cok.rulesets.no_true_king import RULESET
from tests.core.contract import RulesetContract
from tests.no_true_king.game import BOARD_FILE, play


def log_of(seed: int, length: int) -> list[dict[str, Any]]:
    events = play(seed, limit=length).events[:length]
    return [dict(event, id=f"e{i}") for i, event in enumerate(events)]


class TestNoTrueKingKeepsTheContract(RulesetContract):
    ruleset = RULESET
    logs = st.builds(log_of, st.integers(0, 10_000), st.integers(0, 90))

    def write_campaign(self, folder: Path, log: list[dict[str, Any]]) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "map.yaml").write_text(BOARD_FILE.read_text())
        (folder / "campaign.yaml").write_text("name: Contract\nruleset: no-true-king\nmap: map.yaml\n")
        (folder / "events.yaml").write_text("".join(to_yaml(self.parsed(e)) for e in log))
