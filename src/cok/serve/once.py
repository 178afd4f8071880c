"""Each write happens once: a form's one-time token, spent by the recording it made (a form
sent again — Back and send, a reload of an answer to a POST — is asked before it records
again); what a recording showed, kept for the page the phone is sent to after it (so a
reload reads it again and records nothing); and the JSON API's `Idempotency-Key`, whose
first answer is given again to the same key. All in the server's memory, bounded (a restart
forgets them: an old form then records as a new one would, the rules still deciding)."""

from __future__ import annotations

import hashlib
import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

from starlette.responses import Response

#: How many of each the server remembers: far more than a club's night of recordings.
KEPT = 4096

K = TypeVar("K")
V = TypeVar("V")


class Kept(Generic[K, V]):
    """A map of at most KEPT entries, the oldest forgotten first; thread-safe."""

    def __init__(self, size: int = KEPT) -> None:
        self._items: OrderedDict[K, V] = OrderedDict()
        self._size = size
        self._lock = threading.Lock()

    def get(self, key: K) -> V | None:
        with self._lock:
            return self._items.get(key)

    def put(self, key: K, value: V) -> None:
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > self._size:
                self._items.popitem(last=False)

    def claim(self, key: K, value: V) -> V | None:
        """Put `value` unless the key is there: None when claimed, else what it holds."""
        with self._lock:
            if key in self._items:
                return self._items[key]
            self._items[key] = value
            while len(self._items) > self._size:
                self._items.popitem(last=False)
            return None

    def drop(self, key: K) -> None:
        with self._lock:
            self._items.pop(key, None)


def token() -> str:
    """A form's one-time token, made as its page is rendered (`{{ once() }}` in a template)."""
    return secrets.token_urlsafe(16)


@dataclass(frozen=True)
class Shown:
    """What a recording showed: its events in words and any warning (a failed commit)."""

    who: str
    told: tuple[str, ...]
    warnings: tuple[str, ...]
    next_turn: str | None = None  # whose turn it is now, in words, as the terminal's "Next: …"


#: A token claimed by a recording still under way.
PENDING = Shown("", (), ())


class Sent:
    """The forms' tokens spent, each with what its recording showed; and the recordings' pages."""

    def __init__(self) -> None:
        self.tokens: Kept[str, Shown] = Kept()
        self.pages: Kept[str, Shown] = Kept()
        self.last: Kept[str, tuple[str, object, Shown]] = Kept()  # per person: what they sent last

    def repeated(self, who: str, sent: str, signature: Callable[[], object]) -> Shown | None:
        """What `who` recorded last, when this form sends the same with nothing recorded since:
        the same form sent again from a page the browser fetched anew on Back (a new token,
        the fields as typed restored)."""
        last = self.last.get(who)
        if last is None or last[0] != sent or last[1] != signature():
            return None
        return last[2]

    def last_of(self, who: str, sent: str, signature: object, shown: Shown) -> None:
        self.last.put(who, (sent, signature, shown))

    def claim(self, once: str) -> Shown | None:
        """Take a form's token for its recording: None when it was not spent, else what its
        recording showed (PENDING while that recording is under way)."""
        return self.tokens.claim(once, PENDING)

    def spent(self, once: str | None, shown: Shown) -> None:
        if once:
            self.tokens.put(once, shown)

    def released(self, once: str | None) -> None:
        """Nothing was recorded (a question, a refusal): the form may be sent again."""
        if once and self.tokens.get(once) is PENDING:
            self.tokens.drop(once)

    def page(self, shown: Shown) -> str:
        """Where the phone is sent after recording: `/recorded/<key>`."""
        key = secrets.token_urlsafe(12)
        self.pages.put(key, shown)
        return key


class Replies:
    """The JSON API's `Idempotency-Key`: per person and key, the body sent and the answer that
    recorded it. The same key and body answers that answer again, recording nothing; an
    answer that recorded nothing (a refusal, a question) is not kept."""

    def __init__(self) -> None:
        self._kept: Kept[tuple[str, str], tuple[str, int, bytes]] = Kept()

    def first(self, who: str, key: str, body: bytes) -> Response | None:
        """None: the key is new, and now taken for this request (`keep` or `release` it)."""
        kept = self._kept.claim((who, key), _PENDING)
        if kept is None:
            return None
        from cok.serve.problems import problem  # the one error document

        digest, status, answer = kept
        if kept is _PENDING:
            message = "a request with this Idempotency-Key is being recorded: send it again in a moment"
            return problem(409, message)
        if digest != _digest(body):
            message = "this Idempotency-Key was sent with another event: use a new key for each event"
            return problem(422, message)
        return Response(answer, status, media_type="application/json", headers={"idempotent-replayed": "true"})

    def keep(self, who: str, key: str, body: bytes, answer: Response) -> None:
        self._kept.put((who, key), (_digest(body), answer.status_code, bytes(answer.body)))

    def release(self, who: str, key: str) -> None:
        if self._kept.get((who, key)) is _PENDING:
            self._kept.drop((who, key))


_PENDING = ("", 0, b"")


def _digest(body: bytes) -> str:
    return hashlib.sha256(body).hexdigest()
