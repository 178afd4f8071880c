"""How long a chat service asks us to wait after `429 Too Many Requests` (issue 39: retried
with the service's `retry_after` honoured). Apprise answers a post only with success or
failure, so the answer is read on its way through `requests`, the HTTP library every Apprise
web service posts with: only while cok's own post is being sent (a context variable, which
Apprise copies into the threads it sends from), every other request passes untouched."""

from __future__ import annotations

import contextlib
import importlib
import json
import threading
import time
from collections.abc import Iterator
from contextvars import ContextVar
from email.utils import parsedate_to_datetime
from typing import Any

_seen: ContextVar[list[float | None] | None] = ContextVar("cok_notify_retry_after", default=None)
_installing = threading.Lock()


class Busy(Exception):
    """The service refused the post with 429 and said when to come back."""

    def __init__(self, seconds: float) -> None:
        super().__init__(f"429 Too Many Requests: the service asked to wait {seconds:g} s")
        self.seconds = seconds


@contextlib.contextmanager
def watching() -> Iterator[list[float | None]]:
    """The waits the services asked for (one per 429 answered, None when it said nothing of
    when) during this block. Once a service has answered 429, nothing more is sent in the
    block: Apprise's own immediate retry (its Discord plugin's) would not wait as asked."""
    _install()
    seen: list[float | None] = []
    token = _seen.set(seen)
    try:
        yield seen
    finally:
        _seen.reset(token)


def seconds(header: str | None, body: bytes, now: float | None = None) -> float | None:
    """The wait a 429 asks for: `Retry-After` (seconds, or an HTTP date), else the JSON body's
    `retry_after` (Discord's seconds), `parameters.retry_after` (Telegram's) or
    `retry_after_ms` (Matrix's); None when it says nothing."""
    if header:
        with contextlib.suppress(ValueError):
            return max(0.0, float(header.strip()))
        with contextlib.suppress(TypeError, ValueError, IndexError):
            when = parsedate_to_datetime(header.strip()).timestamp()
            return max(0.0, when - (time.time() if now is None else now))
    try:
        data: Any = json.loads(body) if body else None
    except ValueError:
        return None
    if not isinstance(data, dict):
        return None
    said = data.get("retry_after")
    if said is None and isinstance(data.get("parameters"), dict):
        said = data["parameters"].get("retry_after")
    if said is None and data.get("retry_after_ms") is not None:
        said = float(data["retry_after_ms"]) / 1000
    try:
        return None if said is None else max(0.0, float(said))
    except (TypeError, ValueError):
        return None


def _install() -> None:
    """Watch `requests`' answers once per process (a no-op for anyone not watching)."""
    requests: Any = importlib.import_module("requests")
    with _installing:
        original = requests.Session.send
        if getattr(original, "cok_watches", False):
            return

        def send(self: Any, request: Any, **kwargs: Any) -> Any:
            seen = _seen.get()
            if seen:  # this post was answered 429: the service gets nothing more until its wait is over
                raise requests.exceptions.ConnectionError("429 Too Many Requests: not asked again before its wait")
            response = original(self, request, **kwargs)
            if seen is not None and getattr(response, "status_code", None) == 429:
                seen.append(seconds(response.headers.get("Retry-After"), response.content or b""))
            return response

        send.cok_watches = True  # type: ignore[attr-defined]
        requests.Session.send = send
