"""Signed-in phones: a session per opened link. The cookie holds a random session id; the server
keeps only its SHA-256 (in the user's data folder, beside the links), so a restart keeps every
phone signed in and nothing kept signs one in. Each session's CSRF token is derived from its id,
so it is never kept either. Sessions are bounded (a few phones a person, a few thousand in all)
and the expired ones purged, so a link holder starting sessions in a loop fills nothing."""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import json
import secrets
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from cok.core.folders import write_private
from cok.links.invites import Link

COOKIE = "cok_session"
LIFETIME = 30 * 24 * 3600  # a month of game nights
PER_LINK = 8  # a person's phones, tablets and laptops; the oldest is signed out past it
MOST = 4000  # every session of a campaign, whoever holds them


def _hashed(sid: str) -> str:
    return hashlib.sha256(sid.encode()).hexdigest()


def _csrf_of(sid: str) -> str:
    """The session's CSRF token: derived from its id, which only the phone's cookie holds."""
    return hmac.new(sid.encode(), b"cok csrf", hashlib.sha256).hexdigest()


@dataclass(frozen=True)
class Session:
    link: Link
    csrf: str = field(default_factory=lambda: secrets.token_urlsafe(32))
    started: float = field(default_factory=time.time)

    def checks(self, given: str | None) -> bool:
        """Whether a form's CSRF field is this session's, compared in constant time."""
        return given is not None and hmac.compare_digest(given.encode(), self.csrf.encode())


@dataclass(frozen=True)
class _Kept:
    link: Link
    started: float  # seconds since the epoch: a restart does not restart the month


class Sessions:
    """The sessions of one campaign, kept in `path` (none: in memory only, as tests use it)."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path
        self.folder: Path | None = None  # a campaign's: kept under its identity (`of_campaign`)
        self._by_hash: dict[str, _Kept] = {}
        self._lock = threading.Lock()
        self._load()

    @classmethod
    def of_campaign(cls, folder: Path) -> Sessions:
        """A campaign's sessions, kept under its identity: the first session gives the campaign
        its `id:` (as its first link does), so moving the folder signs no phone out, whenever
        the server was started; sessions kept by the folder's path before are read, then moved."""
        from cok.links.invites import sessions_by_path, sessions_store

        made = cls(None)
        made.folder = folder
        for path in (sessions_by_path(folder), sessions_store(folder)):
            made.path = path
            made._load()
        made.path = sessions_store(folder)
        return made

    def __len__(self) -> int:
        return len(self._by_hash)

    def start(self, link: Link) -> str:
        sid = secrets.token_urlsafe(32)
        now = time.time()
        with self._lock:
            self._purge(now)
            same = sorted((k for k in self._by_hash.items() if k[1].link == link), key=lambda k: k[1].started)
            for gone, _ in same[: max(0, len(same) - PER_LINK + 1)]:
                del self._by_hash[gone]
            if len(self._by_hash) >= MOST:
                oldest = min(self._by_hash, key=lambda h: self._by_hash[h].started)
                del self._by_hash[oldest]
            self._by_hash[_hashed(sid)] = _Kept(link, now)
            self._save()
        return sid

    def find(self, sid: str | None) -> Session | None:
        if not sid:
            return None
        key = _hashed(sid)
        with self._lock:
            found = self._by_hash.get(key)
            if found is None:
                return None
            if time.time() - found.started > LIFETIME:
                del self._by_hash[key]
                self._save()
                return None
        return Session(found.link, _csrf_of(sid), found.started)

    def end(self, sid: str | None) -> None:
        if not sid:
            return
        with self._lock:
            if self._by_hash.pop(_hashed(sid), None) is not None:
                self._save()

    def _purge(self, now: float) -> None:
        for key in [k for k, v in self._by_hash.items() if now - v.started > LIFETIME]:
            del self._by_hash[key]

    def _load(self) -> None:
        if self.path is None:
            return
        read: dict[str, _Kept] = {}
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
            for d in data["sessions"]:
                link = Link(str(d["name"]), bool(d["organiser"]), str(d["link"]))
                read[str(d["hash"])] = _Kept(link, float(d["started"]))
        except (OSError, ValueError, KeyError, TypeError):
            read.clear()  # none kept, or unreadable: every phone opens its link again
        self._by_hash.update(read)
        self._purge(time.time())

    def _save(self) -> None:
        """Written whole to a new file readable by this user only, then moved over the old one."""
        if self.folder is not None:
            self._follow_identity(self.folder)
        if self.path is None:
            return
        rows = [
            {"hash": h, "name": k.link.name, "organiser": k.link.organiser, "link": k.link.hashed, "started": k.started}
            for h, k in self._by_hash.items()
        ]
        with contextlib.suppress(OSError):  # else they hold in memory; a restart then signs these phones out
            write_private(self.path, {"sessions": rows})
            if self.folder is not None:
                from cok.links.invites import sessions_by_path

                if sessions_by_path(self.folder) != self.path:
                    sessions_by_path(self.folder).unlink(missing_ok=True)  # moved under the identity

    def _follow_identity(self, folder: Path) -> None:
        """The campaign given its identity (its first session, when no link made it yet), and
        the file named by it; a campaign.yaml that cannot take one keeps the sessions by path."""
        from cok.links.invites import give_identity, sessions_by_path, sessions_store

        try:
            give_identity(folder)
        except (OSError, ValueError):  # filelock's Timeout is an OSError
            self.path = sessions_by_path(folder)
            return
        self.path = sessions_store(folder)


class NoStore:
    """ASGI middleware: a page or answer made for a request that carries a session cookie is
    never kept by the browser or a proxy (`Cache-Control: no-store`): it may show what only
    that person sees, and the shared phone's Back button must not show it to the next."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        signed = scope["type"] == "http" and any(
            name == b"cookie" and COOKIE.encode() + b"=" in value for name, value in scope.get("headers", [])
        )
        if not signed:
            await self.app(scope, receive, send)
            return

        async def stored_nowhere(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = [(k, v) for k, v in message.get("headers", []) if k.lower() != b"cache-control"]
                message["headers"] = [*headers, (b"cache-control", b"no-store")]
            await send(message)

        await self.app(scope, receive, stored_nowhere)
