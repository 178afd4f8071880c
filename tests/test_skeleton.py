"""Every game is built the same way (#26): the same file names for the same jobs, so that an
engineer who knows one game's folder finds their way in the next, and a new game starts as a
copy of a folder. docs/architecture.md's skeleton table is the recipe; this walks every game."""

from __future__ import annotations

from pathlib import Path

import pytest

import cok.rulesets
from cok.core.ruleset import get
from cok.rulesets import BUILT_IN, install

install()

GAMES = Path(cok.rulesets.__file__).parent

#: Required in every game: the job each file does is in docs/architecture.md's table.
REQUIRED = [
    "__init__.py",  # RULESET: the game as the core sees it
    "map.py",  # the map's model
    "mapfile.py",  # reading a map file
    "maps/",  # its built-in map, package data
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
    "rules/spelling.py",  # where names become ids
    "queries.py",  # its reads by name: --json, its pages, GET /api/<name>
    "shapes.py",  # each read's document as a model: the API's published schema
    "notify.py",  # which of its events the club's chat is told, whom the ledger waits for
    "scenarios.py",  # what the shared tests (and the contract) play of it
    "deadlines.py",  # what its ledger waits for, and what is recorded for a missed deadline
]
#: Required where a game's pages draw a board of legal moves (`table/board.py`): what a player
#: may do now, read from the state, which the board's read (`offers`, `resolving`) gives.
OFFERS = "offers.py"


def folder(game: str) -> Path:
    return GAMES / BUILT_IN[game].rsplit(".", 1)[1]


@pytest.mark.parametrize("game", list(BUILT_IN))
@pytest.mark.parametrize("job", REQUIRED)
def test_every_game_has_the_skeletons_file_for_each_job(game: str, job: str) -> None:
    assert (folder(game) / job).exists(), f"{game} has no {job}"


@pytest.mark.parametrize("game", list(BUILT_IN))
def test_every_games_built_in_map_is_found_inside_its_own_folder(game: str) -> None:
    assert get(game).builtin_map().parent == folder(game) / "maps"


@pytest.mark.parametrize("game", list(BUILT_IN))
def test_a_game_whose_pages_draw_a_board_has_its_offers(game: str) -> None:
    if (folder(game) / "table" / "board.py").exists():
        assert (folder(game) / OFFERS).is_file(), f"{game} draws a board and has no {OFFERS}"


@pytest.mark.parametrize("game", list(BUILT_IN))
def test_every_game_keeps_the_contract_in_the_tests_every_game_shares(game: str) -> None:
    from tests import test_every_game_keeps_the_contract as contract

    held = [name for name, member in vars(contract).items() if getattr(member, "ruleset", None) is get(game)]
    assert held, f"{game} runs no contract test"


@pytest.mark.parametrize("game", list(BUILT_IN))
def test_every_games_commands_are_a_cli_module_or_a_cli_package(game: str) -> None:
    module, package = folder(game) / "cli.py", folder(game) / "cli" / "__init__.py"
    assert module.is_file() != package.is_file(), f"{game}: cli.py or cli/, one of them"


def test_the_skeleton_table_in_the_docs_names_every_required_file() -> None:
    table = (Path(__file__).parents[1] / "docs" / "architecture.md").read_text(encoding="utf-8")
    rows = [line for line in table.splitlines() if "**required**" in line]
    assert [job for job in [*REQUIRED, OFFERS] if not any(f"`{job}`" in row for row in rows)] == []


@pytest.mark.parametrize("game", list(BUILT_IN))
def test_every_game_takes_the_skeletons_members_from_it_and_names_only_its_own(game: str) -> None:
    """The members every game keeps in the same file under the same name are named once
    (`cok.rulesets.skeleton.Skeleton`, issue #51): a game's class restates none of them, and
    each resolves inside the game's own package."""
    import ast
    import importlib

    from cok.core.ruleset import Lazy
    from cok.rulesets.skeleton import Skeleton

    shared = {name: member.where for name, member in vars(Skeleton).items() if isinstance(member, Lazy)}
    assert len(shared) >= 10
    ruleset = get(game)
    assert isinstance(ruleset, Skeleton)
    restated = [
        target.id
        for node in ast.walk(ast.parse((folder(game) / "__init__.py").read_text()))
        if isinstance(node, ast.Assign)
        for target in node.targets
        if isinstance(target, ast.Name) and target.id in shared
    ]
    assert restated == []
    for name, where in shared.items():
        module, _, member = where.partition(":")
        own = importlib.import_module(f"{BUILT_IN[game]}.{module}")
        assert getattr(ruleset, name) is getattr(own, member), name


@pytest.mark.parametrize("game", list(BUILT_IN))
def test_every_games_event_types_are_read_from_its_models_once(game: str) -> None:
    """A game's `EVENT_TYPES` names each type once, in its model (`by_type`, issue #51): a
    key written again beside the model could drift from it; two models of one type are refused."""
    import ast

    from cok.rulesets.skeleton import by_type

    events = get(game).events
    assert events and all(model.model_fields["type"].default == name for name, model in events.items())
    source = ast.parse((folder(game) / "events.py").read_text())
    built = [
        node.value
        for node in ast.walk(source)
        if isinstance(node, ast.Assign | ast.AnnAssign)
        and any(
            isinstance(t, ast.Name) and t.id == "EVENT_TYPES"
            for t in (node.targets if isinstance(node, ast.Assign) else [node.target])
        )
    ]
    assert len(built) == 1 and isinstance(built[0], ast.Call) and ast.unparse(built[0].func) == "by_type"
    model = next(iter(events.values()))
    with pytest.raises(ValueError, match="two event models of type"):
        by_type(model, model)
