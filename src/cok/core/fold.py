"""The fold: state = every event of the log applied in order, voided ones left out.

The same for every game: a ruleset gives the initial state and `apply(state, event)`;
voiding is a property of the log, handled here. A refused event is reported with its
`file:line` and skipped, so that every problem in the log is found in one pass (as
`cok check` promises), and a problem is a value, collected, never thrown.

The events are taken one at a time (`Replay.take`), so that a long log can be replayed as
it is read, never held whole. A void names an event before it, so which events are voided
must be known before they are applied: the replay is given the voids' targets beforehand
(`planned`), and checks every void it meets against them. A void may itself be voided (a
mistaken void undone): it then voids nothing, and its target is applied as any event.
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from cok.core.deadlines import Wait, day_and_time, moment
from cok.core.errors import Problem, RuleError, root_first
from cok.core.events import (
    Confirm,
    DiceCommit,
    DiceLost,
    DiceReveal,
    Dispute,
    Entry,
    EventBase,
    Extend,
    Present,
    Settle,
    Void,
    content_ref,
)
from cok.core.history import Diced, Told, Voided, Word
from cok.core.progress import Advance, task
from cok.core.text import in_file_words, quoted
from cok.core.waiting import after, before, clock_of, clocked

if TYPE_CHECKING:
    from cok.core.ruleset import Ruleset


@dataclass
class Folded:
    """The state after the entries, the problems found, the id of every event with its line,
    and (when asked for) the history in words."""

    state: Any
    problems: list[Problem] = field(default_factory=list)
    ids: dict[str, int] = field(default_factory=dict)
    history: list[Told] = field(default_factory=list)
    voided: dict[str, Entry] = field(default_factory=dict)  # id -> the void that voided it
    refused: list[Skipped] = field(default_factory=list)


@dataclass(frozen=True)
class Skipped:
    """An event the rules refused during the replay (and skipped), with how a void names it."""

    entry: Entry
    ref: str
    problem: Problem


class Unplanned(Exception):
    """The replay met a void it was not told of beforehand (or missed one it was): what it
    applied may include a voided event, so it must be done again from the whole list."""


class _Naming:
    """How a void names each event: its id, else `=digest` of its fields (`#2`, `#3` … for
    identical twins, in log order)."""

    def __init__(self) -> None:
        self.twins: dict[str, int] = {}

    def ref(self, entry: Entry) -> str:
        event = entry.event
        if event.id is not None:
            return event.id
        ref = content_ref(event)
        count = self.twins[ref] = self.twins.get(ref, 0) + 1
        return ref if count == 1 else f"{ref}#{count}"


#: Where a void is, to compare with where its target is: its line, or its place in a list.
Planned = Mapping[str, Sequence[float]]


class Plan(dict[str, list[float]]):
    """The voids' targets, each with the places of its voids, and (`own`) each void's own id
    by its place: a void may be voided, and then voids nothing (its target comes back)."""

    def __init__(self) -> None:
        super().__init__()
        self.own: dict[float, str] = {}

    def add(self, void: Void, place: float) -> None:
        self.setdefault(void.target, []).append(place)
        if void.id is not None:
            self.own[place] = void.id


def planned(entries: Sequence[Entry]) -> Plan:
    """The targets of the voids among these entries, each with the places of its voids."""
    out = Plan()
    for index, entry in enumerate(entries):
        if isinstance(entry.event, Void):
            out.add(entry.event, index)
    return out


def in_force(plan: Planned) -> dict[str, list[float]]:
    """The voids that void something: a void voided by a later void in force voids nothing,
    so the voids are read from the last (a void names only an earlier event): the targets
    of those in force, each with their places."""
    own = plan.own if isinstance(plan, Plan) else {}
    voids = sorted(((place, target) for target, places in plan.items() for place in places), reverse=True)
    cancelled: dict[str, list[float]] = {}
    for place, target in voids:
        mine = own.get(place)
        if mine is not None and any(p > place for p in cancelled.get(mine, ())):
            continue  # itself voided by a later void in force
        cancelled.setdefault(target, []).append(place)
    return cancelled


class Replay:
    """Applies entries one at a time to `state` (it changes in place). `planned`: the voids'
    targets, each with the lines (`by_line`) or list places of its voids; `known`: the ids (and
    lines) of the events already folded into `state`, when these entries continue a log.
    Without `telling`, no history is written (`check --no-cache`, the merge driver); with
    `told_to`, each event in words is handed to it instead of being kept."""

    def __init__(
        self,
        ruleset: Ruleset,
        state: Any,
        shown: str,
        plan: Planned,
        *,
        by_line: bool = False,
        known: Mapping[str, int] | None = None,
        telling: bool = True,
        told_to: Callable[[Told], None] | None = None,
    ) -> None:
        self.ruleset, self.shown, self.plan, self.by_line = ruleset, shown, plan, by_line
        self.known = known or {}
        self.telling = telling
        self.done = Folded(state)
        self.told_to = told_to or self.done.history.append  # the history in words: kept, or handed on
        self.count = 0
        self.naming = _Naming()
        self.seen: dict[str, tuple[int | None, bool]] = {}  # id or ref -> (line, is a void) of the first
        self.doomed: set[str] = set()  # refs that a void later in the log voids
        self.force = in_force(plan)  # the targets of the voids that void something, with their places
        self.met = 0  # voids met that were planned
        self.blamed: dict[str, int] = {}  # a player -> the line of the first refused event about them
        self.advance: Advance | None = None
        # the campaign's deadlines (issue 48): without them, the fold never asks its game for waits
        self.clock = clock_of(state)

    def _place(self, entry: Entry) -> float:
        if not self.by_line:
            return self.count
        return math.inf if entry.line is None else entry.line

    def take(self, entry: Entry) -> None:
        """Apply one entry (or skip it: voided, a void, refused)."""
        place = self._place(entry)
        self.count += 1
        if self.advance is not None and not self.count % 1024:
            self.advance(self.count)
        event, done, ruleset = entry.event, self.done, self.ruleset
        ref = self.naming.ref(entry)
        if isinstance(event, Void):
            self._void(entry, event, place)
        key = event.id if event.id is not None else ref
        if key not in self.seen:
            earlier = self.known.get(event.id) if event.id is not None else None
            if earlier is not None:
                done.problems.append(self._used_twice(entry, earlier))
            else:
                self.seen[key] = (entry.line, isinstance(event, Void))
                if any(p > place for p in self.force.get(key, ())):
                    self.doomed.add(key)
        elif event.id is not None:
            done.problems.append(self._used_twice(entry, self.seen[key][0]))
        if event.id is not None and event.id not in done.ids:
            done.ids[event.id] = entry.line or 0
        is_voided = ref in self.doomed
        if is_voided and isinstance(event, Void):
            text = f"void of {event.target} (itself voided: {event.target} stands): {event.reason}"
        elif is_voided:
            text = ruleset.untold(done.state, event)
        elif isinstance(event, Void):
            effective = done.voided.get(event.target) is entry
            text = tell(ruleset, done.state, Voided(event.target, event.reason)) if effective else ""
        elif isinstance(event, (DiceCommit, DiceReveal, DiceLost)):
            text = tell(ruleset, done.state, diced(event))
        elif isinstance(event, (Confirm, Dispute, Settle)):
            if event.target not in self.seen:  # docs/confirm.md: a verdict names an earlier result
                message = f"{event.type}: no earlier event has the id {quoted(event.target)}"
                done.problems.append(Problem(self.shown, entry.line, message))
            text = tell(ruleset, done.state, verdict(event))
        elif isinstance(event, (Extend, Present)):
            try:
                text = clocked(ruleset, done.state, event).text
            except RuleError as exc:
                self._refused(entry, ref, exc)
                return
        else:
            try:
                wait = None if event.default is None else before(ruleset, done.state, event)
                outcome = ruleset.apply(done.state, event)
            except RuleError as exc:
                self._refused(entry, ref, exc)
                return
            if self.clock is not None:
                after(ruleset, done.state, event, wait, self.clock)
            text = tell(ruleset, done.state, outcome) if self.telling else ""
            if wait is not None and self.telling:
                text = with_default(event, text, wait, ruleset, done.state)
        if self.telling:
            self.told_to(told(ruleset, entry, text, is_voided, ref))

    def _used_twice(self, entry: Entry, earlier: int | None) -> Problem:
        message = f"the id {quoted(entry.event.id)} is already used by the event on line {earlier}"
        return Problem(self.shown, entry.line, message)

    def _void(self, entry: Entry, event: Void, place: float) -> None:
        if place not in self.plan.get(event.target, ()):
            raise Unplanned(f"a void of {event.target!r} on line {entry.line} was not planned")
        self.met += 1
        problems, shown = self.done.problems, self.shown
        target = self.seen.get(event.target)
        if target is None:
            problems.append(Problem(shown, entry.line, f"void: no earlier event has the id {quoted(event.target)}"))
        elif place not in self.force.get(event.target, ()):
            pass  # itself voided by a later void: it voids nothing
        elif event.target in self.done.voided:
            line = self.done.voided[event.target].line
            problems.append(
                Problem(shown, entry.line, f"void: {quoted(event.target)} is already voided (on line {line})")
            )
        else:
            self.done.voided[event.target] = entry

    def _refused(self, entry: Entry, ref: str, exc: RuleError) -> None:
        ruleset, done = self.ruleset, self.done
        players = ruleset.involved(entry.event)
        cause = min((self.blamed[p] for p in players if p in self.blamed), default=None)
        said = f"{ruleset.label(entry.event)}: {exc}" + (f". {exc.logged.format(ref=ref)}" if exc.logged else "")
        problem = Problem(self.shown, entry.line, in_file_words(said), cause)
        done.problems.append(problem)
        done.refused.append(Skipped(entry, ref, problem))
        for player in players:
            self.blamed.setdefault(player, cause if cause is not None else entry.line or 0)

    def finish(self) -> Folded:
        """What the replay made; Unplanned when a planned void was never met."""
        if self.met != sum(len(places) for places in self.plan.values()):
            raise Unplanned("a void planned was not met")
        self.done.problems = root_first(self.done.problems)
        return self.done


def fold(
    ruleset: Ruleset,
    entries: Sequence[Entry],
    state: Any,
    shown: str,
    *,
    known: Mapping[str, int] | None = None,
    telling: bool = True,
) -> Folded:
    """Apply every entry to `state` in order (it changes in place). `known`: the ids of the
    events already folded into `state`, when these entries continue a log. Without
    `telling`, no history is written (the merge driver only needs the problems)."""
    replay = Replay(ruleset, state, shown, planned(entries), known=known, telling=telling)
    with task("replaying the log", len(entries)) as advance:
        replay.advance = advance
        for entry in entries:
            replay.take(entry)
    return replay.finish()


def tell(ruleset: Ruleset, state: Any, outcome: Any) -> str:
    """An outcome in a sentence: a void's by the core, every other by its game."""
    if isinstance(outcome, Voided):
        return f"voided {outcome.target}: {outcome.reason}"
    if isinstance(outcome, (Diced, Word)):
        return outcome.text
    return ruleset.tell(state, outcome)


