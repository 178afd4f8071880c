"""`cok serve --commit --push`: each commit a recording made pushed to the campaign's remote,
off the recording's path (issue 38: nothing ever left the machine). The recording's hook only
counts a commit and wakes one thread; that thread pushes whatever HEAD is then (one push carries
every commit made meanwhile), retries with back-off while the remote is unreachable, never pulls
and never forces: a remote that has moved on keeps its history, and says so as the last error."""

from __future__ import annotations

import os
import subprocess
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

from cok.core.errors import RuleError

#: A push that hangs (a remote that accepts the connection and says nothing) is given up on.
TIMEOUT = 60.0
#: The waits between attempts while a push fails: doubled each time, up to the last.
BACKOFF = (5.0, 10.0, 20.0, 40.0, 80.0, 160.0, 300.0)


@dataclass(frozen=True)
class Pushed:
    """Where the backup stands, as the organiser's page and `cok serve` show it."""

    remote: str
    branch: str
    last: str = ""  # the last commit the remote accepted
    last_at: float | None = None
    pending: int = 0  # commits made since, waiting for a push
    error: str = ""  # the last push's failure ("" once a push succeeds)
    error_at: float | None = None
    retry_in: float | None = None  # seconds until the next attempt, while failing

    @property
    def last_when(self) -> str:
        return _clock(self.last_at)

    @property
    def error_when(self) -> str:
        return _clock(self.error_at)


def _clock(when: float | None) -> str:
    """A time as the organiser reads it: UTC, to the second."""
    if when is None:
        return ""
    return time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime(when))


def _git(repo: Path, *args: str, timeout: float = 30.0) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "GIT_TERMINAL_PROMPT": "0", "LC_ALL": "C"}
    env.setdefault("GIT_SSH_COMMAND", "ssh -o BatchMode=yes")  # never a password prompt on the server
    try:
        return subprocess.run(
            ["git", *args], cwd=repo, capture_output=True, text=True, timeout=timeout, check=False, env=env
        )
    except subprocess.TimeoutExpired:
        return subprocess.CompletedProcess(["git", *args], 124, "", f"git {args[0]} took longer than {timeout:.0f} s")
    except OSError as failed:
        return subprocess.CompletedProcess(["git", *args], 127, "", f"git could not run: {failed}")


def _said(done: subprocess.CompletedProcess[str]) -> str:
    lines = [line.strip() for line in (done.stderr or done.stdout or "").splitlines() if line.strip()]
    useful = [line for line in lines if line.startswith(("!", "error:", "fatal:", "hint: Updates were rejected"))]
    return (useful or lines or [f"exit code {done.returncode}"])[0][:300]  # git's first reason


def target(folder: Path, remote: str | None) -> tuple[Path, str, str]:
    """The repository, remote and branch `--push [REMOTE]` pushes to: REMOTE, else the branch's
    upstream remote, else `origin`. Refused at start (RuleError) when there is no such remote or
    no branch checked out."""
    top = _git(folder, "rev-parse", "--show-toplevel")
    if top.returncode != 0:
        raise RuleError(f"--push pushes the campaign's git repository, and {folder} is in none: run `git init` there")
    repo = Path(top.stdout.strip())
    branch = _git(repo, "symbolic-ref", "--quiet", "--short", "HEAD").stdout.strip()
    if not branch:
        raise RuleError("--push pushes the branch checked out, and the campaign's repository is on none (detached)")
    upstream = _git(repo, "config", f"branch.{branch}.remote").stdout.strip()
    chosen = remote or (upstream if upstream and upstream != "." else "origin")
    remotes = _git(repo, "remote").stdout.split()
    if chosen not in remotes:
        known = ", ".join(remotes) or "none"
        raise RuleError(
            f"--push: the campaign's repository has no remote {chosen!r} (its remotes: {known}); "
            f"add one: git -C {repo} remote add {chosen} URL"
        )
    merge = _git(repo, "config", f"branch.{branch}.merge").stdout.strip()
    into = merge.removeprefix("refs/heads/") if merge and chosen == upstream else branch
    return repo, chosen, into


