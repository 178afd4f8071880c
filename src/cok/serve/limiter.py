"""A burst of bad tokens from one address is slowed down: after `allowed` failures within
`window` seconds, a wrong link from that address is answered 429 (a wrong API token: 401, both
with Retry-After; serve/bearer.py) until the window passes, so that guessing a link costs
time. Only failures count, and a right link or token is never made to wait: a dozen phones
behind one club address (NAT) share it, and one player's stale link must not lock out
everyone's. Kept in the process, per address."""

from __future__ import annotations

import threading
import time
from collections import deque


class Limiter:
    def __init__(self, allowed: int = 10, window: float = 60.0) -> None:
        self.allowed = allowed
        self.window = window
        self._failures: dict[str, deque[float]] = {}
        self._lock = threading.Lock()

    def _recent(self, address: str, now: float) -> deque[float]:
        times = self._failures.setdefault(address, deque())
        while times and now - times[0] > self.window:
            times.popleft()
        return times

    def wait(self, address: str) -> int:
        """Seconds this address must wait before a token of theirs is looked at (0: none)."""
        now = time.monotonic()
        with self._lock:
            times = self._recent(address, now)
            if len(times) < self.allowed:
                if not times:
                    self._failures.pop(address, None)
                return 0
            return max(1, int(self.window - (now - times[0])) + 1)

    def judge(self, address: str, known: bool) -> int:
        """Seconds a token from this address must wait (0: answer it now). A known token
        never waits and never counts; an unknown one counts as a failure, unless the address
        is already waiting (then it only waits)."""
        if known:
            return 0
        wait = self.wait(address)
        if not wait:
            self.failed(address)
        return wait

    def failed(self, address: str) -> None:
        now = time.monotonic()
        with self._lock:
            self._recent(address, now).append(now)
            if len(self._failures) > 10_000:  # a flood of addresses: forget the quietest
                for quiet in [a for a, t in self._failures.items() if len(t) < 2][:5_000]:
                    del self._failures[quiet]
