"""The personal links of `cok invite`: each a random token (256 bits) that signs a phone in as
a player or an organiser. Only the tokens' SHA-256 hashes are kept, in the user's data folder
($COK_DATA_DIR moves it) under the campaign's identity (the `id` of campaign.yaml, written by
the first invite), so they follow the campaign when its folder moves: never in the campaign
folder, which git tracks and the other players read. A campaign invited to before it had an id
kept its links under its path: they are read from there, and moved at the next invite."""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import json
import re
import secrets
from dataclasses import dataclass
from pathlib import Path

from cok.core.folders import SETTINGS_FILE, data_dir, write_private
from cok.core.whole import replace_whole

TOKEN_BYTES = 32  # 256 random bits: well over the 128 the issue asks


@dataclass(frozen=True)
class Link:
    """One invited person: a player id of the campaign, or an organiser's name."""

    name: str
    organiser: bool
    hashed: str  # the token's SHA-256, hex


def identity(folder: Path) -> str | None:
    """The campaign's `id` in campaign.yaml, if it has one yet (read again only when the file
    changed: the server asks at every request)."""
    import yaml

    settings = folder / SETTINGS_FILE
    try:
        stat = settings.stat()
        seen = (str(settings.resolve()), stat.st_mtime_ns, stat.st_size)
        if seen in _identities:
            return _identities[seen]
        data = yaml.safe_load(settings.read_text(encoding="utf-8"))
    except (OSError, ValueError, yaml.YAMLError):
        return None
    found = data.get("id") if isinstance(data, dict) else None
    known = found if isinstance(found, str) and re.fullmatch(r"[0-9a-f]{16,64}", found) else None
    _identities[seen] = known
    return known


_identities: dict[tuple[str, int, int], str | None] = {}


def give_identity(folder: Path) -> str:
    """The campaign's id, made once, with its first link or session: a line added at the end of
    campaign.yaml (the rest of the file as it was). Not a secret, and it moves with the campaign.
    campaign.yaml is the organiser's tracked file, so the line is written safely: under the
    lock of this file (a `cok invite` and a phone's first sign-in never both add one), the new
    text read back before it replaces the old whole (never half a file), and a file whose `id:`
    is there but unusable, or cannot take a line, is left as it was."""
    found = identity(folder)
    if found is not None:
        return found
    from filelock import FileLock

    settings = (folder / SETTINGS_FILE).resolve()
    lock = _by_path(folder, "locks").with_suffix(".lock")  # in the data folder: none left in the campaign's
    lock.parent.mkdir(parents=True, exist_ok=True)
    with FileLock(lock, timeout=60):
        found = identity(folder)  # another process may have made it while we waited
        if found is not None:
            return found
        text = settings.read_text(encoding="utf-8")
        made = secrets.token_hex(8)
        line = f"id: {made}  # links and sessions are kept under it\n"
        added = text + ("" if text.endswith("\n") or not text else "\n") + line
        if not _takes_id(text, added, made):
            raise OSError(f"could not add an id to {settings}: its `id:` is not one cok made, or it is not a mapping")
        replace_whole(settings, added, mode=settings.stat().st_mode & 0o7777)
    return made


def _takes_id(before: str, after: str, made: str) -> bool:
    """Whether the line added gives the campaign exactly this id, and the file had no `id:` key
    at all (a second one would be a repeated key, which the campaign's reader refuses)."""
    import yaml

    try:
        old, new = yaml.safe_load(before), yaml.safe_load(after)
    except yaml.YAMLError:
        return False
    return isinstance(old, dict) and "id" not in old and isinstance(new, dict) and new.get("id") == made


def _by_path(folder: Path, kind: str) -> Path:
    key = hashlib.sha256(str(folder.resolve()).encode()).hexdigest()[:24]
    return data_dir() / kind / f"{key}.json"


def key(folder: Path) -> str:
    """The name this campaign's files take in the data folder: its identity, else its path's hash."""
    found = identity(folder)
    return found if found is not None else _by_path(folder, "invites").stem


