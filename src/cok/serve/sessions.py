"""Signed-in phones: a session per opened link, kept in the server's memory (a restart signs
everyone out; the link signs them in again). The cookie holds only a random session id; each
session has its own CSRF token, which every form carries in a hidden field."""

from __future__ import annotations

import hmac
import secrets
import threading
import time
from dataclasses import dataclass, field

from cok.serve.invites import Link

COOKIE = "cok_session"
LIFETIME = 30 * 24 * 3600  # a month of game nights


@dataclass(frozen=True)
class Session:
    link: Link
    csrf: str = field(default_factory=lambda: secrets.token_urlsafe(32))
    started: float = field(default_factory=time.monotonic)

    def checks(self, given: str | None) -> bool:
        """Whether a form's CSRF field is this session's, compared in constant time."""
        return given is not None and hmac.compare_digest(given.encode(), self.csrf.encode())


class Sessions:
    def __init__(self) -> None:
        self._by_id: dict[str, Session] = {}
        self._lock = threading.Lock()

    def start(self, link: Link) -> str:
        sid = secrets.token_urlsafe(32)
        with self._lock:
            self._by_id[sid] = Session(link)
        return sid

    def find(self, sid: str | None) -> Session | None:
        if not sid:
            return None
        with self._lock:
            found = self._by_id.get(sid)
            if found is not None and time.monotonic() - found.started > LIFETIME:
                del self._by_id[sid]
                return None
        return found

    def end(self, sid: str | None) -> None:
        with self._lock:
            self._by_id.pop(sid or "", None)
