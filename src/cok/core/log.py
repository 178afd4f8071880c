"""The event log file: read every event with its line, and write an event as the text
that gets appended.

The log is the users' data. Reading collects a problem per bad event (so `cok check`
reports them all) and says how far it read, so that a later command can replay only what
was appended since.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from cok.core.errors import Problem, Refused
from cok.core.events import Entry, EventBase, Void
from cok.core.fold import Plan
from cok.core.names import did_you_mean
from cok.core.position import Position
from cok.core.text import quoted
from cok.core.validation import check
from cok.core.yamlfile import YamlList, YamlMap, parse

if TYPE_CHECKING:
    from cok.core.ruleset import Ruleset


@dataclass
class Log:
    """Every entry read from a log, the problems found, and the position read to."""

    shown: str
    entries: list[Entry] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    item_lines: list[int] = field(default_factory=list)  # where every entry starts, valid or not
    position: Position = field(default_factory=lambda: Position.of(b""))


def event_types(ruleset: Ruleset) -> Mapping[str, type[EventBase]]:
    """The game's events and the core's: `void`, the dice' (docs/dice.md) and a result's
    confirmation, dispute and settling (docs/confirm.md), and the campaign's time: an
    extension, a player brought back (docs/deadlines.md)."""
    from cok.core.events import CLOCK_EVENTS, DICE_EVENTS, VERDICT_EVENTS

    return {**ruleset.events, "void": Void, **DICE_EVENTS, **VERDICT_EVENTS, **CLOCK_EVENTS}


def read_log(
    raw: bytes,
    text: str,
    shown: str,
    ruleset: Ruleset,
    *,
    first_line: int = 1,
    take: Callable[[Entry], None] | None = None,
) -> Log:
    """The log from its bytes and text. Problems with single events are collected, not
    raised; a file that is not a YAML list of events is refused. `first_line`: the line the
    text starts on (a tail read after a position). With `take`, each entry is handed to it
    as soon as it is read instead of being kept (a long log is never held whole)."""
    from cok.core.progress import task

    log = Log(shown)
    types = event_types(ruleset)
    offset = first_line - 1

    read = [0]
    lines = text.count("\n") + 1
    with task("reading the log" if take is None else "replaying the log", lines) as advance:

        def sink(item: Any, line: int) -> None:
            event, errors = parse_event(item, types, ruleset)
            if event is None:
                log.problems.extend(Problem(shown, line + offset, e) for e in errors)
            else:
                log.entries.append(Entry(event, line + offset))
                if take is not None and len(log.entries) >= BATCH:
                    _hand_over(log.entries, take)
            read[0] += 1
            if not read[0] % 1024:
                advance(line)

        data = parse(text, shown, sink=sink)
        if take is not None:
            _hand_over(log.entries, take)
        advance(lines)
    empty_flow = None
    column = 0
    if data is not None:
        if not isinstance(data, YamlList):
            raise Refused(Problem(shown, 1 + offset, "the event log must be a YAML list of events (`- type: …`)"))
        if data.flow:
            if data.item_lines:
                raise Refused(
                    Problem(shown, data.line, "write the event log as a block list (`- type: …`), not as [ … ]")
                )
            empty_flow = (data.start, data.end)
        column = data.column
        log.item_lines = [line + offset for line in data.item_lines]
    log.position = Position.of(raw, column, empty_flow)
    return log


#: Entries read before they are handed over together: reading a few hundred and then
#: applying them is a fifth faster than taking turns one by one (each stays in the
#: processor's caches), and holds no more than these at a time.
BATCH = 512


def _hand_over(entries: list[Entry], take: Callable[[Entry], None]) -> None:
    for entry in entries:
        take(entry)
    entries.clear()


def parse_event(
    item: Any, types: Mapping[str, type[EventBase]], ruleset: Ruleset
) -> tuple[EventBase | None, list[str]]:
    """One log entry as an event, or the sentences saying what is wrong with it."""
    if not isinstance(item, YamlMap):
        return None, ["each event must be a mapping with a `type`"]
    kind = item.get("type")
    if kind is None:
        return None, [f"event has no `type` (one of {', '.join(types)})"]
    model = types.get(kind) if isinstance(kind, str) else None
    if model is None:
        return None, [f"unknown event type {quoted(kind)}{did_you_mean(str(kind), types)}"]
    for step in ruleset.upcasts.get(kind, ()):
        item = step(item)
    event, errors = check(model, item)
    return event, [f"{kind}: {e}" for e in errors]


def planned_voids(text: str, shown: str, ruleset: Ruleset) -> Plan | None:
    """The targets of the log's voids, each with the lines its voids start on, found before
    the log is read (a replay must know what is voided before it applies it): every item of
    the list that has the word `void` in it is read on its own. None when the log is not a
    plain block list. A void written so that this misses it (an escaped `type`) is met
    during the replay, which then starts again from the whole list (`fold.Unplanned`)."""
    found = Plan()
    at = text.find("void")
    if at < 0:
        return found
    column = _item_column(text)
    if column is None:
        return None
    starts = ("\n" + " " * column + "- ", "\n" + " " * column + "-\n")
    types = event_types(ruleset)
    done: set[int] = set()
    line, counted = 1, 0  # the line `counted` is on
    ahead = {s: text.find(s) for s in starts}  # each start's next place (-1: none left)
    since = 0  # where the item before ended: the item holding `at` starts after it
    while at >= 0:
        # looked for from the last item on, not from either end of the text: a log of 50,000
        # voids read the whole text twice for each (minutes at 100,000 events)
        start = max(text.rfind(s, since, at) for s in starts) + 1  # 0 when the first item
        for s, next_at in ahead.items():
            if 0 <= next_at < at:
                ahead[s] = text.find(s, at)
        end = min((e for e in ahead.values() if e >= 0), default=len(text))
        since = end
        at = text.find("void", end)
        if start in done:
            continue
        done.add(start)
        line += text.count("\n", counted, start)
        counted = start
        items: list[tuple[object, int]] = []
        try:
            parse(text[start:end], shown, sink=lambda *read: items.append(read))  # noqa: B023 (used at once)
        except Refused:
            continue  # the whole log's reading says what is wrong
        for item, item_line in items:
            event, _ = parse_event(item, types, ruleset)
            if isinstance(event, Void):
                found.add(event, item_line + line - 1)
    return found


def _item_column(text: str) -> int | None:
    """The column of the log's items: the indentation of its first line that is not blank
    or a comment, when that line starts an item (`- `)."""
    at = 0
    while at < len(text):
        end = text.find("\n", at)
        end = len(text) if end < 0 else end
        raw = text[at:end].rstrip("\r")
        at = end + 1
        stripped = raw.lstrip(" ")
        if not stripped or stripped.startswith("#"):
            continue
        return len(raw) - len(stripped) if stripped == "-" or stripped.startswith("- ") else None
    return None
