"""The event log file: read every event with its line; append one event safely.

The log is the users' data. We never rewrite what is in it: a new event is
appended as one block of bytes at the end, flushed to disk before we report it,
and only after the file was checked to be exactly what we replayed.
"""

from __future__ import annotations

import datetime as dt
import os
import secrets
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from filelock import FileLock, Timeout

from cok.errors import Problem, Refused, display_path
from cok.events import EVENT_TYPES, Event, EventBase, upcast
from cok.names import did_you_mean
from cok.validation import check
from cok.yamlfile import YamlList, YamlMap, parse, read_file


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
    item_lines: list[int] = field(default_factory=list)  # where every entry starts, valid or not
    empty_flow: tuple[int, int] | None = None  # character span of a bare `[]`

    @property
    def shown(self) -> str:
        return display_path(self.path)


def read_log(path: Path) -> Log:
    """Load the log. Problems with single events are collected, not raised, so that
    `cok check` can report every one; a file that is not a YAML list is refused."""
    log = Log(path)
    recover_if_needed(path)
    if not path.exists():
        return log
    log.raw, text = read_file(path, "event log")
    return parse_log(text, log)


def parse_log(text: str, log: Log) -> Log:
    """Fill `log` from the log's text (see `read_log`), one event at a time."""

    def take(item: Any, line: int) -> None:
        event, errors = parse_event(item)
        if event is None:
            log.problems.extend(Problem(log.shown, line, e) for e in errors)
        else:
            log.records.append(Recorded(event, line))

    data = parse(text, log.shown, sink=take)
    if data is None:
        return log
    if not isinstance(data, YamlList):
        raise Refused(Problem(log.shown, 1, "the event log must be a YAML list of events (`- type: …`)"))
    if data.flow:
        if data.item_lines:
            raise Refused(
                Problem(log.shown, data.line, "write the event log as a block list (`- type: …`), not as [ … ]")
            )
        log.empty_flow = (data.start, data.end)
    log.item_column = data.column
    log.item_lines = list(data.item_lines)
    return log


def parse_event(item: Any) -> tuple[Event | None, list[str]]:
    """One log entry as an event, or the sentences saying what is wrong with it."""
    if not isinstance(item, YamlMap):
        return None, ["each event must be a mapping with a `type`"]
    item = upcast(item)
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


def with_metadata(event: Event, by: str | None = None) -> Event:
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


def lock_path(path: Path) -> Path:
    return path.with_name(f".{path.name}.lock")


def journal_path(path: Path) -> Path:
    return path.with_name(f".{path.name}.pending")


LOCK_TIMEOUT = 60.0


@contextmanager
def locked(path: Path) -> Iterator[None]:
    """Hold the campaign's exclusive recording lock (a lock file beside the log)."""
    lock = FileLock(lock_path(path), timeout=LOCK_TIMEOUT)
    try:
        with lock:
            yield
    except Timeout:
        raise Refused(
            Problem(
                display_path(path),
                None,
                f"another cok command has been recording here for over "
                f"{LOCK_TIMEOUT:.0f} s (lock file {lock_path(path).name}); try again",
            )
        ) from None


def recover(path: Path) -> None:
    """Finish what a killed append left: a journal names the log's size before the append
    and the block being appended. A partial block is cut off (that command never reported
    success); a complete one is kept. Call with the lock held."""
    journal = journal_path(path)
    try:
        data = journal.read_bytes()
    except FileNotFoundError:
        return
    header, _, block = data.partition(b"\n")
    parts = header.split()
    if len(parts) == 3 and parts[0] == b"cok-pending" and int(parts[2]) == len(block):
        size = int(parts[1])
        with open(path, "r+b") as handle:
            handle.seek(size)
            tail = handle.read()
            if tail and tail != block and block.startswith(tail):
                handle.truncate(size)
                handle.flush()
                os.fsync(handle.fileno())
    journal.unlink(missing_ok=True)


def recover_if_needed(path: Path) -> None:
    """Readers call this: only when a journal was left behind does it take the lock."""
    if journal_path(path).exists():
        with locked(path):
            recover(path)


def append(
    path: Path,
    event: EventBase,
    *,
    expected: tuple[int, int, int] | None,
    item_column: int = 0,
    empty_flow: tuple[int, int] | None = None,
) -> None:
    """Append one event to the log. Call with the lock held. `expected` is the log's stamp
    (size, mtime, inode) when it was read: if the file changed since, nothing is written.
    The block is journaled first, so that a crash at any moment leaves the log with all of
    the event or none of it (see `recover`)."""
    from cok.cache import stamp

    shown = display_path(path)
    if stamp(path) != expected:
        raise Refused(Problem(shown, None, "the event log changed while this command ran; run it again"))
    block = to_yaml(event)
    if item_column:
        pad = " " * item_column
        block = "".join(pad + line for line in block.splitlines(keepends=True))
    current = path.read_bytes() if path.exists() else b""
    if empty_flow is not None:
        start, end = empty_flow
        text = current.decode("utf-8-sig")
        head = (text[:start] + text[end:]).rstrip()
        _replace(path, (head + "\n" if head else "") + block)
        return
    data = (b"" if not current or current.endswith(b"\n") else b"\n") + block.encode("utf-8")
    journal = journal_path(path)
    _write_synced(journal, b"cok-pending %d %d\n" % (len(current), len(data)) + data)
    pause = _test_pause()
    with open(path, "ab") as handle:
        if pause:  # tear the write in two, so that the kill tests can land inside an append
            time.sleep(pause)
            half, data = data[: len(data) // 2], data[len(data) // 2 :]
            handle.write(half)
            handle.flush()
            os.fsync(handle.fileno())
            time.sleep(pause)
        handle.write(data)
        handle.flush()
        os.fsync(handle.fileno())
    journal.unlink()


def _test_pause() -> float:
    """COK_TEST_APPEND_PAUSE (seconds): a test hook that slows appends down, so that a test
    can kill -9 a process in the middle of one. Never set in normal use."""
    try:
        return max(0.0, float(os.environ.get("COK_TEST_APPEND_PAUSE") or 0))
    except ValueError:
        return 0.0


def _write_synced(path: Path, data: bytes) -> None:
    with open(path, "wb") as handle:
        handle.write(data)
        handle.flush()
        os.fsync(handle.fileno())


def _replace(path: Path, text: str) -> None:
    """Write a whole file atomically (only used to turn an empty `[]` into a block list)."""
    temp = path.with_name(path.name + ".tmp")
    _write_synced(temp, text.encode("utf-8"))
    os.replace(temp, path)
