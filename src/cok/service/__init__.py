"""Stand-in for the service layer (the `service` branch replaces this package whole on merge):
the contract's names, built on the core directly, so that the server can be built and tested
against them meanwhile."""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from pydantic import ValidationError

from cok.core.campaign import Campaign, open_campaign
from cok.core.errors import ChoiceNeeded, NumbersNeeded, Problem, Refused, Repeated, RuleError
from cok.core.events import EventBase, Void

__all__ = ["Asked", "Draft", "Ledger", "Question", "Recording", "Who", "may_record", "record"]


@dataclass(frozen=True)
class Draft:
    type: str
    fields: Mapping[str, Any]


@dataclass(frozen=True)
class Who:
    name: str
    organiser: bool = False


@dataclass(frozen=True)
class Question:
    kind: Literal["choice", "numbers", "repeated"]
    field: str
    words: str
    options: tuple[str, ...] = ()
    keys: tuple[str, ...] = ()
    decline_field: str | None = None


class Asked(Exception):
    def __init__(self, question: Question) -> None:
        super().__init__(question.words)
        self.question = question


@dataclass(frozen=True)
class Recording:
    events: list[EventBase]
    told: list[str]
    document: dict[str, Any]
    lines: list[Any]
    written: bool
    warnings: list[str] = field(default_factory=list)


def _event(campaign: Campaign, draft: Draft, answers: Mapping[str, Any], by: str | None) -> EventBase:
    for meta in ("id", "at", "by"):
        if meta in draft.fields:
            raise Refused(Problem("event", None, f"`{meta}` is set by cok, not given"))
    models: dict[str, type[EventBase]] = {**campaign.ruleset.events, "void": Void}
    model = models.get(draft.type)
    if model is None:
        raise Refused(Problem("event", None, f"unknown event type {draft.type!r}; known: {', '.join(models)}"))
    try:
        event = model.model_validate({**draft.fields, **answers, "type": draft.type})
    except ValidationError as error:
        raise Refused(
            [Problem("event", None, f"{'.'.join(map(str, e['loc'])) or 'event'}: {e['msg']}") for e in error.errors()]
        ) from None
    return event.model_copy(update={"by": by})


def record(
    folder: Path | Campaign,
    drafts: Sequence[Draft],
    *,
    by: Who | str | None = None,
    answers: Mapping[str, Any] | None = None,
    dry_run: bool = False,
    again: bool = False,
    after: Callable[[Recording], None] | None = None,
) -> Recording:
    from cok.core.ledger import record_all

    campaign = folder if isinstance(folder, Campaign) else open_campaign(folder)
    name = by.name if isinstance(by, Who) else by
    events = [_event(campaign, d, answers or {}, name) for d in drafts]
    try:
        done = record_all(campaign, events, dry_run=dry_run, again=again)
    except ChoiceNeeded as asked:
        raise Asked(
            Question(
                "choice",
                asked.field,
                str(asked),
                tuple(asked.options),
                decline_field=asked.decline_field if asked.decline else None,
            )
        ) from None
    except NumbersNeeded as asked:
        raise Asked(Question("numbers", asked.field, str(asked), keys=tuple(asked.keys))) from None
    except Repeated as asked:
        raise Asked(Question("repeated", "again", str(asked))) from None
    except RuleError as refused:
        if type(refused).__name__ == "Dependants":
            raise
        raise Refused(Problem(campaign.shown, None, str(refused))) from None
    result = Recording([d.event for d in done], [d.text for d in done], {}, [], not dry_run)
    if after is not None and not dry_run:
        try:
            after(result)
        except (OSError, RuntimeError) as failed:
            result.warnings.append(str(failed))
    return result


def may_record(folder_or_campaign: Path | Campaign, draft: Draft, who: Who) -> bool:
    if who.organiser:
        return True
    campaign = folder_or_campaign if isinstance(folder_or_campaign, Campaign) else open_campaign(folder_or_campaign)
    model = campaign.ruleset.events.get(draft.type)
    if model is None or draft.type in {"adjust", "join", "week"}:  # the organiser's own events
        return False
    try:
        event = model.model_validate({**draft.fields, "type": draft.type})
    except ValidationError:
        return False
    return who.name in campaign.ruleset.involved(event)


class Ledger:
    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._lock = threading.Lock()
        self._campaign: Campaign | None = None

    def campaign(self) -> Campaign:
        with self._lock:
            if self._campaign is None or not self._campaign.current():
                self._campaign = open_campaign(self.folder)
            return self._campaign

    def record(
        self,
        drafts: Sequence[Draft],
        *,
        by: Who | str | None,
        answers: Mapping[str, Any] | None = None,
        dry_run: bool = False,
        again: bool = False,
        after: Callable[[Recording], None] | None = None,
    ) -> Recording:
        with self._lock:
            self._campaign = None
        return record(self.folder, drafts, by=by, answers=answers, dry_run=dry_run, again=again, after=after)
