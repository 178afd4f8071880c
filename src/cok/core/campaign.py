"""Opening a campaign: the ONE path from a campaign folder to its state.

Every command comes here. It recovers an append a kill interrupted, reads the three
files once, and decides: the cache still fits their content (reuse), the log only grew
(replay the new events on the cached state), or anything else (replay everything). The
cache is keyed by the digests of the very bytes that were read — never by sizes or
modification times — so a same-size edit, a restored mtime or a re-pointed symlink is
seen, and what was replayed is what was hashed. Replaying is `core.replay`'s; keeping
the campaign in the cache, `core.store`'s.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cok.core import cache
from cok.core import ruleset as registry
from cok.core.append import Stamp, recover_if_needed, stamp, torn_at
from cok.core.errors import Problem, Refused, display_path
from cok.core.folders import EVENTS_FILE, MAX_BYTES, SETTINGS_FILE, read_bytes, refuse_dangling_link
from cok.core.position import Position, digest, running
from cok.core.replay import Files, Setup, read_entries, replay, set_up, streamed
from cok.core.store import bulk, history_rows, id_rows, told_of

if TYPE_CHECKING:
    from hashlib import _Hash

    from cok.core.events import Void
    from cok.core.fold import Folded
    from cok.core.history import Told
    from cok.core.plain import Kept
    from cok.core.ruleset import Ruleset


@dataclass(frozen=True)
class Unchanged:
    """The log read again, found to be what the campaign was made from: its running digest
    (extended by what is appended), and which of the texts looked for in it were found."""

    hashed: _Hash
    looked_for: frozenset[bytes]
    found: frozenset[bytes]

    def mentions(self, text: bytes) -> bool | None:
        """Whether the log holds this text; None when it was not looked for."""
        return (text in self.found) if text in self.looked_for else None


class Ids(Mapping[str, int]):
    """Every event id with its line: those read (a dict never changed once here) and those
    this process appended since, so that the campaign a recording makes (`succeeded`)
    copies only the latter, not 100,000 ids (copying and freeing them was most of what a
    recording and the next page cost beyond a small campaign's). Past `FOLDED` appended,
    a successor takes them all into a new dict of its own."""

    FOLDED = 4096
    __slots__ = ("_appended", "_read")

    def __init__(self, read: Mapping[str, int], appended: dict[str, int] | None = None) -> None:
        self._read = read
        self._appended = {} if appended is None else appended

    def __getitem__(self, key: str) -> int:
        found = self._appended.get(key)
        return self._read[key] if found is None else found

    def __contains__(self, key: object) -> bool:
        return key in self._appended or key in self._read

    def __iter__(self) -> Iterator[str]:
        yield from self._read
        yield from (k for k in self._appended if k not in self._read)

    def __len__(self) -> int:
        return len(self._read) + sum(1 for k in self._appended if k not in self._read)

    def add(self, key: str, line: int) -> None:
        self._appended[key] = line

    def successor(self) -> Ids:
        """The same ids, for a campaign of its own to add to (this one never sees them)."""
        if len(self._appended) >= self.FOLDED:
            return Ids({**self._read, **self._appended})
        return Ids(self._read, dict(self._appended))


@dataclass
class Campaign:
    """A campaign's settings, state and log position, and the problems its files have."""

    folder: Path
    ruleset: Ruleset
    name: str
    map_file: Path
    state: Any
    position: Position
    digests: tuple[str, str]  # of campaign.yaml and of the map, as read
    problems: list[Problem] = field(default_factory=list)
    _ids: Ids | None = None
    _history: list[Told] | None = None
    _extents: dict[str, Any] = field(default_factory=dict)  # the cache's rows: kind -> extent
    _version: tuple[int, int, int] | None = None  # which write of the cache entry this came from
    _history_rows: cache.RowsWriter | None = None  # the history, written as it was replayed, not kept yet
    _kept: Kept | None = None  # what the cached state was decoded from: encoded again only where changed
    _hashed: _Hash | None = None  # the running digest of the log up to `position`, once this process appended
    _seal: Stamp | None = None  # the log as it was right after this process appended to it (see `grew`)
    _tail: bytes = b""  # and the bytes it appended
    _behind: bool = False  # the cache's rows hold recordings its entry (the state) does not yet
    # events replayed or recorded here past the cache's rows (`_extents`), not written there
    # yet (another command held or had changed the cache): told and counted from here
    _ids_after: Mapping[str, int] = field(default_factory=dict)
    _told_after: tuple[Told, ...] = ()
    _disputed: bool | None = None  # whether the log up to `position` holds DISPUTE (None: not known)

    @property
    def events_file(self) -> Path:
        return self.folder / EVENTS_FILE

    @property
    def shown(self) -> str:
        return display_path(self.events_file)

    def valid(self) -> Campaign:
        """The campaign, refusing to go on with an invalid one."""
        if self.problems:
            raise Refused(self.problems)
        return self

    def ids(self) -> Mapping[str, int]:
        """Every event id in the log, with its line."""
        if self._ids is None:
            rows = cache.read_rows(cache.rows_file(self.folder, "ids"), self._extents.get("ids"))
            if rows is not None and all(isinstance(r, list) and len(r) == 2 for r in rows):
                self._ids = Ids({**{str(i): int(line) for i, line in rows}, **self._ids_after})
            else:
                self._ids = Ids(_replayed(self.folder, read(self.folder)).ids())
        return self._ids

    def history(self) -> list[Told]:
        """Every event of the log in words, oldest first (`cok log`, the site)."""
        if self._history is None:
            self._history = list(self.told())  # the cache's rows, or a replay where they fail
        return self._history

    def told(self) -> Iterator[Told]:
        """Every event of the log in words, oldest first, as `history` but read from the cache
        a chunk at a time (`cok log` and the site of a long campaign never hold it whole).
        A cache that turns out wrong part way is replaced by a replay, from where it broke."""
        if self._history is not None:
            yield from self._history
            return
        given = 0
        try:
            for rows in cache.rows_in(cache.rows_file(self.folder, "history"), self._extents.get("history")):
                try:
                    chunk = [told_of(row) for row in rows]
                except (TypeError, ValueError):
                    raise cache.Broken("not a history row") from None
                yield from chunk
                given += len(chunk)
            yield from self._told_after
        except cache.Broken:
            self._history = _replayed(self.folder, read(self.folder)).history()
            yield from self._history[given:]

    def mentions_dispute(self) -> bool | None:
        """Whether the log's text holds `dispute` (docs/confirm.md: anything to mark), as known
        from the bytes this campaign was made from and kept in the cache with it (None: not
        known): a warm `cok standings` at 100,000 events no longer searches the 20 MB log."""
        return self._disputed

    def current(self) -> bool:
        """Whether the campaign's files still hold exactly what this campaign was made from."""
        return self.unchanged() is not None

    def unchanged(self, looking_for: Collection[bytes] = ()) -> Unchanged | None:
        """When the campaign's files still hold exactly what this campaign was made from,
        what recording needs to know of the log (see `Unchanged`), else None. A log this
        process appended to last is proved by its seal (`sealed`), without reading it; any
        other is read once, through a small buffer, hashed, and searched for the texts
        `looking_for` (fresh ids) on the way."""
        settings = read_bytes(self.folder / SETTINGS_FILE, "campaign settings")
        try:
            map_bytes = self.map_file.read_bytes()
        except OSError:
            map_bytes = b""
        if (digest(settings), digest(map_bytes)) != self.digests:
            return None
        if self._hashed is not None and self.sealed():
            ids = self.ids()  # fresh ids: none may be an event's already (kept up to date by recording)
            found = frozenset(text for text in looking_for if text.decode(errors="replace") in ids)
            return Unchanged(self._hashed.copy(), frozenset(looking_for), found)
        read = stream(self.events_file, self.position.size, looking_for)
        if read is None or read.rest or read.hashed.hexdigest() != self.position.digest:
            return None
        return Unchanged(read.hashed, frozenset(looking_for), read.found)

    def sealed(self) -> bool:
        """Whether the log is still exactly as this process left it when it last appended
        (under the lock): the same file (device, inode), size and times, and the bytes it
        appended still at its end. Any cok command that writes appends, so the size tells;
        a same-size edit changes the times, unless it falls within the clock tick of the
        append, and then it must also leave the appended bytes as they were."""
        if self._seal is None or torn_at(self.events_file) is not None or stamp(self.events_file) != self._seal:
            return False
        try:
            with open(self.events_file, "rb") as handle:
                handle.seek(self.position.size - len(self._tail))
                return handle.read(len(self._tail) + 1) == self._tail
        except OSError:
            return False

    def grew(self, appended: bytes, hashed: _Hash) -> None:
        """Call under the lock, right after appending `appended` to the log whose running
        digest was `hashed` (left as it is): the new position, from those bytes alone, and
        the seal that lets the next recording prove the log unchanged without reading it."""
        self.position = self.position.after(appended, hashed)
        if self._disputed is not None:
            self._disputed = self._disputed or DISPUTE in appended
        self._hashed = hashed.copy()
        self._hashed.update(appended)
        self._seal, self._tail = stamp(self.events_file), appended

    def reread(self, data: bytes) -> None:
        """Call under the lock, once the log was rewritten (an empty `[]` became a block
        list) and read again whole as `data`: its position and seal."""
        column = self.position.item_column if self.position.empty_flow is None else 0
        self.position = Position.of(data, column)
        self._disputed = DISPUTE in data
        self._hashed = running(data)
        self._seal, self._tail = stamp(self.events_file), b""

    def added(self, event_id: str, line: int, told: Told) -> None:
        """An event this process just appended on `line`: its id and its words, added to
        those held in memory (those read from the cache's rows get it from there)."""
        if self._ids is not None:
            self._ids.add(event_id, line)
        if self._history is not None:
            self._history.append(told)

    def forget_rows(self) -> None:
        """The ids and the history are read again when next asked: an append changed more
        than one line's worth of them (a void changes the past): from a replay, never from
        the cache's rows as they were (they are rewritten)."""
        self._ids = self._history = None
        self._extents, self._ids_after, self._told_after = {}, {}, ()

    def rows_current(self) -> bool:
        """Whether the ids and history are whole: held in memory, or in the cache as this
        campaign last wrote it (another command writing it since leaves rows that lack
        this campaign's last events)."""
        if self._ids is not None and self._history is not None:
            return True
        return self._version is not None and cache.entry_version(self.folder) == self._version

    def succeeded(self, state: Any) -> Campaign:
        """The campaign that follows this one once an append gave it `state`: a new object
        whose position, ids and history the ledger then brings up to date, while this one
        (a page drawing from it in another thread) is never changed. The ids this process
        appended and the history held in memory are copied (the ids read are shared: `Ids`);
        the state is the rules' copy."""
        return replace(
            self,
            state=state,
            _ids=None if self._ids is None else self._ids.successor(),
            _history=None if self._history is None else list(self._history),
            _extents=dict(self._extents),
        )

    def become(self, other: Campaign) -> None:
        """Be `other` (the campaign as its files are), in place: whoever holds this one (a
        long-lived process) sees it."""
        for name in (f.name for f in fields(Campaign)):
            setattr(self, name, getattr(other, name))

    def save(
        self,
        *,
        new_ids: dict[str, int] | None = None,
        new_history: list[Told] | None = None,
        grown: bool = False,
        state: bool = True,
    ) -> None:
        """Keep the campaign in the cache (see `save_campaign`)."""
        save_campaign(self, new_ids=new_ids, new_history=new_history, grown=grown, state=state)

    def save_state(self) -> None:
        """Write the state that recordings held back (`save(state=False)`) to the cache."""
        if self._behind:
            save_campaign(self, grown=True)

    def require(self, ruleset_id: str, how: str) -> Campaign:
        """Refuse a command of another game: `how` says how this campaign's commands start."""
        if self.ruleset.id != ruleset_id:
            raise Refused(
                Problem(
                    display_path(self.folder / SETTINGS_FILE),
                    None,
                    f"this campaign plays {self.ruleset.title} ({self.ruleset.id}), not {ruleset_id}; "
                    + (f"its commands are `cok {group} …`" if (group := self.ruleset.command) else how),
                )
            )
        return self


def read(folder: Path, map_file: Path | None = None) -> Files:
    """Read the settings, the map (when its path is known) and the log, once each."""
    settings = read_bytes(folder / SETTINGS_FILE, "campaign settings")
    try:
        map_bytes = map_file.read_bytes() if map_file is not None else b""
    except OSError:
        map_bytes = b""
    events_file = folder / EVENTS_FILE
    refuse_dangling_link(events_file, "the event log")
    events = read_bytes(events_file, "event log") if events_file.exists() else b""
    cut = torn_at(events_file)  # an interrupted append that could not be cut: read around it
    return Files(settings, map_bytes, events if cut is None else events[:cut])


@dataclass(frozen=True)
class Streamed:
    """The log read once through a small buffer (see `stream`)."""

    hashed: _Hash  # the running digest of the first bytes asked for
    last: bytes  # the last of those bytes (b"" when none)
    rest: bytes  # everything after them
    found: frozenset[bytes]  # the texts looked for that are among those first bytes


#: What a log that may need its results marked holds (`Campaign.mentions_dispute`): the
#: word of the core's `dispute` event (docs/confirm.md), wherever it appears.
DISPUTE = b"dispute"

CHUNK = 1 << 18  # bytes read at a time: a long log is hashed without a buffer its size


def stream(path: Path, size: int, looking_for: Collection[bytes] = ()) -> Streamed | None:
    """The log's first `size` bytes hashed (and searched for the texts `looking_for`) as
    they are read, a chunk at a time, and the bytes after them; an interrupted append that
    could not be cut is read around. A missing log is empty. None when the log is not a
    regular file of at most MAX_BYTES, or cannot be read: `read` then says why."""
    try:
        info = path.stat()
    except FileNotFoundError:  # no log yet is an empty one; a link to nothing is refused by `read`
        return None if path.is_symlink() else Streamed(running(b""), b"", b"", frozenset())
    except OSError:
        return None
    if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_BYTES:
        return None
    cut = torn_at(path)
    hashed, last = running(b""), b""
    found: set[bytes] = set()
    width = max(map(len, looking_for), default=1) - 1  # an occurrence across two chunks
    carry = b""
    buffer = bytearray(CHUNK)
    view = memoryview(buffer)
    try:
        with open(path, "rb") as handle:
            left = size if cut is None else min(size, cut)
            while left and (count := handle.readinto(view[: min(left, CHUNK)])):
                hashed.update(view[:count])
                last, left = bytes(view[count - 1 : count]), left - count
                edge = carry + view[: min(count, width)]  # where a text may run across two chunks
                found.update(t for t in looking_for if buffer.find(t, 0, count) >= 0 or t in edge)
                if width:  # the last bytes read, for the next chunk's edge
                    carry = (carry + view[max(0, count - width) : count])[-width:]
            rest = handle.read(max(0, MAX_BYTES + 1 - size if cut is None else cut - size))
    except OSError:
        return None
    if size + len(rest) > MAX_BYTES:
        return None
    return Streamed(hashed, last, rest, frozenset(found))


def open_campaign(folder: Path, *, use_cache: bool = True) -> Campaign:
    """The campaign in `folder`, from the cache when it still fits the files' content, else
    by replaying what it must. Problems in the log are kept on the campaign (for `check`);
    settings and map problems are refused at once."""
    use_cache = use_cache and not os.environ.get("COK_NO_CACHE")
    recover_if_needed(folder / EVENTS_FILE)
    if use_cache:
        version = cache.entry_version(folder)  # before reading: a write after it is seen
        with bulk():
            entry = cache.load_entry(folder)
            found = None if entry is None else _reuse(folder, entry, version)
        if found is not None:
            return found
    files = read(folder)
    with bulk():
        writer = cache.rows_writer(folder, "history") if use_cache else None
        try:
            campaign = _replayed(folder, files, telling=use_cache, history_to=writer)
            if use_cache:
                campaign.save()
        finally:
            if writer is not None:
                writer.discard()  # unless kept
    return campaign


def _reuse(folder: Path, entry: dict[str, Any], version: tuple[int, int, int] | None) -> Campaign | None:
    """The cached campaign when the settings and map are unchanged and the log is the same
    or only grew (then its new events are replayed); None when anything else changed. The
    log is read through a small buffer: only what was appended since is ever held."""
    from cok.core.plain import Decoder, Kept, Unreadable

    settings = read_bytes(folder / SETTINGS_FILE, "campaign settings")
    try:
        if entry["ruleset"] not in registry.known() or entry["settings"] != digest(settings):
            return None
        map_file = Path(entry["map_file"])
        map_bytes = map_file.read_bytes()
        if digest(map_bytes) != entry["map"]:
            return None
        log = entry["log"]
        flow = log["empty_flow"]
        position = Position(
            str(log["digest"]),
            int(log["size"]),
            int(log["lines"]),
            int(log["item_column"]),
            None if flow is None else (int(flow[0]), int(flow[1])),
        )
        read = stream(folder / EVENTS_FILE, position.size)
        if read is None or read.hashed.hexdigest() != position.digest:
            return None
        ruleset = registry.get(entry["ruleset"])
        kept = Kept()
        state = Decoder(ruleset.cached_types, kept, entry["blobs"])(entry["state"])
        extents = {kind: entry[kind] for kind in ("ids", "history")}
        campaign = Campaign(
            folder, ruleset, str(entry["name"]), map_file, state, position, (entry["settings"], entry["map"])
        )
        campaign._extents = extents
        campaign._version = version
        campaign._kept = kept
        disputed = entry.get("disputed")
        campaign._disputed = disputed if isinstance(disputed, bool) else None
    except (KeyError, TypeError, ValueError, IndexError, OSError, Unreadable):
        return None
    if not read.rest:
        return campaign
    return _extend(campaign, read)


def _extend(campaign: Campaign, read: Streamed) -> Campaign | None:
    """Replay only what was appended since the cached position (`read.rest`); None when that
    is not plainly safe (a void, a problem, a different list layout): then everything is
    replayed."""
    from cok.core.events import Void
    from cok.core.fold import fold
    from cok.core.log import read_log
    from cok.core.yamlfile import decode

    old = campaign.position
    if old.empty_flow is not None or (old.size and read.last != b"\n"):
        return None
    tail = read.rest
    try:
        text = decode(tail, campaign.shown, "event log", old.lines + 1)
        log = read_log(tail, text, campaign.shown, campaign.ruleset, first_line=old.lines + 1)
    except Refused:
        return None
    if log.problems or (log.entries and log.position.item_column != old.item_column):
        return None
    if any(isinstance(entry.event, Void) or entry.event.id is None for entry in log.entries):
        return None  # a void changes the past; an event without id is named by its twins before it
    ids = campaign.ids()
    done = fold(campaign.ruleset, log.entries, campaign.state, campaign.shown, known=ids)
    if done.problems:
        return None
    campaign.position = old.after(tail, read.hashed)
    if campaign._disputed is not None:
        campaign._disputed = campaign._disputed or DISPUTE in tail
    campaign._ids = Ids({**ids, **done.ids})
    # told from memory until the cache's rows hold them: the cache may not be written now
    # (another command, a server's idle flush, holds or has just rewritten it)
    campaign._ids_after, campaign._told_after = dict(done.ids), tuple(done.history)
    campaign.save(grown=True)
    return campaign


def _replayed(
    folder: Path, files: Files, *, telling: bool = True, history_to: cache.RowsWriter | None = None
) -> Campaign:
    """The campaign replayed from these bytes (see `replay`)."""
    done = replay(folder, files, telling=telling, history_to=history_to)
    setup = done.setup
    campaign = Campaign(
        folder, setup.ruleset, setup.name, setup.map_file, done.state, done.position, setup.digests, done.problems
    )
    campaign._ids, campaign._history, campaign._history_rows = Ids(done.ids), done.history, done.history_rows
    campaign._disputed = DISPUTE in files.events
    return campaign


__all__ = ["Campaign", "Files", "Setup", "Unchanged", "open_campaign", "read", "read_entries", "set_up"]


def save_campaign(
    campaign: Campaign,
    *,
    new_ids: dict[str, int] | None = None,
    new_history: list[Told] | None = None,
    grown: bool = False,
    state: bool = True,
) -> None:
    """Keep the campaign in the cache (never one with problems). When the log only `grown`,
    only the new rows are appended — if the entry is still the write this campaign was read
    from (another command may have written since: then this one writes nothing). Without
    `state` (a long-lived process, after each recording), only the rows are: the entry, a
    pass over the whole state, is written later (`Campaign.save_state`). Meanwhile the entry
    says where the rows it knows end, and another command reading it replays the events
    after its position, as for any log that grew."""
    if campaign.problems:
        return
    from cok.core.plain import Blobs, encode

    folder = campaign.folder
    if grown:  # the rows not written yet, these included: kept (and told) until they are
        campaign._ids_after = {**campaign._ids_after, **(new_ids or {})}
        campaign._told_after = (*campaign._told_after, *(new_history or []))
    with cache.writing(folder) as held:
        if not held:
            return
        extents: dict[str, Any] = {}
        if grown:  # only if the entry is still the one this campaign was read from
            if campaign._version is None or cache.entry_version(folder) != campaign._version:
                return
            for kind, rows in (
                ("ids", id_rows(campaign._ids_after)),
                ("history", history_rows(list(campaign._told_after))),
            ):
                old = campaign._extents.get(kind)
                if old is None:
                    return
                extents[kind] = cache.write_rows(cache.rows_file(folder, kind), rows, (old[0], old[1]))
        else:
            if campaign._ids is None or (campaign._history is None and campaign._history_rows is None):
                return
            extents["ids"] = cache.write_rows(cache.rows_file(folder, "ids"), id_rows(campaign._ids))
            if campaign._history_rows is not None:
                extents["history"] = campaign._history_rows.keep()
                campaign._history_rows = None
            else:
                assert campaign._history is not None
                extents["history"] = cache.write_rows(
                    cache.rows_file(folder, "history"), history_rows(campaign._history)
                )
        if any(extent is None for extent in extents.values()):
            return
        campaign._extents = {kind: list(extent) for kind, extent in extents.items()}
        campaign._ids_after, campaign._told_after = {}, ()  # the rows hold them now
        campaign._behind = not state
        if not state:
            return
        position = campaign.position
        blobs = Blobs()
        try:
            with bulk():
                state = encode(campaign.state, campaign._kept, blobs)
        except TypeError:
            return
        texts = cache.save_entry(
            folder,
            {
                "ruleset": campaign.ruleset.id,
                "name": campaign.name,
                "settings": campaign.digests[0],
                "map_file": str(campaign.map_file),
                "map": campaign.digests[1],
                "log": {
                    "digest": position.digest,
                    "size": position.size,
                    "lines": position.lines,
                    "item_column": position.item_column,
                    "empty_flow": position.empty_flow,
                },
                "disputed": campaign._disputed,
                "state": state,
                **campaign._extents,
            },
            blobs,
        )
        campaign._version = cache.entry_version(folder)
        campaign._kept = blobs.kept_after(texts)  # a state kept warm is written again only where it changed


def replayed_without(folder: Path, voids: Sequence[Void]) -> Folded:
    """The campaign's log replayed from its files with `voids` appended, as a void is
    decided (a full pass: a void changes the past), without the history in words, each event
    applied as it is read (`core.replay.streamed`): at 100,000 events the log held whole was
    ~230 MB on top of the state a server keeps."""
    return streamed(folder, read(folder), telling=False, voids=voids)[2]
