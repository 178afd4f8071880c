"""What the shared commands show for a Mighty Kingdoms campaign: a recording's summary (what
changed for each kingdom) and the standings."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cok.core.ruleset import Report, Standings

if TYPE_CHECKING:
    from cok.core.campaign import Campaign
    from cok.core.ledger import Recorded
    from cok.rulesets.mighty_kingdoms.rules.state import State

_TALLIED = ("tiles", "settlements", "armies", "gold", "food")


def tally(state: State) -> dict[str, dict[str, int]]:
    """Per kingdom: what a summary compares before and after an event."""
    return {
        p: {
            "tiles": len(state.tiles_of(p)),
            "settlements": sum(1 for t in state.tiles_of(p) if t in state.settlement),
            "armies": len(state.armies_of(p)),
            "gold": k.gold,
            "food": k.food,
        }
        for p, k in state.kingdoms.items()
    }


def recording_report(rec: Recorded) -> Report:
    from cok.render.views import Line
    from cok.rulesets.mighty_kingdoms.documents import outcome_doc
    from cok.rulesets.mighty_kingdoms.rules.summer import describe

    state: State = rec.state
    before: dict[str, dict[str, int]] = rec.before
    after = tally(state)
    changes = {
        p: {
            k: {"before": before.get(p, {}).get(k, 0), "after": v}
            for k, v in now.items()
            if before.get(p, {}).get(k, 0) != v
        }
        for p, now in after.items()
    }
    changes = {p: c for p, c in changes.items() if c}
    document = {
        "written": rec.written,
        "event": rec.event.model_dump(mode="json", exclude_none=True),
        "outcome": outcome_doc(rec.outcome),
        "summary": rec.text,
        "changes": changes,
        "next": describe(state),
    }
    lines: list[Any] = [rec.text, *battle_lines(rec.outcome)]
    for player, changed in changes.items():
        name = state.kingdoms[player].name
        lines.append(f"  {name}: " + ", ".join(f"{k} {v['before']} → {v['after']}" for k, v in changed.items()))
    if rec.outcome.__class__.__name__ == "Recruited" and "terrain-recruits" in state.settings.advanced:
        from cok.rulesets.mighty_kingdoms.documents import recruit_terrain

        may = recruit_terrain(state, rec.outcome.player).get(rec.outcome.tile)
        if may:
            allowed = [w for w, ok in (("monsters", may["monsters"]), ("war machines", may["war_machines"])) if ok]
            lines.append(
                f"  its list may include {' and '.join(allowed) or 'no monsters, war machines or magic items'}"
            )
    lines.append(f"  next: {describe(state).split(': waiting for ', 1)[-1]}")
    lines.append(
        Line.of(f"recorded as {rec.event.id}", "dim") if rec.written else Line.of("dry run: nothing written", "yellow")
    )
    return Report(lines, document)


def battle_lines(outcome: Any) -> list[str]:
    """A simple battle's dice, one line each (who hit what), and the points each side lost."""
    from cok.rulesets.mighty_kingdoms.rules.outcomes import Fought

    if not isinstance(outcome, Fought) or not outcome.hits:
        return []
    lines = []
    for hit in outcome.hits:
        result = "hit, −100 points" if hit.hit else "no hit"
        fell = f"; {hit.target} is destroyed" if hit.destroyed else ""
        lines.append(f"  {hit.die_army} rolled {hit.die} at {hit.target} (Defence {hit.defence}): {result}{fell}")
    caused = dict(outcome.reduced)
    lost = {outcome.attacker: caused.get(outcome.defender, 0), outcome.defender: caused.get(outcome.attacker, 0)}
    lines.append("  points lost: " + ", ".join(f"{p} {n}" for p, n in lost.items()))
    return lines


def standings_report(campaign: Campaign) -> Standings:
    """The kingdoms ranked, as a table or as the `--json` document (each made when asked)."""
    state: State = campaign.state

    def lines() -> list[Any]:
        from cok.rulesets.mighty_kingdoms.views import standings_grid

        return [standings_grid(campaign.name, state)]

    def document() -> dict[str, Any]:
        from cok.rulesets.mighty_kingdoms.rules import phase as phases
        from cok.rulesets.mighty_kingdoms.rules.ranking import ranked

        return {
            "campaign": campaign.name,
            "ruleset": "mighty-kingdoms",
            "year": state.year or None,
            "season": phases.season(state),
            "month": state.month or None,
            "ranked_by": ["settlements", "tiles"],
            "kingdoms": [{"rank": rank, **row} for rank, row in ranked(state)],
        }

    return Standings(lines, document)
