"""The event log file: read every event with its line, and write an event as the text
that gets appended.

The log is the users' data. Reading collects a problem per bad event (so `cok check`
reports them all) and says how far it read, so that a later command can replay only what
was appended since.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from cok.core.errors import Problem, Refused
from cok.core.events import Entry, EventBase, Void
from cok.core.names import did_you_mean
from cok.core.position import Position
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
    """The game's events and the core's `void`."""
    return {**ruleset.events, "void": Void}


def read_log(raw: bytes, text: str, shown: str, ruleset: Ruleset, *, first_line: int = 1) -> Log:
    """The log from its bytes and text. Problems with single events are collected, not
    raised; a file that is not a YAML list of events is refused. `first_line`: the line the
    text starts on (a tail read after a position)."""
    from cok.core.progress import task

    log = Log(shown)
    types = event_types(ruleset)
    offset = first_line - 1

    with task("reading the log", text.count("\n") + 1) as advance:

        def take(item: Any, line: int) -> None:
            event, errors = parse_event(item, types, ruleset)
            if event is None:
                log.problems.extend(Problem(shown, line + offset, e) for e in errors)
            else:
                log.entries.append(Entry(event, line + offset))
            if not len(log.entries) % 1024:
                advance(line)

        data = parse(text, shown, sink=take)
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
        return None, [f"unknown event type {kind!r}{did_you_mean(str(kind), types)}"]
    for step in ruleset.upcasts.get(kind, ()):
        item = step(item)
    event, errors = check(model, item)
    return event, [f"{kind}: {e}" for e in errors]
