"""A campaign served: the service's `Ledger` kept warm in the process, and every call
the server makes to the service layer (nothing else in the server imports it).

A read looks at the campaign's files' sizes and times (a few `stat` calls, whatever the log's
length): while they are the same, the campaign, its standings and the pages already made are
reused, so that a page of a 100,000-event campaign costs what a small one's does. When they
change (a recording here, or `cok` at a terminal), the Ledger gives the current campaign and
the pages are made again as they are asked for. A page waits at most for its own version's
lock (what is made of one version is made once); a recording takes the ledger's lock for its
append alone, and its followers (the chat's outbox, the git commit, the push) run after it, a
commit and a push in the service's ordered worker: no page ever waits for git. Every call may
still block on a lock: the routes run these in a thread pool, never on the event loop.
"""

from __future__ import annotations

import datetime as dt
import json
import threading
from collections import deque
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from cok.core.append import Stamp, stamp
from cok.core.campaign import Campaign
from cok.core.deadlines import Due
from cok.core.errors import Problem, Refused, RuleError
from cok.core.history import Told
from cok.service import Asked, Draft, Ledger, Question, Recording, Who, confirming, deadlines, queries
from cok.service import voiding as voids
from cok.service.deadlines import Schedule
from cok.service.dice import Committed
from cok.service.followers import NO_BACKUP, Backup, Followers, Trouble
from cok.service.recording import Refusal
from cok.service.voiding import Put, Takes

__all__ = [
    "NO_BACKUP",
    "Asked",
    "Backup",
    "Committed",
    "Draft",
    "Question",
    "Recording",
    "Refusal",
    "Refused",
    "Takes",
    "Trouble",
    "Version",
    "WarmCampaign",
    "Who",
]

#: The pages kept per version of the campaign, in characters: a 100,000-event campaign's site
#: fits; past it, a page is made again each time it is asked for.
PAGE_BUDGET = 48_000_000
#: The latest events shown with who recorded them.
ACTIVITY = 50

Signature = tuple[Stamp | None, ...]


