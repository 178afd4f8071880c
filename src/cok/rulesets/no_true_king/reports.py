"""What the shared commands show for a No True King game: a recording's summary and the
standings (house rankings during play; scores and tie-breaks once over)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cok.core.ruleset import Report, Standings

if TYPE_CHECKING:
    from cok.core.campaign import Campaign
    from cok.core.ledger import Recorded


def recording_report(rec: Recorded) -> Report:
    from cok.render.views import Line
    from cok.rulesets.no_true_king.rules.turns import waits_text
    from cok.rulesets.no_true_king.words import waiting_words

    state = rec.state
    before: dict[str, int] = rec.before
    changed = {h: (before.get(h), r) for h, r in state.ranks.items() if before.get(h) != r}
    document = {
        "written": rec.written,
        "event": _public(rec.event.model_dump(mode="json", exclude_none=True), state.phase),
        "summary": rec.text,
        "ranks": {h: {"before": b, "after": a} for h, (b, a) in changed.items()},
        "waiting_for": waits_text(state),
        "next_turn": f"Next: {waiting_words(state)}.",  # the phone's Recorded page says it, in its words
    }
    lines = [
        rec.text,
        *(f"  {h}: rank {b} → {a}" for h, (b, a) in changed.items()),
        f"Next: {waits_text(state)}.",
        Line.of(f"recorded as {rec.event.id}", "dim") if rec.written else Line.of("dry run: nothing written", "yellow"),
    ]
    return Report(lines, document)


def _public(event: dict[str, object], phase: str) -> dict[str, object]:
    """The event as shown: an open loyalty card stays out of the output until the end."""
    if event.get("type") in ("conspiracy", "unseal") and phase != "over":
        return {k: v for k, v in event.items() if k not in ("loyalty", "secret")}
    return event


def standings_report(campaign: Campaign) -> Standings:
    """The houses and conspiracies ranked, as tables or as the `--json` document (each made
    when asked)."""
    state = campaign.state

    def lines() -> list[Any]:
        from cok.rulesets.no_true_king.views import standings_views

        return list(standings_views(campaign.name, state))

    def document() -> dict[str, Any]:
        from cok.rulesets.no_true_king.documents import standings_doc

        return standings_doc(campaign.name, state)

    return Standings(lines, document)