def with_dice(event: EventBase, text: str) -> str:
    """An event's sentence, saying the dice cok rolled for it (docs/dice.md: a typed one is not)."""
    if event.rolled is None or not text or "dice rolled by cok" in text:
        return text
    return f"{text} — dice rolled by cok: {' '.join(str(d) for d in event.rolled.dice)}"


def with_default(event: EventBase, text: str, wait: Wait, ruleset: Ruleset, state: Any) -> str:
    """A default's sentence (docs/deadlines.md), the same for every game: what was missed, by
    whom, when it was due and when applied, then the game's own words for what was recorded:
    "no orders from bo by Thu 3 Dec 20:00 (applied Fri 4 Dec 09:00): bo-4 holds"."""
    clock = clock_of(state)
    zone = clock.zone() if clock is not None else None
    step = next((s for s in ruleset.deadline_steps if s.key == wait.step), None)
    what = step.what if step is not None else wait.step
    who = wait.who if wait.who is not None else "the organisers"
    due = moment(event.due, zone or dt.UTC) if event.due is not None else None
    applied = moment(event.at, zone or dt.UTC)
    if event.default == "absent":
        said = f"no {what} from {who}, absent"
        said += f" (applied {day_and_time(applied, zone or dt.UTC)})" if applied is not None else ""
    else:
        said = f"no {what} from {who}"
        said += f" by {day_and_time(due, zone or dt.UTC)}" if due is not None else ""
        said += f" (applied {day_and_time(applied, zone or dt.UTC)})" if applied is not None else ""
    return f"{said}: {text}" if text else said