class Pusher:
    """The one thread that pushes a repository's commits to its remote."""

    def __init__(
        self,
        repo: Path,
        remote: str,
        branch: str,
        *,
        say: Callable[[str], None] | None = None,
        backoff: tuple[float, ...] = BACKOFF,
        timeout: float = TIMEOUT,
    ) -> None:
        self.repo = repo
        self.backoff = backoff
        self.timeout = timeout
        self.say = say or (lambda line: None)
        self._state = Pushed(remote, branch)
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._failures = 0
        self._thread = threading.Thread(target=self._run, name="cok-push", daemon=True)
        known = _git(repo, "rev-parse", "--verify", "-q", f"refs/remotes/{remote}/{branch}").stdout.strip()
        if known:  # what the last push (or fetch) saw the remote hold
            self._state = replace(self._state, last=known)
        # commits made before this start and not on the remote as far as known (a push that
        # failed before a restart, or a remote never pushed to): pushed first
        ahead = _git(repo, "rev-list", "--count", f"{known}..HEAD" if known else "HEAD").stdout.strip()
        self._state = replace(self._state, pending=int(ahead) if ahead.isdigit() else 0)

    def state(self) -> Pushed:
        with self._lock:
            return self._state

    def committed(self) -> None:
        """A recording's commit was made (under the campaign's lock: only counted here)."""
        with self._lock:
            self._state = replace(self._state, pending=self._state.pending + 1)
        self._wake.set()

    def start(self) -> Pusher:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self._wake.set()
        self._thread.join(timeout=self.timeout + 5)

    def _run(self) -> None:
        while not self._stop.is_set():
            self._wake.clear()
            if self.state().pending > 0:
                self._push()
            failing = self.state().error != ""
            wait = self.backoff[min(self._failures - 1, len(self.backoff) - 1)] if failing else None
            if failing:
                self._stop.wait(wait)  # a new commit does not hurry a remote that is down
            else:
                self._wake.wait()

    def _push(self) -> None:
        """HEAD pushed as it is now: every commit made so far, at once."""
        with self._lock:
            counted = self._state.pending
            remote, branch = self._state.remote, self._state.branch
        head = _git(self.repo, "rev-parse", "--verify", "-q", "HEAD").stdout.strip()
        done = _git(self.repo, "push", "--quiet", remote, f"{head}:refs/heads/{branch}", timeout=self.timeout)
        now = time.time()
        with self._lock:
            if done.returncode == 0 and head:
                self._failures = 0
                left = max(0, self._state.pending - counted)
                self._state = replace(self._state, last=head, last_at=now, pending=left, error="", error_at=None)
            else:
                self._failures += 1
                wait = self.backoff[min(self._failures - 1, len(self.backoff) - 1)]
                self._state = replace(self._state, error=_said(done), error_at=now, retry_in=wait)
            shown = self._state
        if shown.error:
            self.say(f"push to {remote} failed ({shown.error}); retrying in {shown.retry_in:.0f} s")
        else:
            self.say(f"pushed {head[:10]} to {remote}/{branch} ({counted} commit{'s' if counted != 1 else ''})")


#: The pushers of this process, by the campaign folder they back up (the organiser's page asks).
_serving: dict[Path, Pusher] = {}
#: Each repository's one pusher, and how many campaigns it backs up (a club's campaigns may
#: share a repository: one thread pushes it).
_repos: dict[Path, tuple[Pusher, int]] = {}
_guard = threading.Lock()


def started(folder: Path, remote: str | None, say: Callable[[str], None] | None = None) -> Pusher:
    """The pusher of the campaign's repository, started with the application (see `target`
    for `remote`); one per repository, however many of its campaigns are served."""
    repo, chosen, branch = target(folder, remote)
    with _guard:
        pusher, count = _repos.get(repo, (None, 0))
        if pusher is None:
            pusher = Pusher(repo, chosen, branch, say=say).start()
        _repos[repo] = (pusher, count + 1)
        _serving[folder.resolve()] = pusher
    return pusher


def stopped(folder: Path, pusher: Pusher) -> None:
    """The campaign's application stops: its repository's pusher stops with its last campaign
    (commits not pushed yet are pushed first at the next start)."""
    with _guard:
        _serving.pop(folder.resolve(), None)
        count = _repos.get(pusher.repo, (pusher, 1))[1] - 1
        if count > 0:
            _repos[pusher.repo] = (pusher, count)
            return
        _repos.pop(pusher.repo, None)
    pusher.stop()


def state_of(folder: Path) -> Pushed | None:
    """Where the campaign's backup stands, when this process pushes it (`--push`)."""
    found = _serving.get(folder.resolve())
    return None if found is None else found.state()
