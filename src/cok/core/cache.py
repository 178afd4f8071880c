"""The replay cache: plain data kept outside the campaign folder. It only stores and
loads; `core.campaign` decides whether what it holds still fits the campaign's files.

No pickle: an entry is JSON, checked against a digest written beside it, so a corrupt or
planted file is never trusted and never runs anything. Its large flat collections are
JSON lines of their own after it ("blobs"), so that one unchanged since it was read is
written back as the very text it was read from. Rows (the id index, the history in
words) are JSON lines, each with its own checksum, so that a growing log only appends.
A cache that cannot be read or written is no cache, never an error.
"""

from __future__ import annotations

import hashlib
import json
import os
import zlib
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

from cok import __version__
from cok.core.whole import replace_whole

FORMAT = f"cok-cache 7 {__version__}"  # 7: large flat collections on lines of their own


def cache_dir() -> Path | None:
    """$COK_CACHE_DIR, else the user's cache folder (platformdirs); None when there is none
    to be had (no home folder, a user the system cannot name): then no cache is used."""
    given = os.environ.get("COK_CACHE_DIR")
    if given:
        return Path(given)
    try:
        from platformdirs import user_cache_dir

        found = Path(user_cache_dir("cok", appauthor=False))
    except Exception:  # platformdirs looks up the home folder, which may fail in many ways
        return None
    # Without a home folder some releases answer "~/.cache/cok" unexpanded: a folder relative
    # to wherever the command runs, where the user never asked for one.
    return found if found.is_absolute() else None


def entry_file(folder: Path) -> Path | None:
    """Where the campaign's cache entry is: one per campaign folder (None: no cache)."""
    found = cache_dir()
    if found is None:
        return None
    key = hashlib.blake2b(str(folder.resolve()).encode(), digest_size=12).hexdigest()
    return found / f"{key}.json"


def rows_file(folder: Path, kind: str) -> Path | None:
    entry = entry_file(folder)
    return None if entry is None else entry.with_suffix(f".{kind}")


def _sum(data: bytes) -> bytes:
    return hashlib.sha256(data).hexdigest().encode()


def entry_version(folder: Path) -> tuple[int, int, int] | None:
    """Which write of the entry is there now (every write is a new file: a new inode)."""
    path = entry_file(folder)
    try:
        info = path.stat() if path is not None else None
    except OSError:
        return None
    return None if info is None else (info.st_ino, info.st_size, info.st_mtime_ns)


def load_entry(folder: Path) -> dict[str, Any] | None:
    """The cached entry of this campaign, or None: missing, corrupt, another format or
    another folder's. Its blobs are under "blobs", as the lines of text they were written
    as (parsed where the state refers to them)."""
    path = entry_file(folder)
    if path is None:
        return None
    try:
        data = path.read_bytes()
        head, _, rest = data.partition(b"\n")
        if head != _sum(rest):
            return None
        body, *blobs = rest.split(b"\n")
        entry = json.loads(body)
    except (OSError, ValueError, RecursionError):
        return None
    if not isinstance(entry, dict) or entry.get("format") != FORMAT or entry.get("folder") != str(folder.resolve()):
        return None
    entry["blobs"] = blobs
    return entry


def save_entry(folder: Path, entry: dict[str, Any], blobs: list[Any] | None = None) -> list[bytes]:
    """Write the entry atomically (a temporary file, then a rename), each blob on a line
    after it: text kept from a read as it is, any other value as JSON. The blobs' lines."""
    entry = {**entry, "format": FORMAT, "folder": str(folder.resolve())}
    texts = [blob if isinstance(blob, bytes) else _json(blob) for blob in blobs or []]
    rest = b"\n".join([_json(entry), *texts])
    path = entry_file(folder)
    if path is not None:
        with suppress(OSError):
            _replace(path, _sum(rest) + b"\n" + rest)
    return texts