def core_outcome(ruleset: Ruleset, state: Any, event: EventBase) -> Any | None:
    """What one of the core's own events did (a void, the dice', a result's verdict, the
    clock's), which no game's rules decide; None for a game's event. The recording path's one
    table of them (the fold checks a void's and a verdict's targets before telling them)."""
    if isinstance(event, Void):
        return Voided(event.target, event.reason)
    if isinstance(event, (DiceCommit, DiceReveal, DiceLost)):
        return diced(event)
    if isinstance(event, (Confirm, Dispute, Settle)):
        return verdict(event)
    if isinstance(event, (Extend, Present)):
        return clocked(ruleset, state, event)
    return None


def diced(event: DiceCommit | DiceReveal | DiceLost) -> Diced:
    """A dice event in words (docs/dice.md)."""
    if isinstance(event, DiceCommit):
        return Diced(f"the dice of {event.period} are committed: sha256 {event.sha256[:16]}…")
    if isinstance(event, DiceReveal):
        return Diced(f"the seed of the dice committed in {event.commit} is revealed: anyone may check them")
    return Diced(f"the seed of the dice committed in {event.commit} is lost ({event.reason}): they cannot be checked")


def verdict(event: Confirm | Dispute | Settle) -> Word:
    """A result's confirmation, dispute or settling in words (docs/confirm.md): it changes
    nothing in the game's state, only how the result is shown."""
    who = event.by or "someone"
    if isinstance(event, Confirm):
        return Word(f"{who} confirms the result {event.target}")
    if isinstance(event, Dispute):
        return Word(f"{who} disputes the result {event.target}: {event.reason}")
    return Word(f"{who} settles the dispute over {event.target}: the result is kept ({event.reason})")


def told(ruleset: Ruleset, entry: Entry, text: str, voided: bool = False, ref: str | None = None) -> Told:
    """An event as the history keeps it. A game with a `public(event)` member chooses which
    fields are shown (a hidden card stays out of `cok log --json` and the site)."""
    event = entry.event
    text = with_dice(event, text)
    return Told(
        entry.line or 0,
        event.id,
        ref or event.id,
        event.type,
        text,
        voided,
        ()
        if isinstance(event, (Void, DiceCommit, DiceReveal, DiceLost, Confirm, Dispute, Settle))
        else (event.player,)
        if isinstance(event, (Extend, Present)) and event.player is not None
        else ()
        if isinstance(event, (Extend, Present))
        else tuple(sorted(ruleset.involved(event))),
        ruleset.public(event),
    )
