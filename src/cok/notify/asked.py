"""What the ledger asks of whom right now: every nudge and reminder is checked against it
when it is sent, not only when it was decided (issue 45: Dany was asked to confirm a result
she had disputed 5.5 s before). A nudge goes out only while its own wait goes on — the
same person, asked the same thing, in the same period, without a break since it began."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class Asked:
    """The ledger's questions at one moment (read once per sending round)."""

    turn: tuple[str, str] | None = None  # (who, what): whose turn the game waits for
    period: str | None = None  # the game's period (`year 1, month 3`, `round 2`)
    last: str | None = None  # the log's last event id
    confirming: Mapping[str, frozenset[str]] = field(default_factory=dict)  # player -> results awaiting them
    disputes: frozenset[str] = frozenset()  # results disputed and not yet settled
    waits: frozenset[str] = frozenset()  # the keys of the waits open now (deadlines: a reminder's)

    def still(self, entry: Mapping[str, Any], tracked: Mapping[str, Any] | None) -> bool:
        """Whether an outbox nudge still asks what the ledger asks: a confirmation while the
        result awaits that player, a settlement while the dispute is open, a turn while the
        same wait goes on (`tracked`: the wait the outbox saw last, `waits.py`)."""
        who, about = entry.get("waits_for"), entry.get("about")
        if about:
            asked, _, target = str(about).partition(":")
            if asked == "confirm":
                return who is not None and target in self.confirming.get(str(who), frozenset())
            if asked == "settle":
                return target in self.disputes
            if asked == "due":  # a reminder before a deadline: while its wait is open
                return target in self.waits
            return False
        if self.turn is None or self.turn[0] != who:
            return False
        what, period = entry.get("what"), entry.get("period")
        if what is not None and self.turn[1] != what:
            return False  # the same person, asked something else: this wait is over
        if period is not None and self.period != period:
            return False  # the same question in another month or round: another wait
        # the wait the outbox saw last, when it has seen the whole log: the same one, unbroken
        if tracked and tracked.get("seen") == self.last and entry.get("since") is not None:
            return bool(tracked.get("since") == entry.get("since"))
        return True


def asked_now(folder: Path) -> Asked:
    """The ledger's questions now, from the campaign as it stands (its cache, when current)."""
    from cok.core.campaign import open_campaign
    from cok.notify.posts import waiting
    from cok.service import confirming

    campaign = open_campaign(folder)
    ids = campaign.ids()
    last = max(ids, key=ids.__getitem__) if len(ids) else None
    try:
        period: str | None = str(campaign.ruleset.period(campaign.state))
    except Exception:  # a game without periods: the turn alone says which wait
        period = None
    return Asked(
        waiting(campaign),
        period,
        last,
        {p: frozenset(r.id for r in results) for p, results in confirming.waiting(campaign).items()},
        frozenset(r.id for r in confirming.disputes(campaign)),
        _open_waits(campaign),
    )


def _open_waits(campaign: Any) -> frozenset[str]:
    """The waits open now, by key, when the campaign has deadlines (its reminders' check)."""
    clock = getattr(campaign.state, "clock", None)
    if clock is None or not clock.on:
        return frozenset()
    return frozenset(w.key for w in campaign.ruleset.waits(campaign.state) if w.key not in clock.defaulted)
