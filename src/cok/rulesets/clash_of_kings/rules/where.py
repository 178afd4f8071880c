"""`cok where`: who chooses the location, and where the battle may be fought."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field

from cok.rulesets.clash_of_kings.rules.attacker import as_brotherhood, choose_attacker
from cok.rulesets.clash_of_kings.rules.locations import any_location, legal_locations
from cok.rulesets.clash_of_kings.rules.state import State


@dataclass(frozen=True)
class Where:
    players: tuple[str, str]
    attacker: str | None
    defender: str | None
    decided_by: str
    step: str | None
    locations: list[str] | None
    options: list[Where] = field(default_factory=list)  # one per possible attacker, on a roll-off


def where(state: State, a: str, b: str, brotherhood: Collection[str] = (), given: str | None = None) -> Where:
    """Who chooses, and the legal locations; `brotherhood`: the players the battle names as
    fighting as the Brotherhood (a player of that faction always does)."""
    brotherhood = as_brotherhood(state, (a, b), brotherhood)
    attack = choose_attacker(state, a, b, brotherhood, given)
    if attack.decided_by == "roll-needed":
        options = [where(state, a, b, brotherhood, given=p) for p in (a, b)]
        return Where((a, b), None, None, "roll-needed", None, None, options)
    if attack.attacker is None or attack.defender is None:
        return Where((a, b), None, None, attack.decided_by, "any-location", any_location(state))
    step, legal = legal_locations(state, attack.attacker, attack.defender)
    return Where((a, b), attack.attacker, attack.defender, attack.decided_by, step, legal)
