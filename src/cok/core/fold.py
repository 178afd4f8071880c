"""The fold: state = every event of the log applied in order, voided ones left out.

The same for every game: a ruleset gives the initial state and `apply(state, event)`;
voiding is a property of the log, handled here. A refused event is reported with its
`file:line` and skipped, so that every problem in the log is found in one pass (as
`cok check` promises), and a problem is a value, collected, never thrown.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from cok.core.errors import Problem, RuleError, root_first
from cok.core.events import Entry, Void, content_ref
from cok.core.history import Told, Voided
from cok.core.progress import Advance, task
from cok.core.text import in_file_words

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
    refused: list[Refusal] = field(default_factory=list)


@dataclass(frozen=True)
class Refusal:
    """An event the rules refused during the replay (and skipped), with how a void names it."""

    entry: Entry
    ref: str
    problem: Problem


def refs(entries: Sequence[Entry]) -> list[str]:
    """How a void names each event: its id, else `=digest` of its fields (`#2`, `#3` … for
    identical twins, in log order)."""
    out = []
    twins: dict[str, int] = {}
    for entry in entries:
        event = entry.event
        if event.id is not None:
            out.append(event.id)
            continue
        ref = content_ref(event)
        twins[ref] = twins.get(ref, 0) + 1
        out.append(ref if twins[ref] == 1 else f"{ref}#{twins[ref]}")
    return out


def voids(
    entries: Sequence[Entry], shown: str, known: Mapping[str, int], named: Sequence[str]
) -> tuple[dict[str, Entry], list[Problem]]:
    """Which events are voided (by the name `refs` gives them), and by which void; problems
    with ids and voids. `known`: the ids (and lines) of the events before these entries."""
    seen: dict[str, Entry] = {}
    voided: dict[str, Entry] = {}
    problems: list[Problem] = []
    for entry, ref in zip(entries, named, strict=True):
        event = entry.event
        if isinstance(event, Void):
            target = seen.get(event.target)
            if target is None:
                problems.append(Problem(shown, entry.line, f"void: no earlier event has the id {event.target!r}"))
            elif isinstance(target.event, Void):
                problems.append(Problem(shown, entry.line, f"void: {event.target!r} is a void, which cannot be voided"))
            elif event.target in voided:
                line = voided[event.target].line
                problems.append(
                    Problem(shown, entry.line, f"void: {event.target!r} is already voided (on line {line})")
                )
            else:
                voided[event.target] = entry
        if event.id is not None:
            earlier = seen[event.id].line if event.id in seen else known.get(event.id)
            if earlier is not None:
                problems.append(
                    Problem(shown, entry.line, f"the id {event.id!r} is already used by the event on line {earlier}")
                )
            else:
                seen[event.id] = entry
        else:
            seen[ref] = entry
    return voided, problems


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
    named = refs(entries)
    voided, problems = voids(entries, shown, known or {}, named)
    done = Folded(state, problems, voided=voided)
    blamed: dict[str, int] = {}  # a player -> the line of the first refused event about them
    with task("replaying the log", len(entries)) as advance:
        _apply_all(ruleset, entries, named, state, shown, done, blamed, telling, advance)
    done.problems = root_first(done.problems)
    return done


def _apply_all(
    ruleset: Ruleset,
    entries: Sequence[Entry],
    named: Sequence[str],
    state: Any,
    shown: str,
    done: Folded,
    blamed: dict[str, int],
    telling: bool,
    advance: Advance,
) -> None:
    voided = done.voided
    for count, (entry, ref) in enumerate(zip(entries, named, strict=True)):
        if not count % 1024:
            advance(count)
        event = entry.event
        if event.id is not None and event.id not in done.ids:
            done.ids[event.id] = entry.line or 0
        is_voided = ref in voided
        if is_voided:
            text = ruleset.untold(state, event)
        elif isinstance(event, Void):
            text = tell(ruleset, state, Voided(event.target, event.reason)) if voided.get(event.target) is entry else ""
        else:
            try:
                outcome = ruleset.apply(state, event)
            except RuleError as exc:
                players = ruleset.involved(event)
                cause = min((blamed[p] for p in players if p in blamed), default=None)
                problem = Problem(shown, entry.line, in_file_words(f"{ruleset.label(event)}: {exc}"), cause)
                done.problems.append(problem)
                done.refused.append(Refusal(entry, ref, problem))
                for player in players:
                    blamed.setdefault(player, cause if cause is not None else entry.line or 0)
                continue
            text = tell(ruleset, state, outcome) if telling else ""
        if telling:
            done.history.append(told(ruleset, entry, text, is_voided, ref))


def tell(ruleset: Ruleset, state: Any, outcome: Any) -> str:
    """An outcome in a sentence: a void's by the core, every other by its game."""
    if isinstance(outcome, Voided):
        return f"voided {outcome.target}: {outcome.reason}"
    return ruleset.tell(state, outcome)


def told(ruleset: Ruleset, entry: Entry, text: str, voided: bool = False, ref: str | None = None) -> Told:
    """An event as the history keeps it. A game with a `public(event)` member chooses which
    fields are shown (a hidden card stays out of `cok log --json` and the site)."""
    event = entry.event
    public = getattr(ruleset, "public", None)
    return Told(
        entry.line or 0,
        event.id,
        ref or event.id,
        event.type,
        text,
        voided,
        () if isinstance(event, Void) else tuple(sorted(ruleset.involved(event))),
        public(event) if public is not None else event.model_dump(mode="json", exclude_none=True),
    )
