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


def test_a_branch_that_edited_the_common_history_is_a_conflict_with_markers() -> None:
    edited = BASE.replace("  id: w1\n", "  id: w1\n  limit: 99\n")
    merged = merge_logs(BASE, edited, BASE + block("week", "x", "2026-01-02T00:00:00Z"), None)
    assert not merged.clean
    assert "append-only" in merged.problems[0]
    assert "<<<<<<< this branch" in merged.text and ">>>>>>> other branch" in merged.text


def events_of(repo: Path) -> list[str]:
    """Each event of the campaign's log, by its id (or its first line when it has none)."""
    text = (repo / "campaigns" / "spring" / "events.yaml").read_text()
    assert "<<<<<<<" not in text
    entries = read_log(text.encode(), text, "events.yaml", RULESET).entries
    return [e.event.id or f"{e.event.type}@{e.line}" for e in entries]


def test_a_rebase_of_two_commits_keeps_every_event_of_both_branches(repo: Path) -> None:
    git(repo, "branch", "feature")
    record(repo, "main", "battle", "tim", "matt", "--at", "Tarth", "--attacker", "tim", "--winner", "tim")
    record(repo, "main", "paint", "tim", "--fully-painted")
    record(repo, "feature", "adjust", "aaron", "1", "--reason", "hosted")
    record(repo, "feature", "adjust", "matt", "2", "--reason", "drove")
    mine = events_of(repo)
    rebased = git(repo, "rebase", "main", check=False)
    assert rebased.returncode == 0, rebased.stdout + rebased.stderr
    after = events_of(repo)
    git(repo, "checkout", "-q", "main")
    assert set(mine) | set(events_of(repo)) == set(after)
    assert len(after) == len(set(after))
    assert Cok(repo)("check", "-C", "campaigns/spring").exit_code == 0


def test_a_cherry_pick_of_a_later_commit_brings_its_events_and_only_its_own(repo: Path) -> None:
    git(repo, "branch", "feature")
    record(repo, "main", "adjust", "tim", "1", "--reason", "on main")
    record(repo, "feature", "adjust", "aaron", "1", "--reason", "first on feature")
    record(repo, "feature", "adjust", "matt", "2", "--reason", "second on feature")
    log = (repo / "campaigns" / "spring" / "events.yaml").read_text()
    git(repo, "checkout", "-q", "main")
    picked = git(repo, "cherry-pick", "feature", check=False)
    assert picked.returncode == 0, picked.stdout + picked.stderr
    text = (repo / "campaigns" / "spring" / "events.yaml").read_text()
    assert "second on feature" in text and "on main" in text
    assert "first on feature" not in text  # not in the picked commit
    assert "second on feature" in log


def test_each_branch_keeps_its_own_order_within_one_second(repo: Path) -> None:
    git(repo, "branch", "other")
    git(repo, "checkout", "-q", "main")
    log = repo / "campaigns" / "spring" / "events.yaml"
    same_second = "2026-05-01T10:00:00Z"
    for ident, kind in (("zz-week", "week"), ("aa-adjust", "adjust\n  player: tim\n  cp: 1\n  reason: x")):
        with open(log, "a") as handle:
            handle.write(f"- type: {kind}\n  id: {ident}\n  at: '{same_second}'\n")
    git(repo, "commit", "-q", "-am", "two events in one second")
    record(repo, "other", "adjust", "matt", "1", "--reason", "elsewhere")
    git(repo, "checkout", "-q", "main")
    merged = git(repo, "merge", "-q", "--no-edit", "other", check=False)
    assert merged.returncode == 0, merged.stdout + merged.stderr
    order = events_of(repo)
    assert order.index("zz-week") < order.index("aa-adjust")


def test_two_identical_events_written_by_hand_without_id_are_two_events() -> None:
    adjust = "- type: adjust\n  player: tim\n  cp: 1\n  reason: hosted\n"
    merged = merge_logs(BASE, BASE + adjust, BASE + adjust, None)
    assert merged.clean
    assert merged.text.count(adjust) == 2
    again = merge_logs(BASE + adjust, BASE + adjust + adjust, BASE + adjust, None)
    assert again.text.count(adjust) == 2  # the common one once, and this branch's new one


def test_a_side_that_is_not_a_log_leaves_conflict_markers(tmp_path: Path) -> None:
    from cok.core.merge import run_driver

    base, ours, theirs = (tmp_path / n for n in ("base", "ours", "theirs"))
    base.write_text(BASE)
    ours.write_text(BASE + "- type: week\n  id: [broken\n")
    theirs.write_text(BASE + block("week", "x", "2026-01-02T00:00:00Z"))
    assert run_driver(base, ours, theirs, None) == 1
    text = ours.read_text()
    assert text.startswith("<<<<<<< this branch\n") and "=======\n" in text and text.endswith(">>>>>>> other branch\n")


def test_an_event_without_at_stays_before_its_own_branchs_later_events() -> None:
    by_hand = "- type: adjust\n  player: tim\n  cp: 1\n  reason: by hand\n"
    later = block("week", "x", "2026-01-05T00:00:00Z")
    theirs = block("week", "y", "2026-01-03T00:00:00Z")
    merged = merge_logs(BASE, BASE + by_hand + later, BASE + theirs, None)
    assert merged.clean
    assert merged.text.index(by_hand) < merged.text.index(later)
    assert merged.text.index(theirs) < merged.text.index(later)
