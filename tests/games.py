"""Every registered game, as the shared tests take them: from the registry (`BUILT_IN` and
whatever is registered), each with its own declarations (`rulesets/<game>/scenarios.py`), so
that a new game is one folder and one line, and every test the games share runs for it."""

from __future__ import annotations

from pathlib import Path

import yaml

from cok.core import ruleset as registry
from cok.core.ruleset import Ruleset, own
from cok.core.scenarios import Read, Scenario, Scenarios
from cok.rulesets import BUILT_IN, install

from .conftest import Cok

install()

#: Every built-in game by its id, in the registry's order (a test may register a toy one).
GAMES = list(BUILT_IN)


def scenarios(game: str) -> Scenarios:
    """What the game declares of itself for the shared tests (its `scenarios.py`)."""
    found: Scenarios = own(type(registry.get(game)), "scenarios:SCENARIOS")
    return found


#: Every scenario of every game, as `(game, moment)`: the tests' ids name both.
SCENES = [(game, scene.moment) for game in GAMES for scene in scenarios(game).scenarios]
SCENE_IDS = [f"{game}-{moment}" for game, moment in SCENES]


def scene(game: str, moment: str | None = None) -> Scenario:
    """The game's scenario at `moment` (its first, where none is named)."""
    every = scenarios(game).scenarios
    return next(s for s in every if s.moment == moment) if moment else every[0]


def command(game: str, *args: str) -> list[str]:
    """A command line of the game's own commands: behind its group (`mk …`), if it has one."""
    group = registry.get(game).command
    return [group, *args] if group else list(args)


def begun(tmp_path: Path, game: str, moment: str | None = None, name: str = "campaign", *init: str) -> Cok:
    """A new campaign of the game, as `cok init` makes it (with `init`'s options), with the
    scenario's keys set."""
    tmp_path.mkdir(parents=True, exist_ok=True)
    assert Cok(tmp_path)("init", name, "--ruleset", game, *init).exit_code == 0
    folder = tmp_path / name
    keys = scene(game, moment).settings
    if keys:
        settings = folder / "campaign.yaml"
        settings.write_text(yaml.safe_dump({**yaml.safe_load(settings.read_text()), **keys}, sort_keys=False))
    return Cok(folder)


def played(tmp_path: Path, game: str, moment: str | None = None, name: str = "campaign") -> Path:
    """A campaign of the game at the scenario's moment, every step recorded by its command."""
    cok = begun(tmp_path, game, moment, name)
    for step in scene(game, moment).steps:
        run = cok(*command(game, *step))
        assert run.exit_code == 0, (step, run.stdout, run.stderr)
    return cok.cwd


def reads(game: str, moment: str | None = None) -> tuple[Read, ...]:
    return scene(game, moment).reads


def ruleset(game: str) -> Ruleset:
    return registry.get(game)
