"""Recording an event: under the campaign's lock, replay (or read the cached replay), let
the rules decide, and only then append."""

from __future__ import annotations

import getpass
import os
from dataclasses import dataclass
from pathlib import Path

from cok.cache import Snapshot, digest, open_snapshot, replay_all, save, stamp
from cok.errors import Refused, RuleError
from cok.eventlog import Recorded, append, locked, recover, with_metadata
from cok.events import Event, Void
from cok.replay import Voided, replay
from cok.rules.apply import apply
from cok.rules.state import State


@dataclass(frozen=True)
class Recording:
    event: Event
    outcome: object
    state: State  # after the event
    before: dict[str, int]  # each player's total CP before it
    written: bool


def recorder() -> str | None:
    """Who records: $COK_BY, else the login name."""
    try:
        return os.environ.get("COK_BY") or getpass.getuser()
    except Exception:  # getuser raises when no user name can be found at all
        return None


def record(snapshot: Snapshot, event: Event, *, dry_run: bool = False, use_cache: bool = True) -> Recording:
    """Apply the event to the campaign's state and append it, unless refused or a dry run.
    Under the lock, the snapshot is re-read if another command appended meanwhile.
    RuleError (and ChoiceNeeded) propagate for the caller to report or ask."""
    if dry_run:
        return _record(snapshot, event, dry_run=True)
    with locked(snapshot.events_path):
        recover(snapshot.events_path)
        if not snapshot.fresh():
            snapshot = open_snapshot(snapshot.path, use_cache)
        if snapshot.id_index() is None:
            snapshot = replay_all(snapshot.path)
        done = _record(snapshot, event, dry_run=False)
        if use_cache and not isinstance(event, Void):
            save(snapshot)
        return done


def _record(snapshot: Snapshot, event: Event, *, dry_run: bool) -> Recording:
    if snapshot.problems:
        raise Refused(snapshot.problems)
    state = snapshot.state
    before = {p: state.total_cp(p) for p in state.players}
    event = with_metadata(event, recorder())
    ids = snapshot.id_index()
    if ids is not None and event.id in ids:
        raise RuleError(f"the id {event.id!r} is already used by the event on line {ids[event.id]}")
    if isinstance(event, Void):
        outcome: object = Voided(event.target, event.reason)
        state = _without(snapshot.path, event)
    else:
        outcome = apply(state, event)
    if not dry_run:
        path = snapshot.events_path
        append(
            path,
            event,
            expected=snapshot.events_stamp,
            item_column=snapshot.item_column,
            empty_flow=snapshot.empty_flow,
        )
        _grown(snapshot, event)
    return Recording(event, outcome, state, before, not dry_run)


def _without(folder: Path, void: Void) -> State:
    """The state of the log with the void appended: a full replay, which must stay valid."""
    from cok.campaign import load_campaign

    campaign = load_campaign(folder)
    records = [*campaign.log.records, Recorded(void, None)]
    again = replay(records, campaign.fresh_state(), apply, campaign.log.shown)
    if again.problems:
        lines = "; ".join(f"line {p.line}: {p.message}" if p.line else p.message for p in again.problems)
        raise RuleError(f"voiding {void.target!r} would leave the log invalid: {lines}")
    return again.state


def _grown(snapshot: Snapshot, event: Event) -> None:
    """Bring the snapshot up to date with the event just appended (it already holds its state)."""
    path = snapshot.events_path
    data = path.read_bytes()
    start = snapshot.events_size
    line = snapshot.events_lines + 1 + (1 if data[start : start + 1] == b"\n" else 0)
    ids = snapshot.id_index()
    if event.id and ids is not None:
        ids[event.id] = line
    snapshot.events_stamp = stamp(path)
    snapshot.events_digest = digest(data)
    snapshot.events_size = len(data)
    snapshot.events_lines = data.count(b"\n")
    snapshot.empty_flow = None