class Version:
    """One version of the campaign (its files as they were when opened) and what was made of
    it: the standings, the latest events, the site's pages."""

    def __init__(self, signature: Signature, campaign: Campaign) -> None:
        self.signature = signature
        self.campaign = campaign
        #: This version's own: held while anything is made of it, so that it is made once. A
        #: recording never changes this campaign (it makes the next one) and never takes it.
        self.lock = threading.RLock()
        self._standings: dict[str, Any] | None = None
        self._standings_json: bytes | None = None
        self._read: dict[tuple[str, tuple[tuple[str, Any], ...]], dict[str, Any]] = {}
        self._activity: list[Told] | None = None
        self._results: tuple[dict[str, Any], bool] | None = None
        self._dues: list[Due] | None = None
        self._pages: dict[str, str] = {}
        self._made = 0
        self._source: Iterator[tuple[str, str]] | None = None
        self._all_made = False
        self._names: set[str] = set()  # every page's path met so far

    @property
    def ruleset(self) -> Any:
        return self.campaign.ruleset

    def dues(self) -> list[Due]:
        """What the ledger waits for and when each is due, soonest first (the due bar); none
        when the campaign keeps no deadlines (its pages are as they were)."""
        with self.lock:
            if self._dues is None:
                clock = deadlines.clock(self.campaign)
                self._dues = deadlines.pending(self.campaign) if clock is not None and clock.on else []
            return self._dues

    def due_times(self) -> list[dt.datetime]:
        """The deadlines not yet defaulted and the reminders before them (the alarm's moments)."""
        return due_times(self.campaign, self.dues())

    def schedule(self) -> Schedule:
        """The organiser's choices the clock does not keep (`extensions:`, `reminders:`)."""
        return deadlines.schedule(self.campaign)

    def standings(self) -> dict[str, Any]:
        with self.lock:
            if self._standings is None:
                self._standings = queries.standings(self.campaign)
            return self._standings

    def people(self) -> dict[str, str]:
        """Every player's (kingdom's) id with their name, from the standings: pages name people."""
        named: dict[str, str] = {}
        for rows in self.standings().values():
            if isinstance(rows, list):
                named.update({r["id"]: r["name"] for r in rows if isinstance(r, dict) and "id" in r and "name" in r})
        return named

    def standings_json(self) -> bytes:
        """The standings as the API sends them: encoded once per version of the campaign."""
        with self.lock:
            if self._standings_json is None:
                self._standings_json = json.dumps(self.standings(), ensure_ascii=False).encode()
            return self._standings_json

    def names(self) -> list[str]:
        """The reads the game answers (`GET /api/<name>`): the standings and its own queries."""
        return queries.names(self.campaign)

    def read(self, name: str, **args: Any) -> dict[str, Any]:
        """One of the game's reads (`service.queries.read`), as its `--json`: made once per
        version of the campaign and arguments (a few hundred kept), for the API and the pages."""
        key = (name, tuple(sorted((k, tuple(v) if isinstance(v, list) else v) for k, v in args.items())))
        with self.lock:
            found = self._read.get(key)
            if found is None:
                found = queries.read(self.campaign, name, **args)
                if len(self._read) < 256:
                    self._read[key] = found
            return found

    def history(self, since: str | None, limit: int, player: str | None = None) -> dict[str, Any]:
        """A page of `cok log --json` (`service.queries.after`): the events after `since`."""
        with self.lock:
            return queries.after(self.campaign, queries.history(self.campaign, player), since, limit)

    def dice(self) -> dict[str, Any]:
        """`cok dice --json` (`service.queries.dice_document`)."""
        with self.lock:
            return queries.dice_document(self.campaign)

    def activity(self) -> list[Told]:
        """The latest events, newest first, with who recorded each (`by`)."""
        with self.lock:
            if self._activity is None:
                latest: deque[Told] = deque(self.campaign.told(), maxlen=ACTIVITY)
                self._activity = list(queries.with_verdicts(self.campaign, reversed(latest)))  # docs/dice.md
                if self.ruleset.results:  # docs/confirm.md: a disputed result says so
                    self._activity = list(confirming.marked_history(self.campaign, self._activity))
            return self._activity

    def results(self) -> tuple[dict[str, Any], bool]:
        """Each result's standing (the other side's word, an organiser's ruling) and whether
        the campaign requires confirmation (docs/confirm.md), made once per version."""
        with self.lock:
            if self._results is None:
                found = confirming.standing(self.campaign) if self.ruleset.results else {}
                self._results = (found, bool(found) and confirming.required(self.campaign))
            return self._results

    def recorded_like(self, drafts: Sequence[Draft], within: float = 900.0) -> Told | None:
        """The event just recorded (among the latest, in the last `within` seconds) holding
        every field the one draft gives: the same form sent again (going back), whose rules'
        question or refusal would only confuse; None when there is none."""
        from datetime import UTC, datetime

        if len(drafts) != 1:
            return None
        draft, now = drafts[0], datetime.now(UTC)
        for told in self.activity()[:10]:
            at = told.event.get("at")
            try:
                recent = isinstance(at, str) and (now - datetime.fromisoformat(at)).total_seconds() <= within
            except ValueError:
                recent = False
            same = all(told.event.get(k) == v for k, v in draft.fields.items())
            if recent and same and told.type == draft.type and not told.voided:
                return told
        return None

    def page(self, path: str) -> str | None:
        """A page of `cok site` by its path, made only as far as needed: the site's pages
        come one at a time, and those made on the way are kept (within PAGE_BUDGET)."""
        with self.lock:
            found = self._pages.get(path)
            if found is not None:
                return found
            if self._all_made and path not in self._names:
                return None  # no such page: answered without making the site again
            source = self._source
            if source is None or self._all_made:
                source = iter(
                    self.ruleset.site_pages(confirming.for_site(self.campaign), served=True)
                )  # docs/confirm.md
                self._all_made = False
            for name, text in source:
                self._names.add(name)
                if self._made + len(text) <= PAGE_BUDGET:
                    self._pages[name] = text
                    self._made += len(text)
                if name == path:
                    self._source = source
                    return text
            self._all_made = True
            self._source = None
            return None


