"""Points Limit: week 1's limit is the campaign's start, and each week adds the step."""

from __future__ import annotations

from cok.core.errors import RuleError
from cok.rulesets.clash_of_kings.events import Week
from cok.rulesets.clash_of_kings.rules.outcomes import WeekStarted
from cok.rulesets.clash_of_kings.rules.state import State


def decide_week(state: State, event: Week) -> WeekStarted:
    """The next week's limit: as given, else last week's plus the campaign's step."""
    limit = event.limit if event.limit is not None else state.limit + state.settings.step
    return WeekStarted(state.week + 1, limit, event.limit is not None)


def battle_week(state: State, week: int | None) -> int:
    """A battle or painting claim's week: the current one, or an earlier one, never later."""
    if week is None:
        return state.week
    if week > state.week:
        raise RuleError(f"week {week} has not started yet (this is week {state.week})")
    return week
