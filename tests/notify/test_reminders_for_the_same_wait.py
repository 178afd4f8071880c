"""Issue 45: a reminder is for the same wait — who, what, and in which period, without a
break since it began — never only for the same person (after a reform Dag was told five
times to resolve a month that was over; month 2's "an order" reminder landed on top of
month 3's)."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

from cok.notify import outbox
from tests.conftest import Cok
from tests.notify.conftest import Fake

HOUSES = ["baratheon", "stark", "lannister", "greyjoy", "tyrell"]


def _later(folder: Path, seconds: float) -> None:
    outbox.send(folder, now=lambda: time.time() + seconds)


def _month(kow: Cok) -> None:
    """The shipped campaign's month 2 played to its end, sending as it goes (each nudge posted
    while its wait is on), then the organiser's reform opens month 3."""
    for army in ("dag-1", "dag-2", "dag-3", "bo-4", "bo-5", "cy-1"):
        assert kow("mk", "order", army, "defend").exit_code == 0
        kow("notify", "send")
    while (found := re.search(r"to resolve one of ([\w-]+)", kow("mk", "status").stdout)) is not None:
        assert kow("mk", "resolve", found[1]).exit_code == 0
        kow("notify", "send")
    assert kow("mk", "reform").exit_code == 0
    kow("notify", "send")


def test_a_reminder_to_resolve_a_month_that_is_over_is_dropped_after_the_reform(kow: Cok, fake: Fake) -> None:
    kow("notify", "add", fake.url, "--only", "nudge", "--remind", "1h")
    _month(kow)
    assert "The ledger waits for dag: to resolve their orders." in fake.bodies  # during month 2
    fake.received.clear()
    _later(kow.cwd, 3600 + 600)  # every reminder of the evening falls due
    assert not any("to resolve" in b for b in fake.bodies)  # month 3 asks Dagny for an order


def test_last_months_order_reminder_is_dropped_when_the_next_month_asks_the_same(kow: Cok, fake: Fake) -> None:
    kow("notify", "add", fake.url, "--only", "nudge", "--remind", "1h")
    _month(kow)
    fake.received.clear()
    _later(kow.cwd, 3600 + 600)
    assert fake.bodies == ["The ledger waits for dag: an order."]  # month 3's alone, once


def test_a_reminder_for_a_turn_that_came_round_again_is_the_new_turns_alone(tmp_path: Path, fake: Fake) -> None:
    assert Cok(tmp_path)("init", "game", "--ruleset", "no-true-king").exit_code == 0
    ntk = Cok(tmp_path / "game")
    ntk("notify", "add", fake.url, "--only", "nudge", "--remind", "1h")
    for player, symbol in (("ana", "crown"), ("bo", "torch")):
        made = json.loads(ntk("ntk", "seal", player, *HOUSES, "--json").stdout)
        assert ntk("ntk", "join", player, "--symbol", symbol, "--seal", made["seal"]).exit_code == 0
    assert ntk("ntk", "begin", "--seats", "ana", "bo", "--first", "bo").exit_code == 0
    ntk("notify", "send")  # bo's turn (placement)
    assert ntk("ntk", "place", "bo", "stark", "lord").exit_code == 0
    ntk("notify", "send")  # ana's
    assert ntk("ntk", "place", "ana", "greyjoy", "maester").exit_code == 0
    ntk("notify", "send")  # bo's again: the same question in the same round, a new wait
    assert fake.bodies == [f"The ledger waits for {p}: their turn (placement)." for p in ("bo", "ana", "bo")]
    fake.received.clear()
    _later(ntk.cwd, 3600 + 600)
    assert fake.bodies == ["The ledger waits for bo: their turn (placement)."]  # once: the second turn's