def _json(value: Any) -> bytes:
    """One line of compact JSON (a newline inside a string is written escaped)."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode()


def _replace(target: Path, data: bytes) -> None:
    """An entry replaced whole, not synced: a cache lost in a crash is only rebuilt."""
    target.parent.mkdir(parents=True, exist_ok=True)
    replace_whole(target, data, sync=False)


Extent = tuple[int, int]  # lines, bytes
CHUNK = 4096  # rows a line: one JSON encoding and one checksum for many rows


def _lines(rows: list[Any]) -> bytes:
    out = []
    for start in range(0, len(rows), CHUNK):
        body = json.dumps(rows[start : start + CHUNK], separators=(",", ":"), ensure_ascii=False).encode()
        out.append(b"%08x %s\n" % (zlib.crc32(body), body))
    return b"".join(out)


def read_rows(path: Path | None, extent: Any) -> list[Any] | None:
    """The rows in the first `extent` of a rows file (lines of JSON lists, each line with
    its checksum), every line checked; None when any is wrong."""
    try:
        return [row for chunk in rows_in(path, extent) for row in chunk]
    except Broken:
        return None


class Broken(Exception):
    """A rows file that does not hold what its entry says (cut short, changed, corrupt)."""


def rows_in(path: Path | None, extent: Any) -> Iterator[list[Any]]:
    """The rows in the first `extent` of a rows file, a line (up to CHUNK rows) at a time,
    each line checked as it is read: a long history is never held whole. Broken, possibly
    after some lines were given, when any line is wrong."""
    if not (isinstance(extent, list) and len(extent) == 2 and all(isinstance(n, int) for n in extent)):
        raise Broken("no extent")
    count, size = extent
    if path is None:
        raise Broken("no cache")
    try:
        handle = open(path, "rb")  # noqa: SIM115 (closed below, also when the reader stops early)
    except OSError:
        raise Broken("unreadable") from None
    with handle:
        lines = done = 0
        while done < size:
            line = handle.readline(size - done)
            done += len(line)
            crc, _, body = line.rstrip(b"\n").partition(b" ")
            if not line.endswith(b"\n") or len(crc) != 8 or crc != b"%08x" % zlib.crc32(body):
                raise Broken("a line is wrong")
            try:
                chunk = json.loads(body)
            except (ValueError, RecursionError):
                raise Broken("not JSON") from None
            if not isinstance(chunk, list):
                raise Broken("not a list")
            lines += 1
            if lines > count:
                raise Broken("too many lines")
            yield chunk
        if lines != count:
            raise Broken("too few lines")


def write_rows(path: Path | None, rows: list[Any], after: Extent | None = None) -> Extent | None:
    """Write the rows (a new file), or append them after `after` (the file's rows so far,
    cut back to that extent first). The new extent, or None when it cannot be written."""
    if path is None:
        return None
    data = _lines(rows)
    lines = data.count(b"\n")
    try:
        if after is None:
            _replace(path, data)
            return (lines, len(data))
        count, size = after
        with open(path, "r+b") as handle:
            handle.truncate(size)
            handle.seek(size)
            handle.write(data)
        return (count + lines, size + len(data))
    except OSError:
        return None


class RowsWriter:
    """Rows written as they are made, a line of CHUNK rows at a time, into a file of this
    command's own beside the rows file (a long history is never held whole); `keep` puts
    it in place. A file that cannot be written is simply no cache."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.temp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
        self.rows: list[Any] = []
        self.extent: Extent | None = (0, 0)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            self.handle: Any = open(self.temp, "wb")  # noqa: SIM115 (closed by keep or discard)
        except OSError:
            self.handle, self.extent = None, None

    def add(self, row: Any) -> None:
        self.rows.append(row)
        if len(self.rows) >= CHUNK:
            self._flush()

    def _flush(self) -> None:
        rows, self.rows = self.rows, []
        if self.handle is None or self.extent is None:
            return
        data = _lines(rows)
        try:
            self.handle.write(data)
        except OSError:
            self.extent = None
            return
        self.extent = (self.extent[0] + data.count(b"\n"), self.extent[1] + len(data))

    def keep(self) -> Extent | None:
        """Put the rows in place of the rows file: their extent, or None when they could
        not be written."""
        self._flush()
        extent = self.extent
        try:
            if self.handle is None or extent is None:
                return None
            self.handle.close()
            os.replace(self.temp, self.path)
            return extent
        except OSError:
            return None
        finally:
            self.discard()

    def discard(self) -> None:
        """Throw the rows away (also what `keep` leaves behind)."""
        if self.handle is not None:
            self.handle.close()
            self.handle = None
        with suppress(OSError):
            self.temp.unlink(missing_ok=True)


def rows_writer(folder: Path, kind: str) -> RowsWriter | None:
    """A writer of the campaign's rows of this kind, or None when there is no cache."""
    path = rows_file(folder, kind)
    return None if path is None else RowsWriter(path)


@contextmanager
def writing(folder: Path) -> Iterator[bool]:
    """Hold the campaign's cache-writing lock, without waiting: True when held. A cache
    another command is writing now is simply not written by this one."""
    from filelock import FileLock, Timeout

    entry = entry_file(folder)
    if entry is None:
        yield False
        return
    try:
        path = entry.with_suffix(".lock")
        path.parent.mkdir(parents=True, exist_ok=True)
        lock = FileLock(path, timeout=0)
        lock.acquire()
    except (OSError, Timeout):
        yield False
        return
    try:
        yield True
    finally:
        lock.release()
