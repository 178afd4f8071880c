"""Issue 45: a nudge is decided from the write it follows and checked against the ledger
again when it is sent; a nudge or reminder for a wait that is over, or for someone who has
answered, is dropped (Dany was asked to confirm 5.5 s after she disputed, Cy 26 s after
confirming: a first nudge was never checked again)."""

from __future__ import annotations

import json
from pathlib import Path

from cok.notify import outbox
from tests.conftest import Cok
from tests.notify.conftest import Fake


def _battle(cok: Cok, by: str, other: str) -> str:
    fought = ("battle", by, other, "--at", "Ghost Hill", "--vp", f"{by}=7", "--vp", f"{other}=5")
    done = cok(*fought, "--override", "a friendly game", env={"COK_BY": by})
    assert done.exit_code == 0, done.stderr
    return str(json.loads(cok("log", "--json").stdout)["events"][-1]["id"])


def test_a_first_nudge_to_confirm_a_result_she_disputed_before_it_was_sent_is_dropped(
    example: Path, fake: Fake
) -> None:
    cok = Cok(example)
    cok("invite", "dany", "--mention", "<@55>")
    cok("notify", "add", fake.url, "--only", "nudge")
    fought = _battle(cok, "tim", "dany")  # queued: "The ledger waits for <@55>: to confirm or dispute …"
    assert cok("dispute", fought, "--reason", "over points", env={"COK_BY": "dany"}).exit_code == 0
    cok("notify", "send")
    assert not any("to confirm or dispute" in b for b in fake.bodies)
    assert any("(organiser) to settle a dispute" in b or "an organiser" in b for b in fake.bodies)


def test_a_first_nudge_to_confirm_a_result_he_confirmed_before_it_was_sent_is_dropped(
    example: Path, fake: Fake
) -> None:
    cok = Cok(example)
    cok("notify", "add", fake.url, "--only", "nudge")
    fought = _battle(cok, "tim", "matt")
    assert cok("confirm", fought, env={"COK_BY": "matt"}).exit_code == 0
    assert cok("notify", "send").exit_code == 0
    assert fake.bodies == []
    assert outbox.pending(example) == [] or all(w.key.endswith(".again") for w in outbox.pending(example))


def test_a_first_nudge_to_settle_a_dispute_settled_before_it_was_sent_is_dropped(example: Path, fake: Fake) -> None:
    cok = Cok(example)
    cok("invite", "--organiser", "Ann", "--mention", "<@1>")
    cok("notify", "add", fake.url, "--only", "nudge")
    fought = _battle(cok, "tim", "matt")
    assert cok("dispute", fought, "--reason", "wrong table", env={"COK_BY": "matt"}).exit_code == 0
    assert cok("settle", fought, "--reason", "the table was right").exit_code == 0
    cok("notify", "send")
    assert not any("to settle a dispute" in b for b in fake.bodies)


def test_a_first_nudge_for_a_turn_that_is_over_when_it_is_sent_is_dropped(kow: Cok, fake: Fake) -> None:
    kow("notify", "add", fake.url)
    kow("mk", "order", "dag-1", "defend")  # Dagny is nudged for an order: queued, not yet sent
    kow("mk", "order", "dag-2", "defend")
    kow("mk", "order", "dag-3", "defend")  # her wait is over: Bo's begins
    kow("notify", "send")
    assert fake.bodies == ["The ledger waits for bo: an order."]


def test_a_nudge_still_asked_when_it_is_sent_goes_out(kow: Cok, fake: Fake) -> None:
    kow("notify", "add", fake.url)
    kow("mk", "order", "dag-1", "defend")
    kow("notify", "send")
    assert fake.bodies == ["The ledger waits for dag: an order."]


def test_a_nudge_is_checked_against_a_recording_made_while_earlier_posts_were_being_sent(
    example: Path, fake: Fake
) -> None:
    cok = Cok(example)
    cok("notify", "add", fake.url)
    first, second = _battle(cok, "tim", "matt"), _battle(cok, "tim", "dany")
    given: list[str] = []

    def slow_service(destination: object, text: str) -> bool:
        given.append(text)
        if len([t for t in given if "ledger waits" not in t]) == 2 and "ledger waits" not in text:  # 2nd battle
            assert cok("confirm", second, env={"COK_BY": "dany"}).exit_code == 0  # meanwhile, on her phone
        return True

    outbox.send(example, sender=slow_service)
    asked = [t for t in given if "The ledger waits for" in t]
    assert len(asked) == 1 and f"the result {first}" in asked[0]  # Matt's; Dany's dropped: she had confirmed
