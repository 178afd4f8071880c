"""The replay cache: the replayed state of a campaign, kept outside the campaign folder.

A snapshot is keyed by the campaign's three files (size, modification time, inode) and by
a digest of the log. Unchanged files: the state is read back, without parsing anything.
A log that only grew (the digest of its old bytes still matches): only the new events
are replayed. Anything else — a missing, stale, corrupt or foreign cache, a new void —
means a full replay. The cache may make `cok` faster, never different.

This module imports nothing heavy at load time: a warm command never imports pydantic,
PyYAML or the event models.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import sys
from dataclasses import dataclass, field, fields
from pathlib import Path

from cok import __version__
from cok.errors import Problem
from cok.folders import EVENTS_FILE, SETTINGS_FILE
from cok.geography import Geography, Location, Route
from cok.rules.state import Player, Record, Settings, State

Stamp = tuple[int, int, int]


def stamp(path: Path) -> Stamp | None:
    """What identifies a file's content cheaply: size, modification time, inode."""
    try:
        st = path.stat()
    except OSError:
        return None
    return (st.st_size, st.st_mtime_ns, st.st_ino)


def digest(data: bytes) -> str:
    return hashlib.blake2b(data, digest_size=20).hexdigest()


@dataclass
class Snapshot:
    """A campaign's state after its whole log, and what it takes to replay further."""

    folder: str
    name: str
    map_path: str
    settings_stamp: Stamp | None
    map_stamp: Stamp | None
    events_stamp: Stamp | None
    events_digest: str
    events_size: int
    events_lines: int
    item_column: int
    empty_flow: tuple[int, int] | None
    state: State
    problems: list[Problem]
    ids: dict[str, int] | None = field(default_factory=dict)  # event id -> line; None: not read yet
    format: str = ""

    @property
    def path(self) -> Path:
        return Path(self.folder)

    @property
    def events_path(self) -> Path:
        return self.path / EVENTS_FILE

    def id_index(self) -> dict[str, int] | None:
        """Every event id in the log and its line; kept in a file of its own, read only by
        the commands that need it (recording, replaying new events). None: not available."""
        if self.ids is None:
            try:
                with open(cache_file(self.path).with_suffix(".ids"), "rb") as handle:
                    tag, ids = pickle.load(handle)
            except Exception:  # missing or corrupt: the caller replays in full
                return None
            if tag != self.events_digest or not isinstance(ids, dict):
                return None
            self.ids = ids
        return self.ids

    def fresh(self) -> bool:
        """Whether the campaign's files are still exactly the ones this snapshot replayed."""
        return (
            stamp(self.path / SETTINGS_FILE) == self.settings_stamp
            and stamp(Path(self.map_path)) == self.map_stamp
            and stamp(self.events_path) == self.events_stamp
        )


def _shape(*classes: type) -> str:
    """The field names of the pickled classes: a snapshot of another shape is not read back."""
    return ";".join(",".join(f.name for f in fields(cls)) for cls in classes)


FORMAT = f"cok-snapshot {__version__} {sys.version_info[:2]} " + digest(
    _shape(Snapshot, State, Player, Record, Settings, Geography, Location, Route).encode()
)


def cache_dir() -> Path:
    """$COK_CACHE_DIR, else the user's cache folder (platformdirs)."""
    given = os.environ.get("COK_CACHE_DIR")
    if given:
        return Path(given)
    from platformdirs import user_cache_dir

    return Path(user_cache_dir("cok", appauthor=False))


def cache_file(folder: Path) -> Path:
    key = hashlib.blake2b(str(folder.resolve()).encode(), digest_size=12).hexdigest()
    return cache_dir() / f"{key}.snapshot"


def load(folder: Path) -> Snapshot | None:
    """The cached snapshot of this campaign, or None (missing, corrupt, foreign, old format)."""
    try:
        with open(cache_file(folder), "rb") as handle:
            found = pickle.load(handle)
    except Exception:  # a cache can be corrupt in any way at all: then there is none
        return None
    if not isinstance(found, Snapshot) or found.format != FORMAT or found.folder != str(folder.resolve()):
        return None
    return found


