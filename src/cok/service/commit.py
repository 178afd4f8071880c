"""`cok serve --commit`'s follower of every write (service/followers.py): each change committed
to the campaign's git repository, so that its history is the audit trail. A commit holds
exactly its change — the log as the last commit has it, plus the bytes this change appended,
dice commitments and reveals included (each their own change, or in the change they close) —
with the recorder as the author and the events told in words as the message; an event whose
commit failed is never swept into the next player's commit. Nothing else the user has not
asked for is added, and their own index and work tree are left as they are."""

from __future__ import annotations

import os
import subprocess
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

from cok.core.folders import EVENTS_FILE
from cok.core.text import for_terminal

if TYPE_CHECKING:
    from cok.service.change import Change

#: A git command that hangs (a lock, a hook waiting for input) never holds the campaign's lock long.
TIMEOUT = 30.0
EMAIL = "cok@localhost"


def git_commit(folder: Path, change: Change) -> None:
    """Commit this change's events, authored by who recorded them. Raises OSError (git
    missing, not a repository) or RuntimeError (git refused) with git's reason; the events
    stay in the log either way."""
    folder = Path(folder)
    log = (folder / EVENTS_FILE).resolve()
    top = _git(folder, "rev-parse", "--show-toplevel").decode(errors="replace").strip()
    if not top:
        raise RuntimeError(f"{folder} is not in a git repository")
    try:
        path = log.relative_to(Path(top).resolve()).as_posix()
    except ValueError:
        raise RuntimeError(f"the event log {log} is outside the repository {top}") from None
    name = _one_line(change.author) or "cok"
    message = for_terminal("\n".join(change.told)).strip() or "cok: recorded"
    parent = _head(folder)
    blob = _git(folder, "hash-object", "-w", "--stdin", given=_committed(folder, log, path, parent, change))
    blob_id = blob.decode().strip()
    env = {
        "GIT_AUTHOR_NAME": name,
        "GIT_AUTHOR_EMAIL": EMAIL,
        "GIT_COMMITTER_NAME": name,
        "GIT_COMMITTER_EMAIL": EMAIL,
    }
    with tempfile.TemporaryDirectory(prefix="cok-commit-") as scratch:
        index = {"GIT_INDEX_FILE": str(Path(scratch) / "index")}
        if parent:
            _git(folder, "read-tree", parent, env=index)
        _git(folder, "update-index", "--add", "--cacheinfo", f"100644,{blob_id},{path}", env=index)
        tree = _git(folder, "write-tree", env=index).decode().strip()
    made = _git(
        folder, "commit-tree", tree, *(("-p", parent) if parent else ()), "-F", "-", given=message.encode(), env=env
    )
    _git(folder, "update-ref", "HEAD", made.decode().strip(), parent or "0" * 40)
    # the user's index agrees with the commit for the log (their other staged changes stay)
    _git(folder, "update-index", "--add", "--cacheinfo", f"100644,{blob_id},{path}")


def _committed(folder: Path, log: Path, path: str, parent: str, change: Change) -> bytes:
    """The log as this commit holds it: the last commit's, and what this change appended
    (an event whose own commit failed stays out); the whole file when the last commit has
    no log yet or the change rewrote it."""
    appended = change.appended
    before = None
    if parent and appended is not None:
        try:
            before = _git(folder, "show", f"{parent}:{path}")
        except RuntimeError:  # the log is not in the last commit yet
            before = None
    if before is None or appended is None:
        return log.read_bytes()
    block = appended.lstrip(b"\n")
    return before + (b"\n" if before and not before.endswith(b"\n") else b"") + block


def _head(folder: Path) -> str:
    """The commit HEAD names, or "" in a repository without one yet."""
    try:
        return _git(folder, "rev-parse", "--verify", "-q", "HEAD^{commit}").decode().strip()
    except RuntimeError:
        return ""


def need_git(folder: Path) -> None:
    """`--commit` needs the campaign in a git repository: said to the organiser at start
    (RuleError), not to each player at their first recording."""
    import shutil

    from cok.core.errors import RuleError

    if shutil.which("git") is None:
        raise RuleError("--commit needs git, which is not installed here: install it, or serve without --commit")
    found = subprocess.run(
        ["git", "-C", str(folder), "rev-parse", "--is-inside-work-tree"],
        capture_output=True,
        text=True,
        check=False,
    )
    if found.returncode != 0 or found.stdout.strip() != "true":
        raise RuleError(
            f"--commit commits each recording to the campaign's git repository, and {folder} is in none: "
            f"run `git init` there (then `git add . && git commit -m start`), or serve without --commit"
        )


def _one_line(text: str) -> str:
    """An author's name as git can hold it: one line, no control characters nor `<>`."""
    shown = for_terminal(text, one_line=True).replace("<", "").replace(">", "")
    return " ".join(shown.split())


def _git(folder: Path, *args: str, given: bytes | None = None, env: dict[str, str] | None = None) -> bytes:
    try:
        done = subprocess.run(
            ["git", *args],
            cwd=folder,
            input=given if given is not None else b"",
            capture_output=True,
            timeout=TIMEOUT,
            check=False,
            env={**os.environ, **(env or {})},
        )
    except subprocess.TimeoutExpired:
        raise RuntimeError(f"git {args[0]} took longer than {TIMEOUT:.0f} s") from None
    if done.returncode != 0:
        said = (done.stderr or done.stdout).decode(errors="replace").strip().splitlines()
        raise RuntimeError(f"git {args[0]} failed: {said[-1] if said else f'exit code {done.returncode}'}")
    return done.stdout
