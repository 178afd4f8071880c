"""Issue 38, backed up: `cok serve --commit --push` pushes each recording's commit to the
campaign's remote from a thread of its own (a bare repository on disk here), retrying while the
remote is unreachable, never pulling, never forcing; its state on the organiser's page."""

from __future__ import annotations

import subprocess
import time
from pathlib import Path

import httpx
import pytest

from cok.links import invites
from tests.conftest import Cok
from tests.serve.process import serving

#: No address of this machine: a command that was not refused stops at the port, never serves.
UNSERVED = "192.0.2.1"
PAINTING = {"type": "painting", "player": "tim", "units": 1}


def git(repo: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", "-C", str(repo), "-c", "user.name=setup", "-c", "user.email=setup@example.org", *args],
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout.strip()


@pytest.fixture
def repo(example: Path) -> Path:
    """The campaign's repository (the example's copy committed on `main`)."""
    top = example.parents[1]
    git(top, "init", "-q", "-b", "main")
    git(top, "add", "-A")
    git(top, "commit", "-qm", "the campaign")
    return top


def bare(path: Path) -> Path:
    subprocess.run(["git", "init", "-q", "--bare", "-b", "main", str(path)], check=True)
    return path


def remote_head(remote: Path) -> str:
    done = subprocess.run(
        ["git", "-C", str(remote), "rev-parse", "-q", "--verify", "refs/heads/main"], capture_output=True, text=True
    )
    return done.stdout.strip()


def waited(check, seconds: float = 30.0) -> bool:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(0.2)
    return False


def committed(repo: Path):  # type: ignore[no-untyped-def]
    """Whether the recording's commit is made: it follows the answer, off the page's path."""
    return lambda: git(repo, "log", "-1", "--format=%an") == "tim"


def organisers_page(url: str, token: str) -> str:
    with httpx.Client(follow_redirects=True) as phone:
        phone.get(f"{url}/join/{token}")
        page = phone.get(f"{url}/activity")
        assert page.status_code == 200
        return page.text


def record(url: str, token: str) -> tuple[httpx.Response, float]:
    start = time.perf_counter()
    answer = httpx.post(f"{url}/api/events", json=PAINTING, headers={"authorization": f"Bearer {token}"}, timeout=30)
    return answer, time.perf_counter() - start


def test_a_recording_is_pushed_to_the_remote(example: Path, repo: Path, tmp_path: Path) -> None:
    remote = bare(tmp_path / "remote.git")
    git(repo, "remote", "add", "origin", str(remote))
    tim, ann = invites.invite(example, "tim"), invites.invite(example, "Ann", organiser=True)
    with serving(example, "--commit", "--push") as served:
        answer, _ = record(served.url, tim)
        assert answer.status_code == 201, answer.text
        assert waited(committed(repo))  # the commit follows the answer (issue 45)
        head = git(repo, "rev-parse", "HEAD")
        assert waited(lambda: remote_head(remote) == head)
        assert waited(lambda: f"last pushed <code>{head[:10]}</code>" in organisers_page(served.url, ann))
        assert "0 commits waiting" in organisers_page(served.url, ann)
    said = served.process.stderr.read() if served.process.stderr else ""
    assert f"pushed {head[:10]} to origin/main" in said, said  # and in cok serve's output
    assert git(repo, "log", "-1", "--format=%an") == "tim"


def test_a_remote_that_is_down_is_retried_and_the_recording_answers_at_once(
    example: Path, repo: Path, tmp_path: Path
) -> None:
    gone = tmp_path / "away" / "remote.git"
    git(repo, "remote", "add", "backup", str(gone))
    tim, ann = invites.invite(example, "tim"), invites.invite(example, "Ann", organiser=True)
    with serving(example, "--commit", "--push", "--remote", "backup") as served:
        answer, took = record(served.url, tim)
        assert answer.status_code == 201 and took < 5.0  # the push is not on the recording's path
        assert waited(committed(repo))
        head = git(repo, "rev-parse", "HEAD")
        assert waited(lambda: "The last push failed" in organisers_page(served.url, ann))
        page = organisers_page(served.url, ann)
        waiting = int(git(repo, "rev-list", "--count", "HEAD"))  # never pushed: the campaign's and the recording's
        assert f"{waiting} commits waiting" in page and "nothing pushed yet" in page
        bare(gone)  # the remote is back: the next attempt (5 s later) pushes
        assert waited(lambda: remote_head(gone) == head)
        assert waited(lambda: "The last push failed" not in organisers_page(served.url, ann))


def test_a_remote_that_has_moved_on_is_never_forced_and_the_organiser_sees_why(
    example: Path, repo: Path, tmp_path: Path
) -> None:
    remote = bare(tmp_path / "remote.git")
    git(repo, "remote", "add", "origin", str(remote))
    git(repo, "push", "-q", "origin", "main")
    other = tmp_path / "elsewhere"
    subprocess.run(["git", "clone", "-q", str(remote), str(other)], check=True)
    (other / "notes.txt").write_text("another machine's commit\n")
    git(other, "add", "notes.txt")
    git(other, "commit", "-qm", "elsewhere")
    git(other, "push", "-q", "origin", "main")
    theirs = remote_head(remote)
    tim, ann = invites.invite(example, "tim"), invites.invite(example, "Ann", organiser=True)
    log_before = (example / "events.yaml").read_bytes()
    with serving(example, "--commit", "--push") as served:
        answer, _ = record(served.url, tim)
        assert answer.status_code == 201
        assert waited(lambda: "The last push failed" in organisers_page(served.url, ann))
        assert "1 commit waiting" in organisers_page(served.url, ann)
    assert remote_head(remote) == theirs  # not forced over
    log = (example / "events.yaml").read_bytes()
    assert log.startswith(log_before) and b"painting" in log[len(log_before) :]  # nothing pulled into it
    assert not (repo / "notes.txt").exists()


def test_commits_made_before_the_start_and_never_pushed_are_pushed_first(
    example: Path, repo: Path, tmp_path: Path
) -> None:
    remote = bare(tmp_path / "remote.git")
    git(repo, "remote", "add", "origin", str(remote))
    head = git(repo, "rev-parse", "HEAD")
    with serving(example, "--commit", "--push"):
        assert waited(lambda: remote_head(remote) == head)


def test_push_without_commit_or_without_the_remote_refuses_at_start(example: Path, repo: Path, tmp_path: Path) -> None:
    cok = Cok(tmp_path)
    alone = cok("serve", "-C", str(example), "--push", "--host", UNSERVED)
    assert alone.exit_code == 1 and "--commit" in alone.stderr
    none = cok("serve", "-C", str(example), "--commit", "--push", "--host", UNSERVED)
    assert none.exit_code == 1 and "no remote 'origin'" in none.stderr
    git(repo, "remote", "add", "origin", str(bare(tmp_path / "remote.git")))
    named = cok("serve", "-C", str(example), "--commit", "--push", "--remote", "nosuch", "--host", UNSERVED)
    assert named.exit_code == 1 and "no remote 'nosuch'" in named.stderr and "origin" in named.stderr
