"""The ruleset contract (tests/core/contract.py) run for every registered game, on its own
scenarios' logs (`rulesets/<game>/scenarios.py`) cut at a random length: a game is held to the
contract from its first line, before it has random logs of its own (tests/<game>/test_contract.py)."""

from __future__ import annotations

import atexit
import shutil
import tempfile
from functools import cache
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from cok.core.ruleset import get
from cok.core.write import to_yaml
from cok.core.yamlfile import parse

from .core.contract import RulesetContract
from .games import SCENES, played


@cache
def scenario(game: str, moment: str) -> tuple[Path, tuple[dict[str, Any], ...]]:
    """The scenario played once (its folder, and its log as the entries a log holds)."""
    base = Path(tempfile.mkdtemp(prefix="contract-"))
    atexit.register(shutil.rmtree, base, ignore_errors=True)
    folder = played(base, game, moment)
    log = parse((folder / "events.yaml").read_text(encoding="utf-8"), "events.yaml")
    return folder, tuple(dict(entry) for entry in log)


def keeps_the_contract(game: str, moment: str) -> type[RulesetContract]:
    def write_campaign(self: RulesetContract, folder: Path, log: list[dict[str, Any]]) -> None:
        played_folder, _ = scenario(game, moment)
        folder.mkdir(parents=True, exist_ok=True)
        for name in ("campaign.yaml", "map.yaml"):
            shutil.copyfile(played_folder / name, folder / name)
        (folder / "events.yaml").write_text("".join(to_yaml(self.parsed(e)) for e in log))

    logs = st.integers(0, 1000).map(lambda n: [dict(e) for e in scenario(game, moment)[1][: n % 64]])
    return type(
        f"Test_{game}_{moment}_keeps_the_contract".replace("-", "_"),
        (RulesetContract,),
        {"ruleset": get(game), "logs": logs, "write_campaign": write_campaign},
    )


for _game, _moment in SCENES:
    _test = keeps_the_contract(_game, _moment)
    globals()[_test.__name__] = _test
