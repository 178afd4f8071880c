"""Every game is built the same way (#26): the same file names for the same jobs, so that an
engineer who knows one game's folder finds their way in the next, and a new game starts as a
copy of a folder. docs/architecture.md's skeleton table is the recipe; this walks every game."""

from __future__ import annotations

from pathlib import Path

import pytest

import cok.rulesets
from cok.rulesets import BUILT_IN

GAMES = Path(cok.rulesets.__file__).parent

#: Required in every game: the job each file does is in docs/architecture.md's table.
REQUIRED = [
    "__init__.py",  # RULESET: the game as the core sees it
    "map.py",  # the map's model
    "mapfile.py",  # reading a map file
    "events.py",  # its events
    "settings.py",  # its keys in campaign.yaml
    "rules/apply.py",  # decide, then commit
    "rules/outcomes.py",  # what an event did
    "intents.py",  # from what a user gave to the event
    "table/",  # its pages at the table (cok serve)
    "words.py",  # outcomes in sentences
    "documents.py",  # its --json documents
    "views.py",  # its tables
    "reports.py",  # the summaries the shared commands show
    "site/pages.py",  # the static site's pages
    "site/templates",  # and their templates
]


def folder(game: str) -> Path:
    return GAMES / BUILT_IN[game].rsplit(".", 1)[1]


@pytest.mark.parametrize("game", list(BUILT_IN))
@pytest.mark.parametrize("job", REQUIRED)
def test_every_game_has_the_skeletons_file_for_each_job(game: str, job: str) -> None:
    assert (folder(game) / job).exists(), f"{game} has no {job}"


@pytest.mark.parametrize("game", list(BUILT_IN))
def test_every_games_commands_are_a_cli_module_or_a_cli_package(game: str) -> None:
    module, package = folder(game) / "cli.py", folder(game) / "cli" / "__init__.py"
    assert module.is_file() != package.is_file(), f"{game}: cli.py or cli/, one of them"


def test_the_skeleton_table_in_the_docs_names_every_required_file() -> None:
    table = (Path(__file__).parents[1] / "docs" / "architecture.md").read_text(encoding="utf-8")
    assert all(f"`{job}`" in table for job in REQUIRED)
