"""Appending to the log: under an exclusive lock, journaled first, so that a kill at any
moment leaves the log with all of the events appended together or none of them.

We never rewrite what is in the log: a new event is appended as one block of bytes at the
end, flushed to disk before we report it, and only after the file was checked to be
exactly what we replayed.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import TYPE_CHECKING

from cok.core.errors import Problem, Refused, display_path
from cok.core.whole import replace_whole

if TYPE_CHECKING:
    from cok.core.events import EventBase

#: A file as the operating system saw it: device, inode, size, modification and change times
#: (nanoseconds). Any write moves the size or the times; a file put in its place, the inode.
Stamp = tuple[int, int, int, int, int]


def stamp(path: Path) -> Stamp | None:
    """The file's stamp, None when it cannot be seen: a cheap check that nothing touched it
    since (between reading the log under the lock and appending to it; a recording's seal)."""
    try:
        st = path.stat()
    except OSError:
        return None
    return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)


def lock_path(path: Path) -> Path:
    """The lock beside the log itself: a symlinked log is locked beside what it points to, so
    that two campaigns sharing one log through a link take the same lock."""
    real = path.resolve() if path.is_symlink() else path
    return real.with_name(f".{real.name}.lock")


def journal_path(path: Path) -> Path:
    real = path.resolve() if path.is_symlink() else path
    return real.with_name(f".{real.name}.pending")


LOCK_TIMEOUT = 60.0


@contextmanager
def locked(path: Path) -> Iterator[None]:
    """Hold the campaign's exclusive recording lock (a lock file beside the log)."""
    from filelock import FileLock, Timeout

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


def torn_at(path: Path) -> int | None:
    """The log's size before an interrupted append, when a journal names a block of which the
    log ends with only a part; None when there is no such journal."""
    journal = journal_path(path)
    if not journal.exists():
        return None
    try:
        header, _, block = journal.read_bytes().partition(b"\n")
        kind, size_text, length = header.split()
        size = int(size_text)
        if kind != b"cok-pending" or int(length) != len(block):
            return None
        with open(path, "rb") as handle:
            handle.seek(size)
            tail = handle.read(len(block) + 1)
    except (OSError, ValueError):
        return None
    return size if tail and tail != block and block.startswith(tail) else None


def recover(path: Path) -> int | None:
    """Finish what a killed append left: a partial block is cut off (that command never
    reported success), a complete one kept, and the journal removed. Call with the lock
    held. When a partial block cannot be cut (the file is immutable or append-only), the
    journal stays and the size to read the log to is returned: readers then read the log as
    it was before the append, and recording is refused until it is mended."""
    size = torn_at(path)
    if size is not None:
        try:
            with open(path, "r+b") as handle:
                handle.truncate(size)
                handle.flush()
                os.fsync(handle.fileno())
        except OSError:
            return size
    with suppress(OSError):
        journal_path(path).unlink(missing_ok=True)
    return None


def recover_if_needed(path: Path) -> None:
    """Readers call this first: only when a journal was left behind does it take the lock
    (and where no lock can be made, a read-only folder, they read around the torn part)."""
    if journal_path(path).exists():
        with suppress(OSError), locked(path):
            recover(path)


def append(
    path: Path,
    events: EventBase | Sequence[EventBase],
    *,
    expected: Stamp | None,
    item_column: int = 0,
    empty_flow: tuple[int, int] | None = None,
) -> bytes | None:
    """Append one event, or several as one block, to the log. Call with the lock held.
    `expected` is the log's stamp (size, mtime, inode) when it was read: if the file changed
    since, nothing is written. The block is journaled first, so that a crash at any moment
    leaves the log with all of the events or none of them (see `recover`). Returns the bytes
    now at the log's end that were not there before, so that the caller knows the new log
    without reading it again (None when an empty `[]` was rewritten as a block list)."""
    from cok.core.events import EventBase
    from cok.core.write import to_yaml

    shown = display_path(path)
    if stamp(path) != expected:
        raise Refused(Problem(shown, None, "the event log changed while this command ran; run it again"))
    given = [events] if isinstance(events, EventBase) else list(events)
    block = "".join(to_yaml(e) for e in given)
    _reads_back(block, given, shown)
    if item_column:
        pad = " " * item_column
        block = "".join(pad + line for line in block.splitlines(keepends=True))
    if empty_flow is not None:
        start, end = empty_flow
        text = path.read_bytes().decode("utf-8-sig")
        head = (text[:start] + text[end:]).rstrip()
        replace_whole(path, (head + "\n" if head else "") + block)  # an empty `[]` becomes a block list
        return None
    size, last = _end_of(path)
    data = (b"" if last in (b"", b"\n") else b"\n") + block.encode("utf-8")
    journal = journal_path(path)
    try:
        _write_synced(journal, b"cok-pending %d %d\n" % (size, len(data)) + data)
    except OSError as exc:
        journal.unlink(missing_ok=True)
        raise Refused(
            Problem(shown, None, f"nothing was recorded: cannot write the journal ({exc.strerror})")
        ) from None
    try:
        _write_block(path, data)
    except OSError as exc:  # a full disk: cut what was written, so the log is as it was
        recover(path)
        raise Refused(
            Problem(shown, None, f"nothing was recorded: cannot append to the log ({exc.strerror})")
        ) from None
    journal.unlink()
    return data


def _reads_back(block: str, events: Sequence[EventBase], shown: str) -> None:
    """Refuse a block that would not read back as these events (text UTF-8 cannot hold, which
    no reader accepts): once in the log, it would make every command fail on it."""
    from cok.core.write import as_written, not_text
    from cok.core.yamlfile import parse

    written = [as_written(e) for e in events]
    for fields in written:
        bad = not_text(fields)
        if bad is not None:
            raise Refused(
                Problem(
                    shown,
                    None,
                    f"nothing was recorded: `{bad}` holds a character that is not text (a byte that is "
                    "not UTF-8, or a lone surrogate); type it again",
                )
            )
    try:
        block.encode("utf-8")
        again = parse(block, shown)
    except (UnicodeError, Refused) as error:
        raise Refused(Problem(shown, None, f"nothing was recorded: the events would not read back ({error})")) from None
    if again != written:
        raise Refused(Problem(shown, None, "nothing was recorded: the events would not read back as they were given"))


def _end_of(path: Path) -> tuple[int, bytes]:
    """The log's size and its last byte (b"" when empty or missing)."""
    try:
        with open(path, "rb") as handle:
            size = handle.seek(0, os.SEEK_END)
            if not size:
                return 0, b""
            handle.seek(size - 1)
            return size, handle.read(1)
    except FileNotFoundError:
        return 0, b""


def _write_block(path: Path, data: bytes) -> None:
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
