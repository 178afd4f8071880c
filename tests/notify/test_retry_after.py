"""Issue 39: a post refused with `429 Too Many Requests` is retried with the service's
`retry_after` honoured, for every destination (json:// included, whose wait Apprise does not
pass on): the next try waits at least that long, then the post goes out once."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from cok.notify import outbox
from cok.notify.retry_after import seconds
from tests.conftest import Cok
from tests.notify.conftest import Fake


@pytest.mark.parametrize(
    ("header", "body"),
    [("2", b""), ("", b'{"message": "You are being rate limited.", "retry_after": 2.0}')],
    ids=["Retry-After header", "retry_after in the body (Discord, Telegram)"],
)
def test_the_next_try_after_a_429_waits_at_least_its_retry_after_then_posts_once(
    example: Path, fake: Fake, header: str, body: bytes, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(outbox, "FIRST_WAIT", 0.5)  # the back-off alone would try again sooner
    cok = Cok(example)
    cok("notify", "add", fake.url)
    cok("battle", "tim", "matt", "--at", "Sunspear", "--winner", "tim")
    fake.answers, fake.retry_after, fake.retry_body = [429], header, body
    deadline = time.monotonic() + 15
    while not fake.received and time.monotonic() < deadline:  # the courier's rounds, ten a second
        outbox.send(example)
        time.sleep(0.1)
    for _ in range(3):  # a second post would come now
        outbox.send(example)
    assert len(fake.times) == 2 and fake.times[1] - fake.times[0] >= 2.0
    assert len(fake.received) == 1


def test_a_429s_wait_is_shown_in_status_as_the_next_try(example: Path, fake: Fake) -> None:
    cok = Cok(example)
    cok("notify", "add", fake.url)
    cok("battle", "tim", "matt", "--at", "Sunspear", "--winner", "tim")
    fake.answer, fake.retry_after = 429, "600"  # longer than the first back-off (10 s)
    before = time.time()
    assert outbox.send(example) == (0, 1)
    waiting = json.loads(cok("notify", "status", "--json").stdout)["waiting"]
    assert waiting[0]["next_try"] >= before + 600 and "429" in waiting[0]["error"]
    fake.answer = 200
    assert outbox.send(example, now=lambda: before + 599) == (0, 0)  # not before the service said
    assert outbox.send(example, now=lambda: time.time() + 601) == (1, 0)


def test_retry_after_is_read_as_seconds_an_http_date_or_the_services_json() -> None:
    assert seconds("120", b"") == 120
    assert seconds("Wed, 21 Oct 2015 07:28:00 GMT", b"", now=1445412480 - 90) == 90
    assert seconds(None, b'{"ok": false, "error_code": 429, "parameters": {"retry_after": 7}}') == 7
    assert seconds(None, b'{"errcode": "M_LIMIT_EXCEEDED", "retry_after_ms": 2500}') == 2.5
    assert seconds(None, b"Too Many Requests") is None
