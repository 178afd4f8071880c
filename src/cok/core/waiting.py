"""The campaign's clock kept as the log is applied (issue 48, docs/deadlines.md), the same in
the fold (`core/fold.py`) and in a recording (`core/ledger.py`), so that a default, an
extension or an absence means the same in every copy of the campaign.

- Before a default (`default: deadline | absent`) is applied, it must be for a wait still
  open (someone who had acted is not defaulted; a wait is defaulted once), recorded at or
  after its due time by the log's own times, or for a player marked absent.
- After every applied event: the waits it opened are dated, the ones it closed forgotten
  (`deadlines.follow`); a default counts a missed deadline for its player (`absent_after:` in
  a row marks them absent); a player has acted when an event naming them closes a wait of
  theirs or is recorded by them (`by:`, a phone's): their misses count from nought again and
  they are no longer absent.
- `extend` adds time to the open waits it names (a player's own ask counted against
  `extensions:`); `present` brings an absent player back with a whole deadline again.

A campaign without deadlines never reaches this module but for a default or a clock event,
which it refuses: the fold's cost without deadlines stays what it was."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cok.core.deadlines import Clock, Wait, follow, iso, kept, moment, spec
from cok.core.errors import RuleError
from cok.core.history import Word

if TYPE_CHECKING:
    from cok.core.events import EventBase, Extend, Present
    from cok.core.ruleset import Ruleset


def clock_of(state: Any) -> Clock | None:
    """The state's clock when the campaign has deadlines (a game without one: None)."""
    clock = kept(state)
    return clock if clock is not None and clock.on else None


def before(ruleset: Ruleset, state: Any, event: EventBase) -> Wait | None:
    """The wait a default is recorded for, checked before the rules apply it (RuleError,
    which `cok check` reports at the default's line); None for any other event."""
    if event.default is None:
        return None
    clock = clock_of(state)
    if clock is None:
        raise RuleError(
            f"`default: {event.default}` is recorded by the ledger for a missed deadline, and campaign.yaml "
            "sets no `deadlines:`"
        )
    involved = ruleset.involved(event)
    candidates = sorted(
        (w for w in ruleset.waits(state) if w.who is None or w.who in involved),
        key=lambda w: w.who is None,  # a player's own wait before the organisers'
    )
    who = ", ".join(sorted(involved)) or "the organisers"
    if not candidates:
        raise RuleError(f"nobody was waited for this default: {who} had acted (a default closes a wait still open)")
    # the events of one default follow each other (a kingdom's orders: one event an army)
    fresh = [w for w in candidates if w.key not in clock.defaulted or w.key == clock.defaulting]
    if not fresh:
        raise RuleError(f"a second default for the wait {candidates[0].key}: it was defaulted already")
    if event.default == "absent":
        gone = [w for w in fresh if w.who is not None and w.who in clock.absent]
        if not gone:
            n = clock.absent_after
            rule = f"a player is marked absent after {n} missed deadlines in a row" if n else "`absent_after: 0`"
            raise RuleError(f"`default: absent` for {who}, who is not absent ({rule})")
        return gone[0]
    at = moment(event.at, clock.zone())
    if at is None:
        raise RuleError("a default carries the time it was recorded (`at`), to be checked against its deadline")
    written = moment(event.due, clock.zone()) if event.due is not None else None
    dues = [(_judged(clock, w, written), w) for w in fresh]
    for due, wait in dues:
        if due is not None and due <= at:
            return wait
    known = sorted(due for due, _ in dues if due is not None)
    if not known:
        steps = ", ".join(sorted({w.step for w in fresh}))
        raise RuleError(f"a default for a wait with no deadline ({steps}: campaign.yaml's `deadlines:` has none)")
    zone = clock.zone()
    said = f"due {iso(known[0].astimezone(zone))}, recorded {iso(at.astimezone(zone))}"
    raise RuleError(f"recorded before its deadline ({said})")


def _judged(clock: Clock, wait: Wait, written: Any) -> Any:
    """The due time a default is judged by: campaign.yaml's for the wait (from the log's own
    times and its extensions), so that anyone can check from the log and the settings that it
    was due; its own `due:` only when later (it may not claim a deadline the settings do not
    give), or when the settings give none (never before the wait opened)."""
    computed = clock.due(wait)
    if written is None:
        return computed
    if computed is not None:
        return max(computed, written)
    opened = moment(clock.opened.get(wait.key))
    return written if opened is None or written >= opened else opened


