"""Start-up: a command line imports the commands of its own game only, and a plain `cok
standings` on a cached campaign, piped (what a script or an evening's screen runs most),
imports only what showing the standings needs (#15). Each rule below names what it keeps
out, so bringing it back fails the test that says why it was left out."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from .conftest import EXAMPLE
from .games import GAMES, played


def imported(*args: str, env: dict[str, str] | None = None) -> set[str]:
    """The modules `python -m cok ARGS` imports (its output piped), by `-X importtime`."""
    run = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "cok", *args], capture_output=True, text=True, check=True, env=env
    )
    return {line.rsplit("|", 1)[-1].strip() for line in run.stderr.splitlines() if "|" in line}


@pytest.fixture(scope="module")
def cached_standings(tmp_path_factory: pytest.TempPathFactory) -> set[str]:
    """What `cok standings -C campaigns/example` imports once its cache is warm."""
    env = {**os.environ, "COK_CACHE_DIR": str(tmp_path_factory.mktemp("cache"))}
    env.pop("COK_NO_CACHE", None)
    subprocess.run(
        [sys.executable, "-m", "cok", "standings", "-C", str(EXAMPLE)], env=env, check=True, capture_output=True
    )
    return imported("standings", "-C", str(EXAMPLE), env=env)


def loaded(modules: set[str], *packages: str) -> set[str]:
    """Those of `modules` that are one of the packages or inside one."""
    return {m for m in modules if any(m == p or m.startswith(p + ".") for p in packages)}


def test_a_clash_of_kings_command_imports_no_other_games_commands() -> None:
    modules = imported("locations", "-C", str(EXAMPLE))
    assert "cok.rulesets.clash_of_kings.cli" in modules
    assert not {"cok.rulesets.mighty_kingdoms.cli", "cok.rulesets.no_true_king.cli"} & modules


def test_a_games_group_builds_that_game_alone() -> None:
    run = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "cok", "mk", "--help"], capture_output=True, text=True, check=True
    )
    modules = {line.rsplit("|", 1)[-1].strip() for line in run.stderr.splitlines() if "|" in line}
    assert "cok.rulesets.mighty_kingdoms.cli" in modules and "cok.rulesets.no_true_king.cli" not in modules
    assert "kingdom" in run.stdout and "battles" in run.stdout


def test_the_cached_standings_are_shown(cached_standings: set[str]) -> None:
    assert {"cok.cli.shortcut", "cok.rulesets.clash_of_kings.rules.scoring"} <= cached_standings


def test_a_plain_standings_line_is_read_without_typer(cached_standings: set[str]) -> None:
    """Typer and its Click cost more than the standings: `cok.cli.shortcut` reads the line."""
    assert not loaded(cached_standings, "typer", "click", "shellingham")


def test_a_plain_standings_line_builds_no_commands(cached_standings: set[str]) -> None:
    """No Typer app is assembled: neither the shared commands nor any game's."""
    assert not loaded(
        cached_standings,
        "cok.cli.shared",
        "cok.cli.options",
        "cok.cli.recording",
        "cok.cli.root",
        "cok.rulesets.clash_of_kings.cli",
    )


def test_a_cached_campaign_needs_no_pydantic(cached_standings: set[str]) -> None:
    """Neither the events' and settings' models (the cache holds the state, already checked)
    nor the adapters Typer builds to parse each option."""
    assert not loaded(cached_standings, "pydantic", "pydantic_core", "annotated_types")


def test_a_cached_standings_looks_up_no_installed_packages(cached_standings: set[str]) -> None:
    """`importlib.metadata` (pydantic's plugins, entry points) scans every installed package;
    `cok --version` says `cok.__version__`."""
    assert not loaded(cached_standings, "importlib.metadata")


def test_a_cached_campaign_reads_no_yaml(cached_standings: set[str]) -> None:
    """The cache is JSON, keyed by the digests of the files: the YAML is not parsed again."""
    assert not loaded(cached_standings, "yaml", "cok.core.yamlfile", "cok.core.log", "cok.core.events")


def test_a_cached_campaign_replays_no_rules(cached_standings: set[str]) -> None:
    """The state comes from the cache: no event is applied, no map file read."""
    assert not loaded(
        cached_standings,
        "cok.core.fold",
        "cok.rulesets.clash_of_kings.rules.apply",
        "cok.rulesets.clash_of_kings.events",
        "cok.rulesets.clash_of_kings.mapfile",
    )


def test_piped_output_never_imports_rich(cached_standings: set[str]) -> None:
    assert not loaded(cached_standings, "rich", "pygments", "markdown_it")


def test_only_the_site_loads_templates_and_only_schema_loads_schemas(cached_standings: set[str]) -> None:
    assert not loaded(cached_standings, "jinja2", "markupsafe", "cok.core.schemas", "cok.render.documents")


def test_piped_output_is_never_paged(cached_standings: set[str]) -> None:
    """The pager is started (with `subprocess`) only for long output at a terminal."""
    assert not loaded(cached_standings, "subprocess", "selectors", "threading")


def test_only_a_name_typed_wrong_is_matched_to_close_ones(cached_standings: set[str]) -> None:
    """`difflib` suggests a known name for an unknown one: a cached campaign's names all match."""
    assert not loaded(cached_standings, "difflib")


@pytest.mark.parametrize("game", GAMES)
def test_every_games_cached_standings_read_no_event_models_and_no_rules_of_play(
    game: str, tmp_path_factory: pytest.TempPathFactory
) -> None:
    folder = played(tmp_path_factory.mktemp("played"), game)
    env = {**os.environ, "COK_CACHE_DIR": str(tmp_path_factory.mktemp("cache"))}
    env.pop("COK_NO_CACHE", None)
    subprocess.run(
        [sys.executable, "-m", "cok", "standings", "-C", str(folder)], env=env, check=True, capture_output=True
    )
    modules = imported("standings", "-C", str(folder), env=env)
    assert not loaded(modules, "pydantic", "yaml", "typer", "cok.core.events", "cok.core.fold")
    assert not {m for m in modules if m.endswith((".events", ".rules.battle", ".rules.summer", ".rules.apply"))}


@pytest.mark.parametrize(
    "args",
    [["standings", "-C", "nowhere"], ["check", "-C", "nowhere"], ["check", "--json", "-C", "nowhere"]],
    ids=["standings", "check", "check-json"],
)
def test_no_refusal_of_a_plain_line_loads_typer(args: list[str], tmp_path_factory: pytest.TempPathFactory) -> None:
    """A refused plain line (no campaign there) is said by the shortcut's own words: no Typer."""
    run = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "cok", *args],
        capture_output=True,
        text=True,
        cwd=tmp_path_factory.mktemp("empty"),
    )
    modules = {line.rsplit("|", 1)[-1].strip() for line in run.stderr.splitlines() if "|" in line}
    assert run.returncode == 1 and "nowhere" in run.stdout + run.stderr
    assert not loaded(modules, "typer", "click")