def kept(folder: Path, kind: str, suffix: str = ".txt") -> Path:
    """A file of the campaign's in the data folder (`kind/NAME.txt`): named by its identity, or
    the one named by its path while no file is kept under the identity yet (a campaign served
    before its first link gave it an id keeps what was remembered of it)."""
    named = data_dir() / kind / f"{key(folder)}{suffix}"
    by_path = data_dir() / kind / f"{_by_path(folder, kind).stem}{suffix}"
    return by_path if not named.exists() and by_path.exists() else named


def kept_line(folder: Path, kind: str) -> str | None:
    """The one line kept in the campaign's `kind` file (its public address, its club), if any."""
    try:
        found = kept(folder, kind).read_text(encoding="utf-8").strip()
    except OSError:
        return None
    return found or None


def store(folder: Path) -> Path:
    """The file of this campaign's links: named by the campaign's identity."""
    return data_dir() / "invites" / f"{key(folder)}.json"


def sessions_store(folder: Path) -> Path:
    """The file of this campaign's sessions (hashes of their ids), beside its links, named by
    the campaign's identity (serve/sessions.py gives the campaign one at its first session)."""
    return data_dir() / "sessions" / f"{key(folder)}.json"


def sessions_by_path(folder: Path) -> Path:
    """Where sessions were kept, named by the folder's path, by a server started before the
    campaign had an id: read once more, then moved under the id."""
    return _by_path(folder, "sessions")


def hashed(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def links(folder: Path) -> list[Link]:
    """The campaign's links (none when nobody was invited, or the file cannot be read)."""
    path = store(folder)
    if not path.exists() and _by_path(folder, "invites").exists():
        path = _by_path(folder, "invites")  # invited to before the campaign had an id
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return [Link(str(d["name"]), bool(d["organiser"]), str(d["hash"])) for d in data["links"]]
    except (OSError, ValueError, KeyError, TypeError):
        return []


def _keep(folder: Path, kept: list[Link]) -> None:
    """Written whole to a new file readable by this user only, then moved over the old one
    (the campaign given its identity first; a file kept under its path before then removed)."""
    with contextlib.suppress(OSError):  # else kept under the folder's path, as before ids
        give_identity(folder)
    path = store(folder)
    data = {
        "campaign": str(folder.resolve()),
        "links": [{"name": k.name, "organiser": k.organiser, "hash": k.hashed} for k in kept],
    }
    write_private(path, data, indent=1)
    legacy = _by_path(folder, "invites")
    if legacy != path:
        legacy.unlink(missing_ok=True)


def invite(folder: Path, name: str, organiser: bool = False) -> str:
    """A new link for this person (an earlier one of theirs stops working): the token."""
    token = secrets.token_urlsafe(TOKEN_BYTES)
    kept = [k for k in links(folder) if not (k.name == name and k.organiser == organiser)]
    _keep(folder, [*kept, Link(name, organiser, hashed(token))])
    return token


def revoke(folder: Path, name: str) -> list[Link]:
    """Every link of this name stops working; the links revoked."""
    every = links(folder)
    gone = [k for k in every if k.name == name]
    if gone:
        _keep(folder, [k for k in every if k.name != name])
    return gone


class Keys:
    """The links as the server checks them: read again only when the file changed, so that a
    `cok invite --revoke` takes effect at the next request without a restart."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._seen: tuple[int, int] | None = None
        self._links: list[Link] = []

    def current(self, link: Link) -> bool:
        """Whether this link still stands (not revoked, not replaced by a new one)."""
        self._read()
        return any(hmac.compare_digest(link.hashed.encode(), k.hashed.encode()) for k in self._links)

    def find(self, token: str) -> Link | None:
        """The link of this token, every hash compared in constant time."""
        self._read()
        given = hashed(token).encode()
        found = None
        for link in self._links:
            if hmac.compare_digest(given, link.hashed.encode()):
                found = link
        return found

    def _read(self) -> None:
        try:
            stat = store(self.folder).stat() if store(self.folder).exists() else _by_path(self.folder, "invites").stat()
            seen: tuple[int, int] | None = (stat.st_mtime_ns, stat.st_size)
        except OSError:
            seen = None
        if seen != self._seen:
            self._links = links(self.folder) if seen is not None else []
            self._seen = seen
