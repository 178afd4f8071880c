"""Recording an event: under the campaign's lock, make sure the state is the one of the
files as they are now, let the rules decide, and only then append."""

from __future__ import annotations

import getpass
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, cast

from cok.core import write
from cok.core.append import append, locked, recover, stamp
from cok.core.campaign import Campaign, Unchanged, open_campaign, replayed_without
from cok.core.deadlines import Clock, Wait
from cok.core.errors import Problem, Refused, Repeated, RuleError
from cok.core.events import Entry, EventBase, Void
from cok.core.fold import Folded, Skipped, core_outcome, tell, told, with_default, with_dice
from cok.core.folders import link_shown, refuse_dangling_link
from cok.core.history import Told
from cok.core.text import quoted
from cok.core.waiting import after, before, clock_of
from cok.core.write import with_metadata

if TYPE_CHECKING:
    from hashlib import _Hash


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
    #: The bytes the append put at the log's end, for all the events recorded together (a
    #: commit of exactly this recording); None for a dry run or a log rewritten whole.
    appended: bytes | None = None

    @property
    def state(self) -> Any:
        return self.campaign.state


def recorder() -> str | None:
    """Who records: $COK_BY, else the login name."""
    try:
        return os.environ.get("COK_BY") or getpass.getuser()
    except Exception:  # getuser raises when no user name can be found at all
        return None


class Dependants(RuleError):
    """Voiding would leave later events refused: they depend on what is voided. The message
    lists them one per line; `refusals` are the events, for voiding them too."""

    def __init__(self, targets: Sequence[str], refusals: Sequence[Skipped]) -> None:
        self.targets = list(targets)
        self.refusals = list(refusals)
        count = len(self.refusals)
        them = "event depends" if count == 1 else "events depend"
        lines = [f"  line {r.problem.line}: {r.ref}: {r.problem.message}" for r in self.refusals]
        named = ", ".join(repr(t) for t in self.targets)
        head = f"voiding {named} would leave the log invalid: {count} later {them} on it"
        super().__init__("\n".join([head, *lines]))


#: The events to record, or how to make them from the campaign they will be decided on (so
#: that an event built from a draft is built on the state read under the lock).
Events = Sequence[EventBase] | Callable[[Campaign], Sequence[EventBase]]