def after(ruleset: Ruleset, state: Any, event: EventBase, wait: Wait | None, clock: Clock | None = None) -> None:
    """The clock after an applied event (`wait`: the one a default was for; `clock`: the
    state's, when the caller holds it already: the fold, once per event)."""
    clock = clock if clock is not None else clock_of(state)
    if clock is None:
        return
    closed = follow(clock, event.at, ruleset.waits(state))
    if wait is not None:
        again, clock.defaulting = wait.key == clock.defaulting, wait.key if wait.key in clock.opened else None
        if wait.key in clock.opened:
            clock.defaulted.add(wait.key)
        if wait.who is not None and not again:
            missed = clock.missed[wait.who] = clock.missed.get(wait.who, 0) + 1
            if clock.absent_after and missed >= clock.absent_after:
                clock.absent.add(wait.who)
        return
    clock.defaulting = None
    theirs = {who for who in closed.values() if who is not None}
    recorder = event.by if event.by is not None and (event.by in clock.missed or event.by in clock.absent) else None
    if theirs or recorder is not None:
        named = ruleset.involved(event)
        for who in {p for p in named if p in theirs or p == recorder}:
            clock.missed.pop(who, None)
            clock.absent.discard(who)


def clocked(ruleset: Ruleset, state: Any, event: Extend | Present) -> Word:
    """An extension or a player brought back, applied to the clock (checked first: RuleError
    changes nothing), in words."""
    from cok.core.events import Extend

    clock = clock_of(state)
    if clock is None:
        raise RuleError(f"a {event.type} is about deadlines, and campaign.yaml sets no `deadlines:`")
    if isinstance(event, Extend):
        return _extend(ruleset, state, clock, event)
    return _present(ruleset, state, clock, event)


def _extend(ruleset: Ruleset, state: Any, clock: Clock, event: Extend) -> Word:
    read = spec(event.length)
    if isinstance(read, str) or read.weekday is not None:
        said = read if isinstance(read, str) else f"{event.length!r} is a weekday and time"
        raise RuleError(f"`length`: {said}; write a length of time like 24h, 2d or 1d12h")
    chosen = [
        w
        for w in ruleset.waits(state)
        if (event.player is None or w.who == event.player)
        and (event.step is None or w.step == event.step)
        and w.step in clock.steps
        and w.key in clock.opened
    ]
    if not chosen:
        whose = f"{event.player}'s " if event.player else ""
        step = f"{event.step} " if event.step else ""
        raise RuleError(f"nothing {whose}{step}is waited for with a deadline now: an extension has nothing to extend")
    if event.asked:
        if event.player is None:
            raise RuleError("a player asks for their own time: `player`")
        count = clock.asked.get(event.player, 0)
        if count >= clock.extensions:
            allowed = f"{clock.extensions} time{'s' if clock.extensions != 1 else ''}"
            raise RuleError(
                f"{event.player} has asked for more time {count} time{'s' if count != 1 else ''}: campaign.yaml's "
                f"`extensions:` allows {allowed} (an organiser may still extend)"
            )
        clock.asked[event.player] = count + 1
    for wait in chosen:
        clock.extended[wait.key] = clock.extended.get(wait.key, 0) + read.seconds
    what = "; ".join(w.what for w in chosen)
    if event.asked:
        return Word(f"{event.player} asks for {read.text} more: {what}")
    return Word(f"{event.by or 'an organiser'} extends by {read.text}: {what}")


def _present(ruleset: Ruleset, state: Any, clock: Clock, event: Present) -> Word:
    player = event.player
    if player not in clock.absent:
        raise RuleError(f"{player} is not marked absent: nobody to bring back")
    clock.absent.discard(player)
    clock.missed.pop(player, None)
    at = moment(event.at, clock.zone())
    if at is not None:  # their open waits have their whole deadline from now
        for key, who in clock.whose.items():
            if who == player and key in clock.opened:
                clock.opened[key] = iso(at)
                clock.extended.pop(key, None)
    return Word(f"{player} is back: their deadlines count again, each from now")
