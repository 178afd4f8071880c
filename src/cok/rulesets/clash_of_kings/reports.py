"""What the shared commands show for a Clash of Kings campaign: a recording's summary (with
each player's CP before and after) and the standings."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cok.core.ruleset import Report, Standings

if TYPE_CHECKING:
    from cok.core.campaign import Campaign
    from cok.core.ledger import Recorded


def recording_report(rec: Recorded) -> Report:
    from cok.render import documents
    from cok.render.views import Line
    from cok.rulesets.clash_of_kings.words import Teller, signed

    state = rec.state
    teller = Teller(state)
    summary = rec.text
    before: dict[str, int] = rec.before
    after = {p: state.total_cp(p) for p in state.players}
    changes = {p: (before.get(p, 0), cp) for p, cp in after.items() if before.get(p, 0) != cp}
    document = {
        "written": rec.written,
        "event": rec.event.model_dump(mode="json", exclude_none=True),
        "outcome": {"type": type(rec.outcome).__name__.lower(), **documents.plain(rec.outcome)},
        "summary": summary,
        "cp": {p: {"before": b, "after": a} for p, (b, a) in changes.items()},
    }
    lines = [
        summary,
        *(f"  {teller.who(pid)}: {was} → {now} CP ({signed(now - was)})" for pid, (was, now) in changes.items()),
        Line.of(f"recorded as {rec.event.id}", "dim") if rec.written else Line.of("dry run: nothing written", "yellow"),
    ]
    return Report(lines, document)


def standings_report(campaign: Campaign) -> Standings:
    """The players ranked, as a table or as the `--json` document (each made when asked)."""
    from cok.rulesets.clash_of_kings.rules.scoring import standings

    state = campaign.state
    table = standings(state)

    def lines() -> list[Any]:
        from cok.rulesets.clash_of_kings.views import standings_grid

        return [standings_grid(campaign.name, state, table)]

    def document() -> dict[str, Any]:
        from cok.rulesets.clash_of_kings.documents import standings_doc

        return standings_doc(campaign.name, state, table)

    return Standings(lines, document)
