"""The post-write hook of `cok serve --commit`: each recording committed to the campaign's
git repository, so that its history is the audit trail. Only the log is added (nothing
else the user has not asked for), with the recorder as the author and the events told
in words as the message."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import TYPE_CHECKING

from cok.core.folders import EVENTS_FILE

if TYPE_CHECKING:
    from cok.service.recording import Recording

#: A git command that hangs (a lock, a hook waiting for input) never holds the campaign's lock long.
TIMEOUT = 30.0


def git_commit(folder: Path, recording: Recording, author: str) -> None:
    """Commit the log as it now is. Raises OSError (git missing, not a repository) or
    RuntimeError (git refused) with git's reason; the events stay in the log either way."""
    folder = Path(folder)
    log = (folder / EVENTS_FILE).resolve()
    top = _git(folder, "rev-parse", "--show-toplevel").strip()
    if not top:
        raise RuntimeError(f"{folder} is not in a git repository")
    name = " ".join(author.split()) or "cok"
    message = "\n".join(recording.told) or "cok: recorded"
    _git(folder, "add", "--", str(log))
    _git(
        folder,
        "-c",
        f"user.name={name}",
        "-c",
        "user.email=cok@localhost",
        "commit",
        "--quiet",
        "--no-verify",
        f"--author={name} <cok@localhost>",
        "--message",
        message,
        "--",
        str(log),
    )


def _git(folder: Path, *args: str) -> str:
    try:
        done = subprocess.run(["git", *args], cwd=folder, capture_output=True, text=True, timeout=TIMEOUT, check=False)
    except subprocess.TimeoutExpired:
        raise RuntimeError(f"git {args[0]} took longer than {TIMEOUT:.0f} s") from None
    if done.returncode != 0:
        said = (done.stderr or done.stdout).strip().splitlines()
        raise RuntimeError(f"git {args[0]} failed: {said[-1] if said else f'exit code {done.returncode}'}")
    return done.stdout
