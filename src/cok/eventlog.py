"""The event log file: read every event with its line; append one event safely.

The log is the users' data. We never rewrite what is in it: a new event is
appended as one block of bytes at the end, flushed to disk before we report it,
and only after the file was checked to be exactly what we replayed.
"""

from __future__ import annotations

import datetime as dt
import os
import secrets
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from cok.errors import Problem, Refused
from cok.events import EVENT_TYPES, Event, EventBase
from cok.names import did_you_mean
from cok.validation import check
from cok.yamlfile import YamlList, YamlMap, display_path, parse, read_text


@dataclass(frozen=True)
class Recorded:
    """An event and where it stands in the log (line None: not written yet)."""

    event: Event
    line: int | None


@dataclass
class Log:
    path: Path
    records: list[Recorded] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    raw: bytes = b""
    item_column: int = 0
    empty_flow: tuple[int, int] | None = None  # character span of a bare `[]`

    @property
    def shown(self) -> str:
        return display_path(self.path)


def read_log(path: Path) -> Log:
    """Load the log. Problems with single events are collected, not raised, so that
    `cok check` can report every one; a file that is not a YAML list is refused."""
    log = Log(path)
    if not path.exists():
        return log
    text = read_text(path, "event log")
    log.raw = path.read_bytes()
    data = parse(text, log.shown)
    if data is None:
        return log
    if not isinstance(data, YamlList):
        raise Refused(Problem(log.shown, 1, "the event log must be a YAML list of events (`- type: …`)"))
    if data.flow:
        if data:
            raise Refused(
                Problem(log.shown, data.line, "write the event log as a block list (`- type: …`), not as [ … ]")
            )
        log.empty_flow = (data.start, data.end)
    log.item_column = data.column
    for item, line in zip(data, data.item_lines, strict=True):
        event, errors = parse_event(item)
        if event is None:
            log.problems.extend(Problem(log.shown, line, e) for e in errors)
        else:
            log.records.append(Recorded(event, line))
    return log


def parse_event(item: Any) -> tuple[Event | None, list[str]]:
    """One log entry as an event, or the sentences saying what is wrong with it."""
    if not isinstance(item, YamlMap):
        return None, ["each event must be a mapping with a `type`"]
    kind = item.get("type")
    if kind is None:
        return None, [f"event has no `type` (one of {', '.join(EVENT_TYPES)})"]
    model = EVENT_TYPES.get(kind) if isinstance(kind, str) else None
    if model is None:
        return None, [f"unknown event type {kind!r}{did_you_mean(str(kind), EVENT_TYPES)}"]
    event, errors = check(model, item)
    return event, [f"{kind}: {e}" for e in errors]  # type: ignore[return-value]


def new_id() -> str:
    """A random id: unique across branches of the log that are merged later."""
    return secrets.token_hex(6)


def stamp(event: Event, by: str | None = None) -> Event:
    """The fields the ledger writes on every event it appends."""
    now = dt.datetime.now(dt.UTC).replace(microsecond=0)
    return event.model_copy(update={"id": event.id or new_id(), "at": event.at or now, "by": event.by or by})


def to_yaml(event: EventBase) -> str:
    """The event as one block list item, a field a line, short lists and maps inline:

    - type: battle
      players: [tim, matt]
      location: Starfall
    """
    data = event.model_dump(mode="json", exclude_defaults=True, exclude_none=True)
    data.pop("type", None)
    meta: dict[str, Any] = {k: data.pop(k) for k in ("id", "at", "by", "note") if k in data}
    fields: dict[str, Any] = {"type": getattr(event, "type", None), **data, **meta}
    lines = [f"{key}: {_inline(value)}" for key, value in fields.items()]
    return "- " + "\n  ".join(lines) + "\n"


def _inline(value: Any) -> str:
    """One YAML value on one line, quoted where YAML needs it."""
    if isinstance(value, list):
        return "[" + ", ".join(_inline(item) for item in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_inline(k)}: {_inline(v)}" for k, v in value.items()) + "}"
    if isinstance(value, str) and not all(_plain_char(ch) for ch in value):
        return _double_quoted(value)
    text = yaml.safe_dump(value, default_flow_style=True, allow_unicode=True, width=float("inf")).strip()
    return text.removesuffix("...").rstrip()


def _plain_char(ch: str) -> bool:
    """Characters PyYAML writes and reads back unchanged without escapes."""
    return ch.isprintable() and ord(ch) <= 0xFFFF and ch not in "\u2028\u2029\x85\ufeff"


def _double_quoted(value: str) -> str:
    """A YAML double-quoted scalar with every unusual character escaped (PyYAML would write
    characters beyond U+FFFF as surrogate pairs, which do not read back)."""
    out = []
    for ch in value:
        if ch in '"\\':
            out.append("\\" + ch)
        elif _plain_char(ch):
            out.append(ch)
        elif ord(ch) <= 0xFFFF:
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(f"\\U{ord(ch):08x}")
    return '"' + "".join(out) + '"'


def append(log: Log, event: EventBase) -> None:
    """Append one event to the log, refusing if the file changed since it was read."""
    block = to_yaml(event)
    if log.item_column:
        pad = " " * log.item_column
        block = "".join(pad + line for line in block.splitlines(keepends=True))
    current = log.path.read_bytes() if log.path.exists() else b""
    if current != log.raw:
        raise Refused(Problem(log.shown, None, "the event log changed while this command ran; run it again"))
    if log.empty_flow is not None:
        start, end = log.empty_flow
        text = current.decode("utf-8-sig")
        head = (text[:start] + text[end:]).rstrip()
        _replace(log.path, (head + "\n" if head else "") + block)
        return
    prefix = b"" if not current or current.endswith(b"\n") else b"\n"
    with open(log.path, "ab") as handle:
        handle.write(prefix + block.encode("utf-8"))
        handle.flush()
        os.fsync(handle.fileno())


def _replace(path: Path, text: str) -> None:
    """Write a whole file atomically (only used to turn an empty `[]` into a block list)."""
    temp = path.with_name(path.name + ".tmp")
    with open(temp, "w", encoding="utf-8") as handle:
        handle.write(text)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(temp, path)
