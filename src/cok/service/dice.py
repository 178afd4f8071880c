"""The campaign's fair dice around one recording (docs/dice.md): the seed of the period found
in the user's data folder, or committed first — its SHA-256 written into the log as its own
change before the asker's entropy exists —, each event's `rolled` record, and the seed
revealed in the same change as the event that ends the period."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from cok.core import seeds
from cok.core.dice import ENTROPY
from cok.core.errors import Problem, Refused
from cok.core.events import DiceCommit, DiceLost, DiceReveal
from cok.core.fairdice import FairDice, digest, new_entropy, new_seed

if TYPE_CHECKING:
    from cok.core.campaign import Campaign
    from cok.core.dicecheck import Commitment
    from cok.core.events import EventBase
    from cok.service.followers import Followers

#: What the asker's entropy may be: 16 to 64 bytes, in hex.
ENTROPY_TEXT = re.compile(r"^[0-9a-f]{32,128}$")


@dataclass
class RecordingDice:
    """The dice of one recording: the seed this machine holds for the period (if any)."""

    dice: FairDice
    kept: seeds.Kept | None
    asked: bool  # the entropy is the asker's (a phone's), not made here


def dice_of(campaign: Campaign, answers: Mapping[str, Any]) -> RecordingDice:
    """The dice for a recording on this campaign, with the asker's entropy if they sent one
    (a phone: 16 random bytes from its browser), else this machine's own (the terminal)."""
    typed = answers.get(ENTROPY)
    if typed is not None and not (isinstance(typed, str) and ENTROPY_TEXT.match(typed.strip().lower())):
        raise Refused(Problem(campaign.shown, None, "the dice' entropy is 16 to 64 random bytes, in hex"))
    entropy = typed.strip().lower() if isinstance(typed, str) else new_entropy()
    held = [k for k in seeds.held(campaign.folder) if k.commit in campaign.ids()]
    kept = held[-1] if held else None
    fair = FairDice(kept.commit if kept else None, kept.seed if kept else None, entropy, kept.pinned if kept else {})
    return RecordingDice(fair, kept, typed is not None)


def with_rolled(rolling: RecordingDice, since: int, event: EventBase) -> EventBase:
    """The event with the dice cok rolled for it since the `since`th roll (none: as it is)."""
    rolled = rolling.dice.record(since)
    return event if rolled is None else event.model_copy(update={"rolled": rolled})


def open_elsewhere(campaign: Campaign, period: str | None = None) -> Commitment | None:
    """The commitment open in the log (of `period`, when given): held by another machine
    when this one holds no seed for it."""
    from cok.core.dicecheck import audit

    return audit(campaign.history(), campaign.shown).open(period)


def held_elsewhere(campaign: Campaign, committed: Commitment) -> Refused:
    return Refused(
        Problem(
            campaign.shown,
            committed.line,
            f"the dice of {committed.period} were committed on another machine, which alone holds the seed: "
            "roll there, type the dice rolled at the table, or, if that seed is lost, record it with "
            "`cok dice lost` (its rolls can then never be verified)",
        )
    )


def commit(campaign: Campaign, by: str | None, followers: Followers) -> DiceCommit:
    """A fresh seed for the period the campaign is in: kept in the data folder first, then
    its SHA-256 written into the log as its own change (before any entropy for it exists),
    which the followers follow as any other (a git commit of it first)."""
    seed = new_seed()
    sha = digest(seed)
    period = campaign.ruleset.period(campaign.state)
    kept = seeds.Kept(sha, seed, seeds.campaign_key(campaign.folder), None, period)
    seeds.keep(kept)
    event = DiceCommit(period=period, sha256=sha)
    try:
        done, _ = followers.write(campaign, [event], by=by)
    except BaseException:
        seeds.forget(sha)
        raise
    kept.commit = done[0].event.id
    seeds.keep(kept)
    return event


def committed_now(campaign: Campaign, event: DiceCommit) -> Refused:
    """The asker's entropy was made before the commitment: it is thrown away, and they ask again."""
    return Refused(
        Problem(
            campaign.shown,
            None,
            f"the dice of {event.period} are committed now (sha256 {event.sha256[:16]}…): nothing else was "
            "recorded; send it again, and your own new random bytes roll the dice",
        )
    )