def save(snapshot: Snapshot) -> None:
    """Write the snapshot atomically (its id index to a file of its own, which a warm read
    never opens); a cache that cannot be written is simply not used."""
    ids = snapshot.id_index()
    if ids is None:
        return
    snapshot.format = FORMAT
    target = cache_file(snapshot.path)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        _write(target.with_suffix(".ids"), (snapshot.events_digest, ids))
        snapshot.ids = None
        try:
            _write(target, snapshot)
        finally:
            snapshot.ids = ids
    except OSError:
        pass


def _write(target: Path, value: object) -> None:
    temp = target.with_name(f"{target.name}.{os.getpid()}.tmp")
    with open(temp, "wb") as handle:
        pickle.dump(value, handle, protocol=pickle.HIGHEST_PROTOCOL)
    os.replace(temp, target)


def open_snapshot(folder: Path, use_cache: bool = True) -> Snapshot:
    """The campaign's replayed state: from the cache when its files are unchanged, by
    replaying only the new events when the log only grew, else by a full replay."""
    use_cache = use_cache and not os.environ.get("COK_NO_CACHE")
    if use_cache:
        cached = load(folder)
        if cached is not None and not cached.problems:
            if cached.fresh():
                return cached
            grown = _extend(cached)
            if grown is not None:
                if not grown.problems:
                    save(grown)
                return grown
    snapshot = replay_all(folder)
    if use_cache and not snapshot.problems:
        save(snapshot)
    return snapshot


def replay_all(folder: Path) -> Snapshot:
    """Load and replay everything (problems are kept, for `check`, not raised)."""
    from cok.campaign import load_campaign

    settings_stamp = stamp(folder / SETTINGS_FILE)
    events_stamp = stamp(folder / EVENTS_FILE)  # taken before reading: a later change shows
    campaign = load_campaign(folder)
    map_stamp = stamp(campaign.map_path)
    done = campaign.replay(history=False)
    raw = campaign.log.raw
    return Snapshot(
        folder=str(folder.resolve()),
        name=campaign.spec.name,
        map_path=str(campaign.map_path.resolve()),
        settings_stamp=settings_stamp,
        map_stamp=map_stamp,
        events_stamp=events_stamp,
        events_digest=digest(raw),
        events_size=len(raw),
        events_lines=raw.count(b"\n"),
        item_column=campaign.log.item_column,
        empty_flow=campaign.log.empty_flow,
        state=done.state,
        problems=done.problems,
        ids={r.event.id: r.line or 0 for r in campaign.log.records if r.event.id},
    )


def _extend(snapshot: Snapshot) -> Snapshot | None:
    """Replay only what was appended since the snapshot; None when that is not safe."""
    from cok.errors import Refused, display_path
    from cok.eventlog import Recorded, parse_event
    from cok.events import Void
    from cok.replay import replay
    from cok.rules.apply import apply
    from cok.yamlfile import YamlList, parse

    path = snapshot.events_path
    ids = snapshot.id_index()
    if (
        ids is None
        or snapshot.empty_flow is not None
        or stamp(snapshot.path / SETTINGS_FILE) != snapshot.settings_stamp
    ):
        return None
    if stamp(Path(snapshot.map_path)) != snapshot.map_stamp:
        return None
    new_stamp = stamp(path)
    try:
        data = path.read_bytes()
        size = snapshot.events_size
        if len(data) < size or (size and data[size - 1 : size] != b"\n"):
            return None
        if digest(data[:size]) != snapshot.events_digest:
            return None
        items = parse(data[size:].decode("utf-8"), display_path(path))
    except (OSError, UnicodeDecodeError, Refused):
        return None
    if items is not None and (not isinstance(items, YamlList) or items.flow or items.column != snapshot.item_column):
        return None
    records = []
    for item, line in zip(items or [], (items.item_lines if items else []), strict=True):
        event, _ = parse_event(item)
        if event is None or isinstance(event, Void) or (event.id is not None and event.id in ids):
            return None  # a full replay reports it properly, or voids what it must
        records.append(Recorded(event, line + snapshot.events_lines))
    done = replay(records, snapshot.state, apply, display_path(path), history=False)
    snapshot.problems = done.problems
    ids.update({r.event.id: r.line or 0 for r in records if r.event.id})
    snapshot.events_stamp = new_stamp
    snapshot.events_digest = digest(data)
    snapshot.events_size = len(data)
    snapshot.events_lines = data.count(b"\n")
    return snapshot
