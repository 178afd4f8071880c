"""`cok serve --commit`'s follower of every write: each change committed to the campaign's
repository, only the log, the recorder as its author and the events told as its message; a
failure is a warning and the event stays."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from cok.service import Draft, record
from cok.service.followers import Backup, Followers

from .conftest import log_of


def git(folder: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=folder, capture_output=True, text=True, check=True).stdout


def committing(folder: Path) -> Followers:
    """The followers of `cok serve --commit`, run at once (no application running)."""
    return Followers(folder, Backup(commit=True), say=lambda line: None)


@pytest.fixture
def repo(two: Path) -> Path:
    git(two, "init", "-q")
    git(two, "-c", "user.name=o", "-c", "user.email=o@x", "add", ".")
    git(two, "-c", "user.name=o", "-c", "user.email=o@x", "commit", "-q", "-m", "start")
    return two


def test_a_recording_is_committed_with_the_player_as_author_and_the_event_told(repo: Path) -> None:
    (repo / "notes.txt").write_text("not the campaign's")
    done = record(
        repo,
        [Draft("adjust", {"player": "tim", "cp": 2, "reason": "late list"})],
        by="Tim Martell",
        followers=committing(repo),
    )
    assert done.warnings == []
    assert git(repo, "log", "-1", "--format=%an").strip() == "Tim Martell"
    assert git(repo, "log", "-1", "--format=%B").strip() == done.told[0]
    assert git(repo, "show", "--name-only", "--format=", "HEAD").split() == ["events.yaml"]
    assert "notes.txt" in git(repo, "status", "--porcelain")  # never added


def test_a_commit_that_fails_is_a_warning_and_the_event_stays(two: Path) -> None:
    said: list[str] = []
    followers = Followers(two, Backup(commit=True), say=said.append)
    done = record(two, [Draft("adjust", {"player": "tim", "cp": 2, "reason": "x"})], by="tim", followers=followers)
    assert done.written and done.events[0].id in log_of(two)
    assert len(done.warnings) == 1 and "git" in done.warnings[0]
    assert said == done.warnings and [t.text for t in followers.troubles()] == said  # the organiser's page


def test_a_nul_in_the_told_event_is_committed_escaped_not_a_failure(repo: Path) -> None:
    """Issue 34: a NUL in `override` made the commit fail (a warning)."""
    done = record(
        repo,
        [Draft("adjust", {"player": "tim", "cp": 2, "reason": "late\x00list"})],
        by="Tim <Martell>",
        followers=committing(repo),
    )
    assert done.warnings == []
    assert git(repo, "log", "-1", "--format=%an").strip() == "Tim Martell"
    assert done.events[0].id in git(repo, "show", "HEAD")
    assert git(repo, "status", "--porcelain", "events.yaml") == ""


def test_each_commit_holds_exactly_its_recording_authored_by_its_player(repo: Path) -> None:
    """Issue 34: tim's event, whose commit failed, went into matt's next commit."""
    tims = record(repo, [Draft("adjust", {"player": "tim", "cp": 2, "reason": "a"})], by="tim")  # not committed
    matts = record(
        repo,
        [Draft("adjust", {"player": "matt", "cp": 1, "reason": "b"})],
        by="Matt",
        followers=committing(repo),
    )
    assert matts.warnings == []
    shown = git(repo, "show", "HEAD")
    assert matts.events[0].id in shown and tims.events[0].id not in shown
    assert git(repo, "log", "-1", "--format=%an").strip() == "Matt"
    assert tims.events[0].id in log_of(repo)  # still in the log, and not yet committed
    assert "events.yaml" in git(repo, "status", "--porcelain")
    assert tims.events[0].id not in git(repo, "show", "HEAD:events.yaml")