def reveals(after: Campaign, rolling: RecordingDice, events: Sequence[EventBase], dry_run: bool) -> list[EventBase]:
    """The reveal that closes the change of these events when they end the period of the
    seed held here: `after` is the campaign once they are decided (the ledger's `then`), so
    that nothing is decided twice to learn the period after."""
    kept = rolling.kept
    if kept is None or kept.commit is None or dry_run or not events:
        return []
    used = kept.used or any(e.rolled is not None for e in events)
    if not used or after.ruleset.period(after.state) == kept.period:
        return []  # an unused seed is not revealed (nothing to verify): forgotten when the next period rolls
    return [DiceReveal(commit=kept.commit, seed=kept.seed)]


def reveal_ended(campaign: Campaign, rolling: RecordingDice, by: str | None, followers: Followers) -> bool:
    """A period that ended without its seed revealed (the event that ended it was recorded
    elsewhere, or by hand): revealed now, as its own change, before any new roll."""
    kept = rolling.kept
    if kept is None or kept.commit is None or campaign.ruleset.period(campaign.state) == kept.period:
        return False
    if not kept.used:  # no roll was made with it (a phone never sent again): nothing to reveal
        seeds.forget(kept.sha256)
        return True
    followers.write(campaign, [DiceReveal(commit=kept.commit, seed=kept.seed)], by=by)
    seeds.forget(kept.sha256)
    return True


def kept_after(rolling: RecordingDice, events: Sequence[EventBase], written: bool) -> None:
    """After a recording (or a question): the entropy pinned for rolls still to be
    recorded, the seed forgotten once revealed."""
    kept = rolling.kept
    if kept is None:
        return
    if written and any(isinstance(e, DiceReveal) for e in events):
        seeds.forget(kept.sha256)
        return
    recorded = {e.rolled.what for e in events if e.rolled is not None} if written else set()
    pinned = {k: v for k, v in rolling.dice.pinned.items() if k not in recorded}
    if pinned != kept.pinned or (recorded and not kept.used):
        kept.pinned, kept.used = pinned, kept.used or bool(recorded)
        seeds.keep(kept)


def reveal(campaign: Campaign, by: str | None, followers: Followers | None = None) -> DiceReveal:
    """`cok dice reveal`: the seed of the open commitment revealed by the organiser, once its
    period is over (the event that ended it was recorded where the seed was not at hand).
    Never before: a seed known while its period goes on would let an asker choose the dice.
    Its change goes to the followers as any other (default: the terminal's)."""
    campaign.valid()
    committed = open_elsewhere(campaign)
    if committed is None:
        raise Refused(Problem(campaign.shown, None, "no dice are committed and unrevealed: nothing to reveal"))
    if not committed.rolls:
        raise Refused(Problem(campaign.shown, committed.line, f"no die was rolled with {committed.period}'s seed"))
    kept = seeds.find(committed.sha256)
    if kept is None:
        raise Refused(
            Problem(
                campaign.shown,
                committed.line,
                f"this machine does not hold the seed of {committed.period}'s dice: reveal them where they were "
                "committed, or, if that seed is lost, record it with `cok dice lost --reason …`",
            )
        )
    now = campaign.ruleset.period(campaign.state)
    if now == committed.period:
        raise Refused(
            Problem(
                campaign.shown,
                committed.line,
                f"{committed.period} is not over: its seed is revealed when it ends (known before, anyone asking "
                "for a roll could choose the dice)",
            )
        )
    event = DiceReveal(commit=committed.id, seed=kept.seed)
    _followers(campaign, followers).write(campaign, [event], by=by)
    seeds.forget(kept.sha256)
    return event


def lose(campaign: Campaign, reason: str, by: str | None, followers: Followers | None = None) -> DiceLost:
    """`cok dice lost`: the organiser records that the open commitment's seed is lost (the
    data folder is gone): its rolls can never be verified, and a new one may be committed.
    Its change goes to the followers as any other (default: the terminal's)."""
    campaign.valid()
    committed = open_elsewhere(campaign)
    if committed is None:
        raise Refused(Problem(campaign.shown, None, "no dice are committed and unrevealed: no seed to lose"))
    if not reason.strip():
        raise Refused(Problem(campaign.shown, None, "say why the seed is lost: --reason TEXT"))
    event = DiceLost(commit=committed.id, reason=reason.strip())
    _followers(campaign, followers).write(campaign, [event], by=by)
    return event


def _followers(campaign: Campaign, given: Followers | None) -> Followers:
    from cok.service.followers import Followers

    return given if given is not None else Followers(campaign.folder)