def record_all(
    campaign: Campaign,
    events: Events,
    *,
    dry_run: bool = False,
    use_cache: bool = True,
    again: bool = False,
    by: str | None = None,
    after: Callable[[list[Recorded]], None] | None = None,
    shared: bool = False,
    state_later: bool = False,
    then: Callable[[Campaign], Sequence[EventBase]] | None = None,
) -> list[Recorded]:
    """Record several events as one change: every one is decided first (voids before the
    others, which are applied after them in order), and then all are appended under one
    lock as one journaled block, so that the log holds all of them or none. An event that
    repeats one recorded before is refused (Repeated) unless `again`. `by`: who records
    (each event's `by:`), else `recorder()`. `after`: run under the lock once the events
    are written (a git commit of them); it must not raise (the events are in the log).

    The campaign's state never holds what was not written: a dry run and a batch decide on
    a copy of it (the game's `copy`), taken as the state only once appended; a single event
    changes it only when the rules accept it, and an append that fails after that puts the
    campaign back as its files are. `shared`: others may be reading the state meanwhile (a
    server's threads): even one event is decided on a copy, and the state replaced, never
    changed, once appended; and not only the state: the campaign recorded is a new one
    (`Campaign.succeeded`), the one given stays whole as it was. `state_later`: the cache
    gets the events' rows at once and the state when the caller says (`Campaign.save_state`:
    a server, once recordings pause).
    `events` may be a function of the campaign: it is called under the lock, on the campaign
    as its files are then, so that the events are built on the state the rules decide on.
    `then`: the events that close this change, from the campaign once the others are decided
    (the dice revealed with the event that ends their period), each decided once with them."""
    who = by if by is not None else recorder()
    if dry_run:
        view = replace(campaign, state=copy_state(campaign.ruleset, campaign.valid().state))
        done = _decide(view, _made(events, view), written=False, again=again, by=who, then=then)
        checked(campaign, done)
        return done
    _may_append(campaign.valid())  # before the lock: a refused command leaves no lock file anywhere
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
        # fresh ids are drawn before the log is read (it is searched for them as it is read):
        # for events built under the lock, as many as a recording usually builds
        wanted = _MOST_AT_ONCE if callable(events) else sum(1 for event in events if event.id is None)
        fresh = [write.new_id() for _ in range(wanted)]
        now = campaign.unchanged([f.encode() for f in fresh])
        if now is None:
            campaign = open_campaign(campaign.folder, use_cache=use_cache)
        events = _made(events, campaign)
        # several events are decided on a copy (the first ones change the state before a
        # later one may be refused); one is decided in place (the rules decide, then commit)
        in_place = len(events) == 1 and not shared
        work = campaign if in_place else replace(campaign, state=copy_state(campaign.ruleset, campaign.state))
        done = _decide(work, events, written=True, again=again, now=now, fresh=fresh, by=who, then=then)
        try:
            checked(campaign, done)  # under the lock: whichever process wrote last is read
            position = campaign.position
            appended = append(
                campaign.events_file,
                [d.event for d in done],
                expected=expected,
                item_column=position.item_column,
                empty_flow=position.empty_flow,
            )
        except BaseException:  # the state holds what the log does not
            if work is campaign:
                _restore(campaign, use_cache)
            raise
        if work is not campaign:
            if shared:  # copy-on-write: whoever holds `campaign` keeps one whole version of it
                campaign = campaign.succeeded(work.state)
            else:
                campaign.state = work.state
            done = [replace(d, campaign=campaign) for d in done]
        done = [replace(d, appended=appended) for d in done]
        try:
            _grown(done, use_cache, None if now is None else now.hashed, appended, state=not state_later)
        except Exception:  # the events are written: never a failure now; the files are read again
            _restore(campaign, use_cache=False)
        if after is not None:
            after(done)
        return done


#: Fresh ids drawn for events built under the lock (more are drawn, and looked for in the
#: file, should a recording build more events than this).
_MOST_AT_ONCE = 4


def _made(events: Events, campaign: Campaign) -> Sequence[EventBase]:
    """The events, built now on this campaign when given as a function of it."""
    return events(campaign) if callable(events) else events


def _may_append(campaign: Campaign) -> None:
    """Where cok appends through a symlinked log (README, guarantees): only to a regular file
    that already is this campaign's event log, holding at least one event it replayed — never
    to a link to nothing, nor to a file of comments or anything else the link points at."""
    log = campaign.events_file
    if not log.is_symlink():
        return
    refuse_dangling_link(log, "the event log")
    if not campaign.ids() and next(iter(campaign.told()), None) is None:
        raise Refused(
            Problem(
                link_shown(log),
                None,
                f"the event log is a symlink to {os.readlink(log)}, which holds no event yet; "
                "cok appends through a link only to a file that already is an event log: replace the link "
                "with the file itself",
            )
        )


