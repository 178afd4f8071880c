"""The ruleset contract, run for Clash of Kings."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from cok.core.write import to_yaml
from cok.rulesets.clash_of_kings import RULESET
from cok.rulesets.clash_of_kings.mapfile import load_map

from ..conftest import WESTEROS
from ..core.contract import RulesetContract
from .test_properties import campaign_events, intents

GEO = load_map(WESTEROS)


class TestClashOfKingsKeepsTheContract(RulesetContract):
    ruleset = RULESET
    logs = st.builds(lambda plan, players: campaign_events(GEO, plan, players), intents, st.integers(2, 4))

    def write_campaign(self, folder: Path, log: list[dict[str, Any]]) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(WESTEROS, folder / "map.yaml")
        (folder / "campaign.yaml").write_text("name: Contract\nmap: map.yaml\n")
        (folder / "events.yaml").write_text("".join(to_yaml(self.parsed(e)) for e in log))
