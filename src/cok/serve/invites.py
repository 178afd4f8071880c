"""The personal links of `cok invite`: each a random token (256 bits) that signs a phone in as
a player or an organiser. Only the tokens' SHA-256 hashes are kept, in the user's data folder
($COK_DATA_DIR moves it) under a name derived from the campaign folder: never in the campaign
folder, which git tracks and the other players read."""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import secrets
from dataclasses import dataclass
from pathlib import Path

from cok.core.folders import data_dir

TOKEN_BYTES = 32  # 256 random bits: well over the 128 the issue asks


@dataclass(frozen=True)
class Link:
    """One invited person: a player id of the campaign, or an organiser's name."""

    name: str
    organiser: bool
    hashed: str  # the token's SHA-256, hex


def store(folder: Path) -> Path:
    """The file of this campaign's links: one per campaign folder, named by its resolved path."""
    key = hashlib.sha256(str(folder.resolve()).encode()).hexdigest()[:24]
    return data_dir() / "invites" / f"{key}.json"


def hashed(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def links(folder: Path) -> list[Link]:
    """The campaign's links (none when nobody was invited, or the file cannot be read)."""
    try:
        data = json.loads(store(folder).read_text(encoding="utf-8"))
        return [Link(str(d["name"]), bool(d["organiser"]), str(d["hash"])) for d in data["links"]]
    except (OSError, ValueError, KeyError, TypeError):
        return []


def _keep(folder: Path, kept: list[Link]) -> None:
    """Written whole to a new file readable by this user only, then moved over the old one."""
    path = store(folder)
    path.parent.mkdir(parents=True, exist_ok=True)
    data = {
        "campaign": str(folder.resolve()),
        "links": [{"name": k.name, "organiser": k.organiser, "hash": k.hashed} for k in kept],
    }
    temporary = path.with_suffix(f".{os.getpid()}.tmp")
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        json.dump(data, handle, indent=1)
        handle.write("\n")
    os.replace(temporary, path)


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
            stat = store(self.folder).stat()
            seen: tuple[int, int] | None = (stat.st_mtime_ns, stat.st_size)
        except OSError:
            seen = None
        if seen != self._seen:
            self._links = links(self.folder) if seen is not None else []
            self._seen = seen
