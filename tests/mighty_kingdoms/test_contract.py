"""The ruleset contract of the core, run for Mighty Kingdoms (simple and Kings of War)."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from cok.core.write import to_yaml
from cok.rulesets.mighty_kingdoms import RULESET
from cok.rulesets.mighty_kingdoms.rules.state import Settings

from ..core.contract import RulesetContract
from .play import SHIPPED, random_log


class MightyKingdomsContract(RulesetContract):
    ruleset = RULESET
    settings = Settings(advanced=("wizards-towers",))
    campaign_yaml = "name: Contract\nruleset: mighty-kingdoms\nmap: map.yaml\nadvanced: [wizards-towers]\n"

    def write_campaign(self, folder: Path, log: list[dict[str, Any]]) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(SHIPPED, folder / "map.yaml")
        (folder / "campaign.yaml").write_text(self.campaign_yaml)
        (folder / "events.yaml").write_text("".join(to_yaml(self.parsed(e)) for e in log))


class TestSimpleBattlesKeepTheContract(MightyKingdomsContract):
    logs = st.builds(
        lambda seed, n, k: random_log(seed, n, MightyKingdomsContract.settings, k),
        st.integers(0, 10**6),
        st.integers(0, 400),
        st.integers(2, 4),
    )


class TestKingsOfWarBattlesKeepTheContract(MightyKingdomsContract):
    settings = Settings(battles="kings-of-war", army_limit=3, advanced=("wizards-towers",))
    campaign_yaml = (
        "name: Contract\nruleset: mighty-kingdoms\nmap: map.yaml\nbattles: kings-of-war\n"
        "army_limit: 3\nadvanced: [wizards-towers]\n"
    )
    logs = st.builds(
        lambda seed, n: random_log(seed, n, TestKingsOfWarBattlesKeepTheContract.settings, 3),
        st.integers(0, 10**6),
        st.integers(0, 300),
    )
