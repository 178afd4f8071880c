"""One change: the events the ledger appended together under its lock, as it recorded them —
what every follower of a write is handed (the chat's outbox, the git commit, the push)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from cok.core.campaign import Campaign
    from cok.core.events import EventBase
    from cok.core.ledger import Recorded


@dataclass(frozen=True)
class Change:
    """A write as the ledger made it: every event of it (a roll with its dice commitment made
    first is two changes; a reveal with the event that ends its period, one)."""

    recorded: tuple[Recorded, ...]

    @property
    def written(self) -> bool:
        return bool(self.recorded) and self.recorded[0].written

    @property
    def events(self) -> list[EventBase]:
        return [r.event for r in self.recorded]

    @property
    def told(self) -> list[str]:
        """Each event in words, as `cok log` tells it (a commit's message)."""
        return [r.text for r in self.recorded]

    @property
    def author(self) -> str:
        """Who recorded it (the events' `by`), as a commit's author."""
        return next((e.by for e in self.events if e.by), None) or "cok"

    @property
    def appended(self) -> bytes | None:
        """The bytes the append put at the log's end (None: the log was rewritten whole)."""
        return self.recorded[0].appended if self.recorded else None

    @property
    def campaign(self) -> Campaign:
        """The campaign with this change (a version no later write changes, in a server)."""
        return self.recorded[-1].campaign
