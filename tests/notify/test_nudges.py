"""Issue 39: a nudge when the ledger waits for one person, mentioning them by the chat
handle given with their link, posted once and again after the organiser's delay; and
`cok serve` sending the outbox from its courier, started with the application."""

from __future__ import annotations

import json
import time
from pathlib import Path

from cok.notify import outbox
from cok.service import Draft, Who, record
from cok.service.followers import Followers
from tests.conftest import Cok
from tests.notify.conftest import Fake


def test_a_nudge_mentions_the_next_kingdom_to_give_an_order_once_by_their_chat_handle(kow: Cok, fake: Fake) -> None:
    assert kow("invite", "dag", "--mention", "<@1234>").exit_code == 0
    kow("notify", "add", fake.url)
    assert kow("mk", "order", "dag-1", "defend").exit_code == 0
    assert kow("mk", "order", "dag-2", "defend").exit_code == 0  # still Dagny: not nudged again
    kow("notify", "send")
    assert fake.bodies == ["The ledger waits for <@1234>: an order."]
    assert "<@1234>" not in (kow.cwd / "campaign.yaml").read_text() + (kow.cwd / "events.yaml").read_text()


def test_the_nudge_moves_on_to_the_next_kingdom_in_player_order(kow: Cok, fake: Fake) -> None:
    kow("notify", "add", fake.url)
    for army in ("dag-1", "dag-2", "dag-3"):
        kow("mk", "order", army, "defend")
    kow("notify", "send")  # sent after Dagny gave her three: her nudge's wait is over, dropped
    assert fake.bodies == ["The ledger waits for bo: an order."]


def test_a_nudge_is_posted_again_after_the_delay_the_organiser_sets_while_the_ledger_still_waits(
    kow: Cok, fake: Fake
) -> None:
    kow("notify", "add", fake.url, "--remind", "12h")
    for army in ("dag-1", "dag-2", "dag-3"):
        kow("mk", "order", army, "defend")
    kow("notify", "send")
    fake.received.clear()
    assert outbox.send(kow.cwd, now=lambda: time.time() + 11 * 3600) == (0, 0)  # not yet
    outbox.send(kow.cwd, now=lambda: time.time() + 12 * 3600 + 1)
    assert fake.bodies == ["The ledger waits for bo: an order."]  # Dagny gave hers: her reminder is dropped


def test_cok_serve_sends_what_was_recorded_at_a_terminal_from_a_courier_process_of_its_own(
    example: Path, fake: Fake
) -> None:
    cok = Cok(example)
    cok("notify", "add", fake.url)
    cok("battle", "tim", "matt", "--at", "Sunspear", "--winner", "tim")
    followers = Followers(example).start()  # as the application starts (its lifespan)
    try:
        deadline = time.monotonic() + 10
        while not fake.received and time.monotonic() < deadline:
            time.sleep(0.05)
    finally:
        followers.stop()
    assert len(fake.received) == 1


def test_a_recordings_posts_are_in_the_outbox_when_it_answers_and_it_sends_none_itself(
    example: Path, fake: Fake
) -> None:
    """Issue 45: the outbox is written before the answer (a kill after it loses no post);
    sending is the courier's, never the recording's."""
    Cok(example)("notify", "add", fake.url)
    fought = Draft("battle", {"players": ["tim", "matt"], "location": "Sunspear", "winner": "tim"})
    done = record(example, [fought], by=Who("tim"), followers=Followers(example))
    waiting = {w.key for w in outbox.pending(example)}
    assert done.events[0].id in waiting and f"{done.events[0].id}.confirm.matt" in waiting  # its post, its nudge
    assert fake.received == []


def test_the_summary_at_the_start_of_a_month_names_the_leaders_the_month_and_whom_the_ledger_waits_for(
    kow: Cok,
) -> None:
    from cok.core.campaign import open_campaign
    from cok.notify.posts import _summary

    standings = json.loads(kow("standings", "--json").stdout)
    leader = next(k["name"] for k in standings["kingdoms"] if k["rank"] == 1)
    said = _summary(open_campaign(kow.cwd))
    assert f"month {standings['month']}" in said and f"Leading: {leader}." in said
    assert said.endswith("Waiting for dag: an order.")