def _decide(
    campaign: Campaign,
    events: Sequence[EventBase],
    *,
    written: bool,
    again: bool,
    now: Unchanged | None = None,
    fresh: Sequence[str] = (),
    by: str | None = None,
    then: Callable[[Campaign], Sequence[EventBase]] | None = None,
) -> list[Recorded]:
    """The events stamped with fresh ids and applied to the campaign's state, in order.
    `fresh`: ids to give first, which `now` (the log read under the lock) says whether the
    log mentions; any other id is looked for in the file. `then`: the events closing the
    change, asked of the campaign once these are decided (see `record_all`)."""
    offered = list(fresh)
    campaign.valid()
    ruleset = campaign.ruleset
    before = ruleset.tally(campaign.state)
    stamped: list[EventBase] = []
    done: list[Recorded] = []
    batch, first = list(events), True
    while batch:
        start = len(stamped)
        for event in batch:
            stamped.append(_stamped(campaign, event, stamped, offered, written=written, now=now, by=by))
        voids = [e for e in stamped if isinstance(e, Void)]
        if first and not all(isinstance(e, Void) for e in stamped[: len(voids)]):
            raise ValueError("events recorded together put their voids first")
        if first and voids:
            campaign.state = _without(campaign, voids).state
        for event in stamped[start:]:
            wait = None
            outcome = core_outcome(ruleset, campaign.state, event)
            if outcome is None:
                outcome, wait = _ruled(ruleset, campaign.state, event, again)
            said = tell(ruleset, campaign.state, outcome)
            if wait is not None:
                said = with_default(event, said, wait, ruleset, campaign.state)
            said = with_dice(event, said)
            done.append(Recorded(campaign, event, outcome, said, before, written))
        # the events closing the change, from the state the others left: each decided once
        batch = list(then(campaign)) if first and then is not None else []
        first = False
    return done


def _stamped(
    campaign: Campaign,
    event: EventBase,
    stamped: Sequence[EventBase],
    offered: list[str],
    *,
    written: bool,
    now: Unchanged | None,
    by: str | None,
) -> EventBase:
    """The event with its id (a fresh one offered first), time and recorder."""
    taken = {e.id for e in stamped}
    if event.id is not None:
        ids = campaign.ids()
        if event.id in ids:
            raise RuleError(f"the id {quoted(event.id)} is already used by the event on line {ids[event.id]}")
        if event.id in taken:
            raise RuleError(f"the id {quoted(event.id)} is given to two of the events recorded together")
    elif offered:
        event = event.model_copy(update={"id": offered.pop(0)})
    event = with_metadata(event, by)
    # a fresh id already in the log (one in 2^48) is drawn again; a dry run's is never written
    while event.id is not None and (event.id in taken or (written and _mentioned(campaign, event.id, now))):
        event = with_metadata(event.model_copy(update={"id": None}), event.by)
    return event


def checked(campaign: Campaign, done: Sequence[Recorded]) -> None:
    """Refuse, before anything is written, events that would make `cok check` fail: the
    dice' check (docs/dice.md) run on the log with them after it — a replayed entropy, a
    second commitment for a period, a roll with a seed already revealed, a reveal that does
    not match. Read only when an event carries dice (most recordings carry none)."""
    from cok.core.dicecheck import brought, dice_in, refusal

    last = campaign.position.lines
    added = [told(campaign.ruleset, Entry(d.event, last + i + 1), d.text) for i, d in enumerate(done)]
    voided = [d.event.target for d in done if isinstance(d.event, Void)]
    if not voided and not any(dice_in(row.event, row.type) for row in added):
        return
    rows = _dice_rows(campaign)
    if voided and not any({r.id, r.ref} & set(voided) for r in rows):
        return  # voids of events the dice' check does not read
    problems = brought(rows, added, campaign.shown, campaign.ruleset.dice_agree, voided)
    if problems:
        raise refusal(problems)


def _dice_rows(campaign: Campaign) -> list[Told]:
    """The log's rows the dice' check reads, every one: the campaign's history when it holds
    a row for each id the log has, else the log replayed whole (a history kept in the cache
    by another process can lag behind the log it read under the lock)."""
    from cok.core.dicecheck import dice_in

    rows, named = [], 0
    for row in campaign.told():
        named += row.id is not None
        if dice_in(row.event, row.type):
            rows.append(row)
    if named == len(campaign.ids()):
        return rows
    return [row for row in open_campaign(campaign.folder, use_cache=False).told() if dice_in(row.event, row.type)]


