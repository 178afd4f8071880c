"""What a Clash of Kings ledger waits for (issue 48, docs/deadlines.md): the organisers'
start of the next week. A week lasts until the organiser starts the next (`cok week --next`);
with `deadlines: {week: …}` in campaign.yaml, the ledger starts it at the deadline instead,
with the usual points limit (last week's + `points.step`), as `cok week --next` without
`--limit` would. Players are never waited for: their battles and painting are their own."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from cok.core.deadlines import NONE, Step, Wait

if TYPE_CHECKING:
    from cok.rulesets.clash_of_kings.rules.state import State

#: The next week starts at the deadline, with the usual limit rule: nothing is decided for a
#: player, and a week that ran out is exactly what the organiser would start by hand.
WEEK = Step(
    "week",
    "start of the next week",
    ("next", NONE),
    "the week ends as the organiser's `cok week --next` ends it, with the usual points limit "
    "(last week's + points.step): nothing is decided for any player",
)

STEPS: Sequence[Step] = (WEEK,)


def waits(state: State) -> Sequence[Wait]:
    """The organisers' start of the next week, once anyone has joined (a campaign nobody
    plays yet waits for nothing)."""
    if not state.players:
        return ()
    return (Wait("week", None, f"the start of week {state.week + 1}", f"week:{state.week}"),)


def defaults(state: State, wait: Wait, choice: str) -> Sequence[tuple[str, dict[str, Any]]]:
    """`next`: the ordinary `week` event with no limit (the usual rule); `none`: nothing."""
    if wait.step != "week" or choice == NONE:
        return ()
    return (("week", {}),)
