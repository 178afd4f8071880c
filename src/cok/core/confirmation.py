"""Results the other side confirms or disputes (docs/confirm.md), read from the history alone:
each result (a game's `results`: battles) with who recorded it, who may confirm it, and where
it stands: awaiting the other side, confirmed, disputed (until an organiser settles it), or
kept by an organiser. Voided results and verdicts are left out, as the replay leaves them, and
so are the ledger's defaults for a missed deadline (docs/deadlines.md): decided by the rules,
not reported by a player, they await no one's word (an organiser voids a wrong one)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from cok.core.history import Told
    from cok.core.ruleset import Ruleset

#: Where a result stands.
AWAITING, CONFIRMED, DISPUTED, KEPT = "awaiting", "confirmed", "disputed", "kept"
VERDICT_TYPES = frozenset({"confirm", "dispute", "settle"})


@dataclass(frozen=True)
class Result:
    """One result as the other side's word and the organiser's ruling leave it."""

    id: str
    type: str
    line: int
    text: str
    by: str | None  # who recorded it
    players: tuple[str, ...]
    other: tuple[str, ...]  # who may confirm or dispute it (besides an organiser)
    status: str = AWAITING
    said_by: str | None = None  # who confirmed or disputed it last
    reason: str | None = None  # the dispute's reason
    ruling: str | None = None  # the organiser's reason for keeping it

    @property
    def marked(self) -> str:
        """A short mark for wherever the result is shown ('' when confirmed or kept)."""
        if self.status == DISPUTED:
            return f"disputed by {self.said_by}: {self.reason}"
        if self.status == AWAITING:
            return f"awaiting confirmation by {' or '.join(self.other)}"
        return ""

    def document(self) -> dict[str, object]:
        """The result's standing as `--json` shows it."""
        found: dict[str, object] = {"status": self.status, "other_side": list(self.other)}
        if self.said_by is not None:
            found["said_by"] = self.said_by
        if self.reason is not None:
            found["reason"] = self.reason
        if self.ruling is not None:
            found["ruling"] = self.ruling
        return found


def results(ruleset: Ruleset, history: Iterable[Told]) -> dict[str, Result]:
    """Every result of the history (not voided) by id, with where it stands."""
    found: dict[str, Result] = {}
    for told in history:
        if told.voided or told.id is None:
            continue
        if told.type in ruleset.results:
            if told.event.get("default") is not None:
                continue  # a missed deadline's default: the ledger's by the rules, nobody's word to confirm
            by = told.event.get("by")
            other = ruleset.other_side(frozenset(told.players), by)
            if other:
                found[told.id] = Result(
                    told.id, told.type, told.line, told.text, by, told.players, tuple(sorted(other))
                )
        elif told.type in VERDICT_TYPES:
            target = found.get(str(told.event.get("target")))
            if target is not None:
                found[target.id] = _after(target, told)
    return found


def _after(result: Result, told: Told) -> Result:
    who, reason = told.event.get("by"), told.event.get("reason")
    if told.type == "confirm":
        return replace(result, status=CONFIRMED, said_by=who, reason=None)
    if told.type == "dispute":
        return replace(result, status=DISPUTED, said_by=who, reason=reason)
    return replace(result, status=KEPT, ruling=reason)


def waiting_on(found: dict[str, Result]) -> dict[str, list[Result]]:
    """Who the ledger waits on for a confirmation: each player of the other side of a result
    still awaiting it, with those results (the nudge's question: docs/confirm.md)."""
    waiting: dict[str, list[Result]] = {}
    for result in found.values():
        if result.status == AWAITING:
            for player in result.other:
                waiting.setdefault(player, []).append(result)
    return waiting


def open_disputes(found: dict[str, Result]) -> list[Result]:
    """The disputes an organiser has not settled yet, oldest first."""
    return [r for r in found.values() if r.status == DISPUTED]
