"""Recording an event: replay, let the rules decide, and only then append."""

from __future__ import annotations

import getpass
import os
from dataclasses import dataclass

from cok.campaign import Campaign, load_campaign
from cok.errors import RuleError
from cok.eventlog import Recorded, append, locked, recover, stamp
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


def record(campaign: Campaign, event: Event, *, dry_run: bool = False) -> Recording:
    """Under the campaign's lock: reload the log if another command appended meanwhile,
    replay and validate, apply the event, and append it unless refused or a dry run.
    RuleError (and ChoiceNeeded) propagate for the caller to report or ask."""
    if dry_run:
        return _record(campaign, event, dry_run=True)
    with locked(campaign.events_path):
        recover(campaign.events_path)
        on_disk = campaign.events_path.read_bytes() if campaign.events_path.exists() else b""
        if on_disk != campaign.log.raw:
            campaign = load_campaign(campaign.folder)
        return _record(campaign, event, dry_run=False)


def _record(campaign: Campaign, event: Event, *, dry_run: bool) -> Recording:
    done = campaign.valid()
    state = done.state
    before = {p: state.total_cp(p) for p in state.players}
    event = stamp(event, recorder())
    if isinstance(event, Void):
        outcome: object = Voided(event.target, event.reason)
        records = [*campaign.log.records, Recorded(event, None)]
        again = replay(records, campaign.fresh_state(), apply, campaign.log.shown)
        if again.problems:
            target = event.target
            lines = "; ".join(f"line {p.line}: {p.message}" if p.line else p.message for p in again.problems)
            raise RuleError(f"voiding {target!r} would leave the log invalid: {lines}")
        state = again.state
    else:
        outcome = apply(state, event)
    if not dry_run:
        append(campaign.log, event)
    return Recording(event, outcome, state, before, not dry_run)
