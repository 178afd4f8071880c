"""Issue 45: a destination that answered 429 gets nothing until its wait is over (its other
queued posts were still sent within the wait), and posts to one destination go in the log's
order (Ana's join arrived after "The game begins")."""

from __future__ import annotations

import time
from pathlib import Path

from cok.notify import outbox
from cok.notify.destinations import settings
from cok.notify.posts import Post
from tests.conftest import Cok
from tests.notify.conftest import Fake


def _battles(cok: Cok) -> None:
    for at in ("Sunspear", "Ghost Hill"):
        assert cok("battle", "tim", "matt", "--at", at, "--winner", "tim", "--override", "a test").exit_code == 0


def test_a_destination_that_answered_429_gets_nothing_until_its_wait_is_over(example: Path, fake: Fake) -> None:
    cok = Cok(example)
    cok("notify", "add", fake.url, "--only", "battle")
    _battles(cok)
    fake.answers, fake.retry_after = [429], "30"
    start = time.time()
    assert outbox.send(example, now=lambda: start) == (0, 1)
    assert outbox.send(example, now=lambda: start + 29) == (0, 0)  # the second post waits too
    assert fake.bodies == []
    assert outbox.send(example, now=lambda: start + 31) == (2, 0)
    assert "Sunspear" in fake.bodies[0] and "Ghost Hill" in fake.bodies[1]


def test_posts_to_one_destination_go_in_the_logs_order_when_the_first_failed(example: Path, fake: Fake) -> None:
    cok = Cok(example)
    cok("notify", "add", fake.url, "--only", "battle")
    _battles(cok)
    fake.answers = [500]
    start = time.time()
    outbox.send(example, now=lambda: start)  # the first fails: tried again 10 s later
    outbox.send(example, now=lambda: start + 5)  # the second never goes before it
    assert fake.bodies == []
    outbox.send(example, now=lambda: start + 11)
    assert len(fake.bodies) == 2 and "Sunspear" in fake.bodies[0] and "Ghost Hill" in fake.bodies[1]


def test_posts_to_one_destination_go_in_the_logs_order_whatever_order_they_were_queued_in(
    example: Path, fake: Fake
) -> None:
    cok = Cok(example)
    cok("notify", "add", fake.url)
    kept = settings(example)
    decided = time.time()  # each recording's posts are decided under the log's lock, in its order
    join = outbox.Prepared(kept, [Post("e1", "join", "Ana joins the game.")], decided, "e1")
    begins = outbox.Prepared(kept, [Post("e2", "round", "The game begins.")], decided + 0.01, "e2")
    outbox.put(example, begins)  # written to the outbox first (another process, a slower writer)
    outbox.put(example, join)
    outbox.send(example, now=lambda: decided + 1)  # both due (a post is due when it was decided)
    assert fake.bodies == ["Ana joins the game.", "The game begins."]


def test_another_destination_does_not_wait_for_one_that_asked_to_wait(example: Path, fake: Fake, own: Fake) -> None:
    cok = Cok(example)
    cok("notify", "add", fake.url, "--only", "battle")
    cok("notify", "add", own.url, "--only", "battle")
    _battles(cok)
    fake.answers = [429]
    outbox.send(example)
    assert fake.bodies == [] and len(own.bodies) == 2


def test_the_wait_a_429_asked_holds_even_when_the_post_it_refused_is_dropped(kow: Cok, fake: Fake) -> None:
    kow("notify", "add", fake.url)
    kow("mk", "order", "dag-1", "defend")
    fake.answers, fake.retry_after = [429], "30"
    start = time.time()
    outbox.send(kow.cwd, now=lambda: start)  # Dagny's nudge: 429
    kow("mk", "order", "dag-2", "defend")
    kow("mk", "order", "dag-3", "defend")  # her wait is over: her nudge is dropped, Bo's queued
    outbox.send(kow.cwd, now=lambda: start + 10)
    assert fake.bodies == []
    outbox.send(kow.cwd, now=lambda: start + 31)
    assert fake.bodies == ["The ledger waits for bo: an order."]


def test_a_429_holds_the_service_even_from_apprises_own_immediate_retry(example: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    import requests

    calls: list[float] = []

    def discord(self: object, request: object, **kwargs: object) -> requests.Response:
        """Discord, faked in the process: 429 with its JSON `retry_after` once, then 204."""
        calls.append(time.time())
        answer = requests.Response()
        answer.status_code = 429 if len(calls) == 1 else 204
        answer._content = b'{"retry_after": 30, "global": false}' if len(calls) == 1 else b""
        return answer

    monkeypatch.setattr(requests.Session, "send", discord)
    cok = Cok(example)
    cok("notify", "add", "discord://123456789012345678/aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789", "--only", "battle")
    _battles(cok)
    start = time.time()
    assert outbox.send(example, now=lambda: start) == (0, 1)
    assert len(calls) == 1  # Apprise's Discord plugin would post again at once: it is not let through
    assert outbox.send(example, now=lambda: start + 31) == (2, 0)
