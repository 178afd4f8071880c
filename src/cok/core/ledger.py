"""Recording an event: under the campaign's lock, make sure the state is the one of the
files as they are now, let the rules decide, and only then append."""

from __future__ import annotations

import getpass
import os
from dataclasses import dataclass
from typing import Any

from cok.core.append import append, locked, recover, stamp
from cok.core.campaign import Campaign, open_campaign, read, read_entries, set_up
from cok.core.errors import Problem, Refused, RuleError
from cok.core.events import Entry, EventBase, Void
from cok.core.fold import Folded, fold, tell, told
from cok.core.history import Voided
from cok.core.position import Position
from cok.core.write import with_metadata


@dataclass(frozen=True)
class Recorded:
    """What recording an event did: the event as written (with its id), the outcome the
    rules decided, the state after it and the ruleset's tally before it."""

    campaign: Campaign
    event: EventBase
    outcome: Any
    text: str  # the outcome in a sentence, as `cok log` will tell it
    before: Any
    written: bool

    @property
    def state(self) -> Any:
        return self.campaign.state


def recorder() -> str | None:
    """Who records: $COK_BY, else the login name."""
    try:
        return os.environ.get("COK_BY") or getpass.getuser()
    except Exception:  # getuser raises when no user name can be found at all
        return None


def record(campaign: Campaign, event: EventBase, *, dry_run: bool = False, use_cache: bool = True) -> Recorded:
    """Apply the event to the campaign's state and append it, unless refused or a dry run.
    Under the lock, the campaign is opened again if any of its files changed meanwhile.
    RuleError (and ChoiceNeeded) propagate for the caller to report or ask."""
    if dry_run:
        return _decide(campaign, event, written=False)
    with locked(campaign.events_file):
        if recover(campaign.events_file) is not None:
            raise Refused(
                Problem(
                    campaign.shown,
                    None,
                    "the log ends with part of an event an interrupted command was appending, and cok cannot cut "
                    "it (the file is read-only, immutable or append-only): make it writable and run cok again",
                )
            )
        expected = stamp(campaign.events_file)  # before reading: a change after it is refused on append
        if not campaign.current():
            campaign = open_campaign(campaign.folder, use_cache=use_cache)
        done = _decide(campaign, event, written=True)
        position = campaign.position
        append(
            campaign.events_file,
            done.event,
            expected=expected,
            item_column=position.item_column,
            empty_flow=position.empty_flow,
        )
        _grown(done, use_cache)
        return done


def _decide(campaign: Campaign, event: EventBase, *, written: bool) -> Recorded:
    campaign.valid()
    ruleset = campaign.ruleset
    before = ruleset.tally(campaign.state)
    if event.id is not None:
        ids = campaign.ids()
        if event.id in ids:
            raise RuleError(f"the id {event.id!r} is already used by the event on line {ids[event.id]}")
    event = with_metadata(event, recorder())
    while event.id is not None and _mentioned(campaign, event.id):  # a fresh random id: one in 2^48
        event = with_metadata(event.model_copy(update={"id": None}), event.by)
    if isinstance(event, Void):
        outcome: Any = Voided(event.target, event.reason)
        campaign.state = _without(campaign, event).state
    else:
        outcome = ruleset.apply(campaign.state, event)
    return Recorded(campaign, event, outcome, tell(ruleset, campaign.state, outcome), before, written)


def _mentioned(campaign: Campaign, event_id: str) -> bool:
    """Whether the log holds the text of this id anywhere (a cheap, cautious test for a
    fresh id: it never loads the id index)."""
    return event_id.encode() in campaign.events_file.read_bytes()


def _without(campaign: Campaign, void: Void) -> Folded:
    """The log replayed with the void appended (a full replay), which must stay valid."""
    files = read(campaign.folder)
    setup = set_up(campaign.folder, files)
    log = read_entries(campaign.folder, files, setup.ruleset)
    again = fold(setup.ruleset, [*log.entries, Entry(void, None)], setup.state, log.shown, telling=False)
    if again.problems:
        lines = "; ".join(f"line {p.line}: {p.message}" if p.line else p.message for p in again.problems)
        raise RuleError(f"voiding {void.target!r} would leave the log invalid: {lines}")
    return again


def _grown(done: Recorded, use_cache: bool) -> None:
    """Bring the campaign up to date with the event just appended (its state already holds
    it), and keep it in the cache."""
    campaign = done.campaign
    data = campaign.events_file.read_bytes()
    old = campaign.position
    line = old.lines + 1 + (1 if data[old.size : old.size + 1] == b"\n" else 0)
    campaign.position = Position.of(data, old.item_column if old.empty_flow is None else 0)
    if isinstance(done.event, Void):
        campaign._ids = None
        campaign._history = None
        if use_cache:
            open_campaign(campaign.folder)  # a void changes the past: the cache is rebuilt
        return
    assert done.event.id is not None
    if campaign._ids is not None:
        campaign._ids[done.event.id] = line
    entry = Entry(done.event, line)
    row = told(campaign.ruleset, entry, done.text)
    if campaign._history is not None:
        campaign._history.append(row)
    if use_cache and old.empty_flow is None:
        campaign.save(new_ids={done.event.id: line}, new_history=[row], grown=True)