def due_times(campaign: Campaign, dues: Sequence[Due]) -> list[dt.datetime]:
    """A campaign's deadlines not yet defaulted and the reminders before them."""
    from cok.notify.reminders import times

    clock = deadlines.clock(campaign)
    if clock is None or not clock.on:
        return []
    found = [d.due for d in dues if d.due is not None and d.wait.key not in clock.defaulted]
    return found + times(campaign, dues, deadlines.schedule(campaign).reminders)


def _keeps_time(campaign: Campaign) -> bool:
    clock = deadlines.clock(campaign)
    return clock is not None and clock.on


class Heard(Followers):
    """The service's followers of every write, telling the server too: the campaign's alarm
    is armed again after each write (a recording can open a wait, close one or move one),
    with the campaign the write left (`latest`), so that it reads its next due time from it
    without opening the files again."""

    def __init__(self, folder: Path, backup: Backup = NO_BACKUP) -> None:
        super().__init__(folder, backup)
        self.heard: list[Callable[[], None]] = []
        self.latest: Campaign | None = None

    def write(self, campaign: Campaign, events: Any, **options: Any) -> tuple[list[Any], list[str]]:
        done: list[Any] = []
        try:
            done, said = super().write(campaign, events, **options)
            return done, said
        finally:
            if done and done[-1].written:
                self.latest = done[-1].campaign
            for told in self.heard:
                told()


