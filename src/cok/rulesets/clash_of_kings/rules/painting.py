"""Painting Bonus: Fully Painted, Raise the Banners, Commission the Maesters."""

from __future__ import annotations

from cok.core.errors import RuleError
from cok.core.names import unknown
from cok.rulesets.clash_of_kings.events import Painting
from cok.rulesets.clash_of_kings.rules.outcomes import Painted
from cok.rulesets.clash_of_kings.rules.state import State
from cok.rulesets.clash_of_kings.rules.weeks import battle_week

#: "to a maximum of 3 CP" a week for Raise the Banners.
BANNERS_CAP = 3
#: "you must complete 4 individual NCU or Attachment models" for one point.
MODELS_PER_POINT = 4


def banners_cp(units: int, models: int) -> int:
    """Raise the Banners for a week's painting: a point per unit, a point per 4 NCU or
    attachment models, at most 3."""
    return min(BANNERS_CAP, units + models // MODELS_PER_POINT)


def decide_painting(state: State, event: Painting) -> Painted:
    """A week's painting claim. Fully painted and new units need a battle that week,
    recorded earlier; each bonus has its weekly limit; a claim the rules refuse is an error."""
    player = event.player
    if player not in state.players:
        raise RuleError(unknown(player, state.players, "player"))
    week = battle_week(state, event.week)
    if not (event.fully_painted or event.units or event.models or event.commissioned):
        raise RuleError("the painting claim claims nothing: give `fully_painted`, `units`, `models` or `commissioned`")
    fought = (player, week) in state.fought
    no_battle = f"{player} has no battle recorded in week {week}"

    fully = 0
    if event.fully_painted:
        if not fought:
            raise RuleError(f"{no_battle}: Fully Painted needs a game played that week")
        if (player, week) in state.fully_painted:
            raise RuleError(f"{player} has already claimed Fully Painted for week {week} (once a week)")
        fully = 1

    banners = 0
    if event.units or event.models:
        if not fought:
            raise RuleError(f"{no_battle}: Raise the Banners is for units painted and fielded in a battle")
        units, models = state.banners.get((player, week), (0, 0))
        banners = banners_cp(units + event.units, models + event.models) - banners_cp(units, models)

    commission = 0
    other = event.commissioned
    if other is not None:
        if other == player:
            raise RuleError("Commission the Maesters is for painting a unit of another player, not your own")
        if other not in state.players:
            raise RuleError(unknown(other, state.players, "player"))
        if (player, week) in state.commission_weeks:
            raise RuleError(f"{player} has already claimed Commission the Maesters for week {week} (once a week)")
        if (player, other) in state.commissioned:
            raise RuleError(
                f"{player} has already painted a unit for {other}; "
                "Commission the Maesters counts once for each other player"
            )
        commission = 1
    return Painted(player, week, fully, banners, commission, other, event.units, event.models)
