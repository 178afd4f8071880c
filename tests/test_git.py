"""Campaigns in git: the merge driver, with real repositories, and its rules."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from cok.core.log import read_log
from cok.core.merge import merge_logs
from cok.rulesets.clash_of_kings import RULESET

from .conftest import WESTEROS, Cok

GIT_ENV = {
    **os.environ,
    "GIT_AUTHOR_NAME": "Organiser",
    "GIT_AUTHOR_EMAIL": "org@example.com",
    "GIT_COMMITTER_NAME": "Organiser",
    "GIT_COMMITTER_EMAIL": "org@example.com",
    "GIT_CONFIG_NOSYSTEM": "1",
}


def git(repo: Path, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["git", *args], cwd=repo, env=GIT_ENV, capture_output=True, text=True, check=check)


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    if shutil.which("git") is None:  # pragma: no cover - git is part of the project's machines
        pytest.fail("git is needed for these tests")
    root = tmp_path / "league"
    (root / "maps").mkdir(parents=True)
    shutil.copyfile(WESTEROS, root / "maps" / "westeros.yaml")
    git(root, "init", "-q", "-b", "main")
    cok = Cok(root)
    run = cok("init", "campaigns/spring", "--map", "maps/westeros.yaml")
    assert run.exit_code == 0, run.stderr
    assert "Registered the cok merge driver" in run.stdout
    assert "merge=cok" in (root / "campaigns" / "spring" / ".gitattributes").read_text()
    for player, faction in (("tim", "martell"), ("matt", "baratheon"), ("aaron", "lannister")):
        assert cok("join", player, "--faction", faction, "-C", "campaigns/spring").exit_code == 0
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "start")
    return root


def record(repo: Path, branch: str, *args: str) -> None:
    git(repo, "checkout", "-q", branch)
    run = Cok(repo)(*args, "-C", "campaigns/spring")
    assert run.exit_code == 0, run.stderr
    git(repo, "commit", "-q", "-am", " ".join(args))


def test_two_branches_recording_different_battles_merge_cleanly(repo: Path) -> None:
    git(repo, "branch", "north")
    git(repo, "branch", "south")
    record(repo, "north", "battle", "tim", "matt", "--at", "Tarth", "--attacker", "tim", "--winner", "tim")
    record(repo, "south", "battle", "aaron", "matt", "--at", "Ashemark", "--attacker", "aaron", "--winner", "aaron")
    record(repo, "south", "week", "--next")
    git(repo, "checkout", "-q", "north")
    merged = git(repo, "merge", "-q", "--no-edit", "south", check=False)
    assert merged.returncode == 0, merged.stdout + merged.stderr
    run = Cok(repo)("check", "-C", "campaigns/spring")
    assert (run.exit_code, run.stderr) == (0, "")
    log = (repo / "campaigns" / "spring" / "events.yaml").read_text()
    assert log.count("type: battle") == 2 and log.count("type: week") == 1
    assert "<<<<<<<" not in log
    standings = Cok(repo)("standings", "--json", "-C", "campaigns/spring").stdout
    assert '"Tarth"' in standings and '"Ashemark"' in standings


def test_a_clashing_pair_is_reported_not_merged(repo: Path) -> None:
    git(repo, "branch", "a")
    git(repo, "branch", "b")
    record(repo, "a", "join", "sara", "--faction", "stark", "--castle", "Highgarden")
    record(repo, "b", "join", "rob", "--faction", "stark", "--castle", "Highgarden")
    git(repo, "checkout", "-q", "a")
    merged = git(repo, "merge", "--no-edit", "b", check=False)
    assert merged.returncode != 0
    said = merged.stdout + merged.stderr
    assert "the events that clash" in said
    assert "Highgarden is already held by" in said
    run = Cok(repo)("check", "-C", "campaigns/spring")
    assert run.exit_code == 1
    assert "conflict marker" in run.stderr


BASE = "# log\n- type: week\n  id: w1\n"


def block(kind: str, ident: str, at: str) -> str:
    return f"- type: {kind}\n  id: {ident}\n  at: '{at}'\n"


def test_new_events_are_kept_once_by_id_and_ordered_by_time() -> None:
    first = block("week", "x", "2026-01-02T00:00:00Z")
    second = block("week", "y", "2026-01-01T00:00:00Z")
    merged = merge_logs(BASE, BASE + first, BASE + second + first, None)
    assert merged.clean
    assert merged.text == BASE + second + first
    ids = [e.event.id for e in read_log(merged.text.encode(), merged.text, "events.yaml", RULESET).entries]
    assert ids == ["w1", "y", "x"]


def test_a_branch_that_edited_the_common_history_is_a_conflict() -> None:
    merged = merge_logs(BASE, BASE.replace("w1", "w2"), BASE, None)
    assert not merged.clean
    assert "append-only" in merged.problems[0]