class WarmCampaign:
    def __init__(self, folder: Path, backup: Backup = NO_BACKUP) -> None:
        self.folder = folder
        # a recording makes a new campaign (copy-on-write), never changes the one a page holds:
        # every page is made from one whole version of the campaign, lock or none
        self.ledger = Ledger(folder, replace_state=True)
        #: every change's followers, the service's (`--commit`, `--push`, the chat's outbox),
        #: and the server's alarm (`heard`)
        self.followers = Heard(folder, backup)
        self._lock = threading.Lock()
        self._view: Version | None = None
        self._paths: list[Path] = [folder / "campaign.yaml", folder / "events.yaml"]

    def _signature(self) -> Signature:
        return tuple(stamp(p) for p in self._paths)

    def signature(self) -> Signature:
        """The campaign's files as they are now (a few `stat` calls, no lock): the signature
        the next view will have, which a page's poll compares with its own (live refresh)
        without waiting for a recording or a page being made."""
        return self._signature()

    def view(self) -> Version:
        """The current version of the campaign (stat first: a write after it is seen next time)."""
        signature = self._signature()
        with self._lock:
            if self._view is not None and self._view.signature == signature:
                return self._view
        campaign = self.ledger.campaign()
        with self._lock:
            paths = [self.folder / "campaign.yaml", campaign.events_file, campaign.map_file]
            if paths != self._paths:
                self._paths = paths
                signature = self._signature()  # taken before the campaign was: never newer than it
            before, self._view = self._view, Version(signature, campaign)
            made = self._view
        if before is not None:  # a write seen here (a terminal's too): the alarm reads it again
            for told in self.followers.heard:
                told()
        return made

    def due_times(self) -> list[dt.datetime]:
        """Every moment the campaign has something due: each wait's deadline and the
        reminders before it (the alarm sleeps until the soonest). Just after a write of this
        server's, from the campaign it left (no file is read: a recording's cost is
        unchanged); else from the current version (a terminal's write is seen there)."""
        latest, self.followers.latest = self.followers.latest, None
        if latest is not None:
            return due_times(latest, deadlines.pending(latest) if _keeps_time(latest) else [])
        return self.view().due_times()

    def ring(self, now: dt.datetime) -> None:
        """What the alarm does when a moment comes: the defaults due at `now` recorded through
        the followers (posted, committed, as any recording) and the reminders due posted."""
        from cok.notify.outbox import remind

        self._tick(now)
        campaign = self.view().campaign
        remind(self.folder, campaign, now, deadlines.schedule(campaign).reminders)

    def _tick(self, now: dt.datetime) -> None:
        with self.ledger.lock:  # the warm ledger's own lock: no recording of this server meanwhile
            deadlines.tick(self.folder, now, followers=self.followers)

    def extend(self, who: Who, length: str | None = None, player: str | None = None) -> Recording:
        """More time (`service.deadlines.extend`): a player's own ask, or an organiser's for
        one player or everyone waited for; its change handed to the followers."""
        with self.ledger.lock:
            return deadlines.extend(self.folder, length, player=player, by=who, followers=self.followers)

    def back(self, who: Who, player: str) -> Recording:
        """An absent player brought back by an organiser (`service.deadlines.back`)."""
        with self.ledger.lock:
            return deadlines.back(self.folder, player, by=who, followers=self.followers)

    def start(self) -> None:
        """The application starts: the followers' worker, the pusher, the chat's courier."""
        self.followers.start()

    def stop(self) -> None:
        """The application stops: every change followed (nothing lost), the warm state kept."""
        self.followers.stop()
        self.ledger.close()

    def backup(self) -> Any:
        """Where `--push` stands for this campaign (`service.push.Pushed`), None without it."""
        from cok.service.push import state_of

        return state_of(self.folder)

    def troubles(self) -> list[Trouble]:
        """The followers' latest failures (a commit git refused), for the organiser's page."""
        return self.followers.troubles()

    def may_record(self, drafts: Sequence[Draft], who: Who, answers: Mapping[str, Any] | None = None) -> bool:
        return self.refusal(drafts, who, answers) is None

    def refusal(self, drafts: Sequence[Draft], who: Who, answers: Mapping[str, Any] | None = None) -> str | None:
        """Why `who` may not record these drafts (the service's `access.refusal`); None: they may."""
        from cok.service.access import refusal

        view = self.view()
        with view.lock:
            return next((r for d in drafts if (r := refusal(view.campaign, d, who, answers)) is not None), None)

    def record(
        self,
        drafts: Sequence[Draft],
        who: Who,
        *,
        answers: Mapping[str, Any] | None = None,
        dry_run: bool = False,
        again: bool = False,
    ) -> Recording:
        """Record through the service (Refused or Asked: nothing written), each change then
        handed to the campaign's followers."""
        try:
            return self.ledger.record(
                drafts, by=who, answers=answers, dry_run=dry_run, again=again, followers=self.followers
            )
        except (Refused, Asked):
            raise
        except RuleError as refused:  # a rule's refusal the service did not word as a problem
            raise Refused(Problem(str(self.folder / "events.yaml"), None, str(refused))) from None

    def voiding(self, target: str, reason: str, who: Who) -> Takes:
        """What a void of the event named `target` (a whole id, a unique start of it,
        `@LINE`) would take with it (nothing written), as `cok void --dry-run` shows it."""
        view = self.view()
        with view.lock:
            return voids.takes(view.campaign, target, reason, by=who, put=self._put(who))

    def void(
        self,
        target: str,
        reason: str,
        who: Who,
        *,
        cascade: bool = False,
        previewed: Sequence[str] | None = None,
        note: str | None = None,
        dry_run: bool = False,
    ) -> Recording:
        """The void of the event named `target` (a whole id, a unique start of it, `@LINE`)
        and, with `cascade`, as one change, the voids of what it takes with it; `previewed`:
        only what the preview showed."""
        with self.ledger.lock:  # no recording between what it takes and its voids
            campaign = self.view().campaign
            return voids.void(
                self.folder,
                target,
                reason,
                by=who,
                cascade=cascade,
                note=note,
                dry_run=dry_run,
                previewed=previewed,
                campaign=campaign,
                put=self._put(who),
            )

    def _put(self, who: Who) -> Put:
        return lambda drafts, dry_run: self.record(drafts, who, dry_run=dry_run)
