"""Where a campaign is: the folder holding campaign.yaml (no heavy imports: every command starts here)."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO

from cok.core.errors import Problem, Refused, display_path

if TYPE_CHECKING:
    from collections.abc import Collection

SETTINGS_FILE = "campaign.yaml"
EVENTS_FILE = "events.yaml"
MAX_BYTES = 64 * 1024 * 1024


def find_campaign(given: str | None, cwd: Path | None = None) -> Path:
    """The campaign folder: --campaign, else $COK_CAMPAIGN, else the nearest campaign.yaml
    here or above, else the only campaign under ./campaigns/."""
    cwd = cwd or Path.cwd()
    for source, value in (("--campaign", given), ("COK_CAMPAIGN", os.environ.get("COK_CAMPAIGN"))):
        if value:
            folder = Path(value)
            if folder.is_file() and folder.name == SETTINGS_FILE:
                folder = folder.parent
            if not (folder / SETTINGS_FILE).is_file():
                raise Refused(Problem(str(folder), None, f"no {SETTINGS_FILE} here (from {source})"))
            return folder
    for folder in (cwd, *cwd.parents):
        if (folder / SETTINGS_FILE).is_file():
            return folder
    container = cwd / "campaigns"
    found = sorted(p.parent for p in container.glob(f"*/{SETTINGS_FILE}")) if container.is_dir() else []
    if len(found) == 1:
        return found[0]
    if found:
        listed = ", ".join(display_path(p) for p in found)
        raise Refused(f"several campaigns here ({listed}): choose one with --campaign DIR")
    raise Refused(
        f"no campaign found: no {SETTINGS_FILE} in {display_path(cwd)} or above, and no campaigns/ "
        "folder with one campaign. Use --campaign DIR, set COK_CAMPAIGN, or create one with `cok init DIR`"
    )


def read_bytes(path: Path, what: str) -> bytes:
    """The file's bytes, or a clear refusal: missing, a folder, not a regular file (a FIFO,
    a device), unreadable, too large — each said before anything is read."""
    shown = display_path(path)
    try:
        info = path.stat()
        if stat.S_ISDIR(info.st_mode):
            raise Refused(Problem(shown, None, f"{what} is a folder, not a file"))
        if not stat.S_ISREG(info.st_mode):
            raise Refused(Problem(shown, None, f"{what} is not a regular file (a pipe, a device or a socket)"))
        if info.st_size > MAX_BYTES:
            raise Refused(Problem(shown, None, f"{what} is larger than {MAX_BYTES // 2**20} MiB"))
        with open(path, "rb") as handle:
            data = handle.read(MAX_BYTES + 1)
    except FileNotFoundError:
        raise Refused(Problem(shown, None, f"{what} not found")) from None
    except OSError as exc:
        raise Refused(Problem(shown, None, f"cannot read {what}: {exc.strerror}")) from None
    if len(data) > MAX_BYTES:
        raise Refused(Problem(shown, None, f"{what} is larger than {MAX_BYTES // 2**20} MiB"))
    return data


SEARCHED = 1 << 20  # bytes of a file searched at a time (`mentions`)


def mentions(handle: BinaryIO, words: Collection[bytes], start: int = 0, end: int | None = None) -> bool:
    """Whether the file's bytes from `start` (to `end`, else its end) hold any of `words`,
    read a megabyte at a time: a question asked of a 20 MB log never holds it whole."""
    width = max(map(len, words), default=1) - 1  # an occurrence across two chunks
    handle.seek(start)
    carry, left = b"", (end - start) if end is not None else -1
    while left:
        chunk = handle.read(SEARCHED if left < 0 else min(SEARCHED, left))
        if not chunk:
            return False
        edge = carry + chunk[:width]
        if any(word in chunk or word in edge for word in words):
            return True
        carry = chunk[len(chunk) - width :] if width else b""
        left = left if left < 0 else left - len(chunk)
    return False


def refuse_dangling_link(path: Path, what: str) -> None:
    """A symlink that points at nothing is refused, never read as an empty file: writing
    through it would create a file wherever the link says, outside the campaign."""
    if path.is_symlink() and not path.exists():
        pointed = os.readlink(path)
        raise Refused(
            Problem(
                link_shown(path),
                None,
                f"{what} is a symlink to {pointed}, which does not exist; cok never creates a file through "
                "a link: point it at an existing file, or replace it with the file itself",
            )
        )


def link_shown(path: Path) -> str:
    """A symlink's own path as a user would type it (`display_path` names what it points at)."""
    return str(Path(display_path(path.parent)) / path.name)


def data_dir() -> Path:
    """The user's data folder for what must stay out of every campaign folder and out of git
    (sealed loyalty secrets, the hashes of invitation links): $COK_DATA_DIR, else the
    platform's. Refused when there is no home folder to put it in, rather than a folder
    named `~` wherever the command runs (what some platformdirs releases answer then)."""
    moved = os.environ.get("COK_DATA_DIR")
    if moved:
        return Path(moved)
    try:
        from platformdirs import user_data_dir

        found = Path(user_data_dir("cok"))
    except Exception:  # platformdirs looks up the home folder, which may fail in many ways
        found = Path("~")
    if not found.is_absolute():
        raise Refused("cok has no user data folder here (no home folder): set COK_DATA_DIR to a folder of yours")
    return found


def write_private(path: Path, data: Any, *, indent: int | None = None, sync: bool = False) -> None:
    """JSON written whole to a new file readable by this user only (0600), then moved over the
    old one: what the data folder keeps (link hashes, sessions, seeds, chat destinations) is a
    secret or stands for one, and a reader never sees half a file. `sync`: on the disk before
    the move (a seed that must outlive a crash)."""
    from cok.core.whole import replace_whole

    path.parent.mkdir(parents=True, exist_ok=True)
    replace_whole(path, json.dumps(data, indent=indent) + "\n", sync=sync, mode=0o600)
