"""Issue 39: a nudge when the ledger waits for one person, mentioning them by the chat
handle given with their link, posted once and again after the organiser's delay; and
`cok serve` sending the outbox from its own thread."""

from __future__ import annotations

import json
import time
from pathlib import Path

from cok.notify import outbox
from cok.notify.courier import Courier, serving
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
    _hook, courier = serving(example, None)
    courier.start()
    try:
        deadline = time.monotonic() + 10
        while not fake.received and time.monotonic() < deadline:
            time.sleep(0.05)
    finally:
        courier.stop()
    assert len(fake.received) == 1


def test_the_servers_hook_only_queues_and_wakes_the_courier(example: Path, fake: Fake, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    cok = Cok(example)
    cok("notify", "add", fake.url)
    seen = []
    queue = outbox.enqueue
    monkeypatch.setattr(outbox, "enqueue", lambda folder, recording: seen.append(recording) or 0)
    cok("battle", "tim", "matt", "--at", "Sunspear", "--winner", "tim")
    monkeypatch.setattr(outbox, "enqueue", queue)
    committed = []
    hook, courier = serving(example, lambda recording, who: committed.append(who))
    assert isinstance(courier, Courier)
    hook(seen[0], "tim")
    assert fake.received == [] and committed == ["tim"]  # nothing sent under the lock
    deadline = time.monotonic() + 10
    while not outbox.pending(example) and time.monotonic() < deadline:  # written after it, by a thread
        time.sleep(0.02)
    assert len(outbox.pending(example)) == 1 and fake.received == []  # the courier (not started) sends


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
