"""One campaign folder kept warm for a long-lived process (the server): its state is reused
only while its files are provably unchanged, and never holds what was not written."""

from __future__ import annotations

import threading
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cok.core.append import Stamp, stamp
from cok.core.folders import EVENTS_FILE, SETTINGS_FILE
from cok.service.drafts import Draft, Who
from cok.service.recording import Recording, record

if TYPE_CHECKING:
    from cok.core.campaign import Campaign
    from cok.core.dice import Dice
    from cok.core.ledger import Recorded
    from cok.service.followers import Followers

#: A file as the operating system last saw it (`stamp`). The change time moves on every
#: write and cannot be set back.
Seen = Stamp | None

#: File times may lag the clock by a tick of the kernel's coarse clock (a few ms): a stamp
#: taken less than this after the file last changed proves nothing (a write later in the
#: same tick would leave the same times), as git treats a "racily clean" file.
RACY_NS = 50_000_000

#: Seconds without a recording after which the warm state is written to the cache: each
#: recording appends only its rows there (the state of a long campaign is a pass over all of
#: it), and a command at a terminal meanwhile replays the few events the entry lacks.
IDLE = 1.0


def _trusted(stamps: tuple[Seen, ...], taken: int) -> bool:
    """Whether stamps taken at `taken` (ns) may stand for the files' content: every file
    seen, and each last changed well before the stamp was taken."""
    return all(s is not None and s[4] < taken - RACY_NS for s in stamps)


class Ledger:
    """One campaign folder kept warm. Reading (`campaign()`) reuses the state while the
    three files are as the operating system last saw them when their content was proved the
    campaign's (`Campaign.unchanged`), unless that was too soon after they changed (see
    RACY_NS); else their content is proved again (by the seal this process left on the log
    when it last appended, else by reading it) or the campaign reopened (from the cache).
    Recording goes through the core's ledger, which proves the content under the lock
    every time.
    Thread-safe: one call at a time per folder."""

    def __init__(
        self, folder: Path | str, *, use_cache: bool = True, dice: Dice | None = None, replace_state: bool = True
    ) -> None:
        """`replace_state`: a recording replaces the state, never changes it, so that a page
        drawn from it in another thread is safe; False when every reader holds `lock` while
        it reads (the state is then changed in place: cheaper, its cache entry is written
        again only where it changed)."""
        self.folder = Path(folder)
        self.use_cache = use_cache
        self.dice = dice
        self.replace_state = replace_state
        self._lock = threading.RLock()
        self._campaign: Campaign | None = None
        self._seen: tuple[Seen, ...] = ()
        self._seen_at = 0  # when the stamps were taken (ns)
        self._flush: threading.Timer | None = None

    def _stamps(self, map_file: Path | None) -> tuple[Seen, ...]:
        """The three files' stamps: the settings, the map (None when not known yet), the log."""
        return (
            stamp(self.folder / SETTINGS_FILE),
            stamp(map_file) if map_file is not None else None,
            stamp(self.folder / EVENTS_FILE),
        )

    def campaign(self) -> Campaign:
        """The campaign as its files are now: the warm one while they are unchanged."""
        from cok.core.campaign import open_campaign

        with self._lock:
            warm = self._campaign
            if warm is not None:
                taken, stamps = time.time_ns(), self._stamps(warm.map_file)  # before reading: a change after is seen
                if stamps == self._seen and _trusted(stamps, self._seen_at):
                    return warm
                if warm.current():  # touched, or too recent to tell: proved by content
                    self._seen, self._seen_at = stamps, taken
                    return warm
            # before opening: its map is the one it had, if any (the settings name it)
            taken, stamps = time.time_ns(), self._stamps(warm.map_file if warm is not None else None)
            opened = open_campaign(self.folder, use_cache=self.use_cache)
            self._campaign, self._seen_at = opened, taken
            self._seen = stamps if stamps[1:2] == (stamp(opened.map_file),) else ()
            return opened

    @property
    def lock(self) -> threading.RLock:
        """Held while recording: a reader that holds it sees no recording meanwhile."""
        return self._lock

    def forget(self) -> None:
        """Drop the warm campaign: the next call reopens it."""
        with self._lock:
            self._campaign = None
            self._seen = ()

    def record(
        self,
        drafts: Sequence[Draft],
        *,
        by: Who | str | None,
        answers: Mapping[str, Any] | None = None,
        dry_run: bool = False,
        again: bool = False,
        followers: Followers | None = None,
    ) -> Recording:
        """`service.record` on the warm campaign, its changes handed to `followers`; the
        campaign it leaves is kept warm. A dry run or a refusal leaves the warm campaign as
        it was (the core's ledger decides a dry run on a copy, and puts a batch refused
        half-way back)."""
        with self._lock:
            # the files as they are now (a few `stat` calls): what is decided before the lock (a
            # period a terminal ended, whose seed is revealed first) is decided on the current
            # state; the core's ledger proves it again under the lock
            campaign = self.campaign()
            seen: list[tuple[Seen, ...]] = []

            def written(done: list[Recorded]) -> None:  # under the campaign's lock: no cok writes now
                taken = time.time_ns()
                seen[:] = [self._stamps(done[0].campaign.map_file)]  # the last change's (a commitment first)
                self._seen_at = taken

            done = record(
                self.folder,
                drafts,
                by=by,
                answers=answers,
                dry_run=dry_run,
                again=again,
                followers=followers,
                under_lock=written,
                dice=self.dice,
                use_cache=self.use_cache,
                campaign=campaign,
                shared=self.replace_state,  # a page may be reading the state: replaced, never changed
                state_later=True,
            )
            if done.written:
                kept = done.campaign.rows_current()
                self._campaign, self._seen = (done.campaign, seen[0] if seen else ()) if kept else (None, ())
                self._save_when_idle()
            return done

    def _save_when_idle(self) -> None:
        if self._flush is not None:
            self._flush.cancel()
        self._flush = threading.Timer(IDLE, self.save)
        self._flush.daemon = True
        self._flush.start()

    def save(self) -> None:
        """Write the warm state to the cache, where recordings held it back (see IDLE)."""
        with self._lock:
            if self._campaign is not None:
                self._campaign.save_state()

    def close(self) -> None:
        """The process stops: the idle timer stopped, and the warm state written now."""
        with self._lock:
            flush, self._flush = self._flush, None
        if flush is not None:
            flush.cancel()
            self.save()
