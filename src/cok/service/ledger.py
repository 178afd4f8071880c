"""One campaign folder kept warm for a long-lived process (the server): its state is reused
only while its files are provably unchanged, and never holds what was not written."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cok.core.folders import EVENTS_FILE, SETTINGS_FILE
from cok.service.drafts import Draft, Who
from cok.service.recording import Recording, record

if TYPE_CHECKING:
    from cok.core.campaign import Campaign
    from cok.core.dice import Dice

#: A file as the operating system last saw it: device, inode, size, modification and change
#: times in nanoseconds. The change time moves on every write and cannot be set back.
Seen = tuple[int, int, int, int, int] | None


def _seen(path: Path) -> Seen:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)


class Ledger:
    """One campaign folder kept warm. Reading (`campaign()`) reuses the state while the
    three files are as the operating system last saw them when their content was proved the
    campaign's (its digests, `Campaign.unchanged`); anything else is proved again or the
    campaign reopened (from the cache). Recording goes through the core's ledger, which
    proves the content again under the lock. Thread-safe: one call at a time per folder."""

    def __init__(self, folder: Path | str, *, use_cache: bool = True, dice: Dice | None = None) -> None:
        self.folder = Path(folder)
        self.use_cache = use_cache
        self.dice = dice
        self._lock = threading.RLock()
        self._campaign: Campaign | None = None
        self._seen: tuple[Seen, ...] = ()

    def _stamps(self, campaign: Campaign) -> tuple[Seen, ...]:
        return (
            _seen(self.folder / SETTINGS_FILE),
            _seen(campaign.map_file),
            _seen(self.folder / EVENTS_FILE),
        )

    def campaign(self) -> Campaign:
        """The campaign as its files are now: the warm one while they are unchanged."""
        from cok.core.campaign import open_campaign

        with self._lock:
            warm = self._campaign
            if warm is not None:
                stamps = self._stamps(warm)  # before reading: a change after it is seen next time
                if stamps == self._seen and None not in stamps:
                    return warm
                if warm.current():  # touched, not changed: proved by content
                    self._seen = stamps
                    return warm
            stamps = self._stamps_of_folder()
            opened = open_campaign(self.folder, use_cache=self.use_cache)
            self._campaign, self._seen = opened, stamps if stamps[1:2] == (_seen(opened.map_file),) else ()
            return opened

    def _stamps_of_folder(self) -> tuple[Seen, ...]:
        """The files' stamps before a campaign is opened (its map is the one it had, if any)."""
        warm = self._campaign
        map_file = warm.map_file if warm is not None else None
        return (
            _seen(self.folder / SETTINGS_FILE),
            _seen(map_file) if map_file is not None else None,
            _seen(self.folder / EVENTS_FILE),
        )

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
        after: Callable[[Recording], None] | None = None,
    ) -> Recording:
        """`service.record` on the warm campaign; the campaign it leaves is kept warm. A dry
        run or a refusal leaves the warm campaign as it was (the core's ledger decides a dry
        run on a copy, and puts a batch refused half-way back)."""
        with self._lock:
            campaign = self.campaign()
            seen: list[tuple[Seen, ...]] = []

            def written(recording: Recording) -> None:  # under the campaign's lock: no cok writes now
                seen.append(self._stamps(recording.campaign))
                if after is not None:
                    after(recording)

            done = record(
                self.folder,
                drafts,
                by=by,
                answers=answers,
                dry_run=dry_run,
                again=again,
                after=written,
                dice=self.dice,
                use_cache=self.use_cache,
                campaign=campaign,
            )
            if done.written:
                self._campaign, self._seen = done.campaign, seen[0] if seen else ()
            return done
