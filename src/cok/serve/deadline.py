"""Slow clients (issue 34): uvicorn has no timeout for a request still arriving (its keep-alive
timer restarts at every byte), so 140 clients trickling a header held every file descriptor.
Each connection here must deliver a whole request within REQUEST_WITHIN seconds of opening (or
of its previous answer), else it is closed; a phone's form arrives in well under a second."""

from __future__ import annotations

import asyncio
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

REQUEST_WITHIN = 10.0  # seconds for a request's headers and body
CONNECTIONS = 200  # uvicorn's limit_concurrency: past it, 503 (20 phones use a few dozen)
KEEP_ALIVE = 5  # seconds an idle connection stays open between requests


class Deadline(H11Protocol):
    """uvicorn's h11 protocol with a deadline for receiving each request."""

    _deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: Any) -> None:
        super().connection_made(transport)
        self._arm()

    def handle_events(self) -> None:
        super().handle_events()
        if self.conn.their_state in (h11.DONE, h11.MUST_CLOSE, h11.CLOSED, h11.SWITCHED_PROTOCOL):
            self._disarm()  # the whole request is in: answering it may take as long as it takes

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing():
            self._arm()  # the next request on this connection has its own deadline

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def _arm(self) -> None:
        self._disarm()
        self._deadline = self.loop.call_later(REQUEST_WITHIN, self._too_slow)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _too_slow(self) -> None:
        self._deadline = None
        if not self.transport.is_closing():
            self.transport.close()
