"""A default is the ledger's (docs/deadlines.md): recorded `by: ledger`, it is no result
awaiting the other side's confirmation, and no client may mark an event as a default."""

from __future__ import annotations

from pathlib import Path

import pytest

from cok.core.campaign import open_campaign
from cok.core.confirmation import results
from cok.core.dice import RandomDice
from cok.core.errors import RuleError
from cok.core.history import Told
from cok.rulesets.clash_of_kings import RULESET
from cok.service.access import refusal
from cok.service.drafts import Draft, Who, build


def battle(default: str | None) -> Told:
    event = {"type": "battle", "players": ["tim", "matt"], "by": "tim", **({"default": default} if default else {})}
    return Told(3, "b1", "b1", "battle", "tim beats matt", False, ("matt", "tim"), event)


def test_a_default_result_awaits_no_confirmation() -> None:
    assert list(results(RULESET, [battle(None)])) == ["b1"]  # a player's battle awaits the other side
    assert results(RULESET, [battle("deadline")]) == {}


def test_no_client_marks_an_event_as_a_default(week: Path) -> None:
    campaign = open_campaign(week)
    for field in ("default", "due"):
        with pytest.raises(RuleError, match="set by cok when it records, never given"):
            build(RULESET, campaign.state, Draft("week", {field: "deadline"}), {}, RandomDice())
    said = refusal(week, Draft("extend", {"length": "24h"}), Who("tim"))
    assert said == "an extend is recorded by an organiser; ask one"