def _ruled(ruleset: Any, state: Any, event: EventBase, again: bool) -> tuple[Any, Wait | None]:
    """The game's rules decide the event once; a decision that repeats one recorded before
    is refused (Repeated) unless `again`; then it is committed to the state, and the
    campaign's clock follows it (`core.waiting`, as the fold does). A default is checked
    first, as `cok check` would: the wait it is for (returned) open and due."""
    wait = None if event.default is None else before(ruleset, state, event)
    outcome = ruleset.decide(state, event)
    repeated = None if again else ruleset.repeats(state, outcome)
    if repeated is not None:
        raise Repeated(repeated)
    ruleset.commit(outcome, state)
    if clock_of(state) is not None:
        after(ruleset, state, event, wait)
    return outcome, wait


def copy_state(ruleset: Any, state: Any) -> Any:
    """A copy of the state the rules may change without changing this one: the game's
    `copy(state)` (a deep copy unless the game knows a cheaper one), with a clock of its own
    (a recording moves it: the copy's must not move the original's)."""
    made = ruleset.copy(state)
    kept = getattr(state, "clock", None)
    if isinstance(kept, Clock) and getattr(made, "clock", None) is kept:
        made.clock = Clock.copy(cast("Clock", kept))
    return made


def _restore(campaign: Campaign, use_cache: bool) -> None:
    """Put the campaign back as its files are, in place: whoever holds it (a long-lived
    process) never sees a state that holds what was not written."""
    campaign.become(open_campaign(campaign.folder, use_cache=use_cache))


def _mentioned(campaign: Campaign, event_id: str, now: Unchanged | None = None) -> bool:
    """Whether the log holds the text of this id anywhere (a cheap, cautious test for a
    fresh id: it never loads the id index). `now`: the log as read under the lock, which
    answers for the ids looked for in it (the file is not read again)."""
    text = event_id.encode()
    said = None if now is None else now.mentions(text)
    return text in campaign.events_file.read_bytes() if said is None else said


def _without(campaign: Campaign, voids: Sequence[Void]) -> Folded:
    """The log replayed with the voids appended (a full replay), which must stay valid:
    Dependants when later events would be refused without the voided ones."""
    again = replayed_without(campaign.folder, voids)  # streamed: the log is never held whole
    refused = {id(r.problem) for r in again.refused}
    other = [p for p in again.problems if id(p) not in refused]
    if other:
        raise RuleError("; ".join(p.message for p in other))
    if again.refused:
        raise Dependants([v.target for v in voids], again.refused)
    return again


def _grown(
    recorded: Sequence[Recorded],
    use_cache: bool,
    hashed: _Hash | None = None,
    appended: bytes | None = None,
    *,
    state: bool = True,
) -> None:
    """Bring the campaign up to date with the events just appended (its state already holds
    them), and keep it in the cache. With the bytes `appended` and the running digest of
    the log before them, the new position comes from those bytes alone; else the log is
    read again."""
    done = recorded[0]
    campaign = done.campaign
    old = campaign.position
    if hashed is None or appended is None:
        data = campaign.events_file.read_bytes()
        appended = data[old.size :]
        campaign.reread(data)
    else:
        campaign.grew(appended, hashed)
    line = old.lines + 1 + (1 if appended[:1] == b"\n" else 0)
    if any(isinstance(r.event, Void) for r in recorded):
        campaign.forget_rows()
        if use_cache:
            open_campaign(campaign.folder)  # a void changes the past: rebuilt
        return
    # each event's rows from what was decided (a batch, a reveal with the event that ends its
    # period, is never replayed for them: decided once), each on the line its text starts
    ids: dict[str, int] = {}
    rows = []
    for each in recorded:
        assert each.event.id is not None
        row = told(campaign.ruleset, Entry(each.event, line), each.text)
        campaign.added(each.event.id, line, row)
        ids[each.event.id] = line
        rows.append(row)
        line += write.to_yaml(each.event).count("\n") if len(recorded) > 1 else 0
    if use_cache and old.empty_flow is None:
        campaign.save(new_ids=ids, new_history=rows, grown=True, state=state)
