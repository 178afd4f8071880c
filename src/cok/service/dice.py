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
from cok.core.write import new_id

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
    opened: seeds.Kept | None = None  # the next period's seed, committed with the event that opens it


def dice_of(campaign: Campaign, answers: Mapping[str, Any]) -> RecordingDice:
    """The dice for a recording on this campaign, with the asker's entropy if they sent one
    (a phone: 16 random bytes from its browser), else this machine's own (the terminal)."""
    typed = answers.get(ENTROPY)
    if typed is not None and not (isinstance(typed, str) and ENTROPY_TEXT.match(typed.strip().lower())):
        raise Refused(Problem(campaign.shown, None, "the dice' entropy is 16 to 64 random bytes, in hex"))
    entropy = typed.strip().lower() if isinstance(typed, str) else new_entropy()
    held = [k for k in seeds.held(campaign.folder) if k.commit in campaign.ids()]
    now = campaign.ruleset.period(campaign.state) if len(held) > 1 else None
    kept = next((k for k in held if k.period == now), held[-1] if held else None)
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
    which the followers follow as any other (a git commit of it first). Another process
    committing the period at the same moment: the ledger refuses the second commitment under
    its lock (`Meanwhile`), and this seed is forgotten."""
    from cok.core.dicecheck import CommittedTwice

    event, kept = _committing(campaign, campaign.ruleset.period(campaign.state))
    try:
        followers.write(campaign, [event], by=by)
    except CommittedTwice as refused:
        seeds.forget(kept.sha256)
        raise Meanwhile(event.period) from refused
    except BaseException:
        seeds.forget(kept.sha256)
        raise
    return event


def _committing(campaign: Campaign, period: str) -> tuple[DiceCommit, seeds.Kept]:
    """A fresh seed for `period`, kept in the data folder with the id its commitment will
    have (so another process of this machine finds it as soon as the log holds it)."""
    seed = new_seed()
    event = DiceCommit(id=new_id(), period=period, sha256=digest(seed))
    kept = seeds.Kept(event.sha256, seed, seeds.campaign_key(campaign.folder), event.id, period)
    seeds.keep(kept)
    return event, kept


class Meanwhile(Exception):
    """Another process committed this period's dice while this one was about to: its
    commitment stands, this one is never written."""

    def __init__(self, period: str) -> None:
        super().__init__(period)
        self.period = period


def first_roll(
    campaign: Campaign, answers: Mapping[str, Any], by: str | None, dry_run: bool, followers: Followers
) -> RecordingDice:
    """A roll asked in a period with no commitment (the campaign's first, or one opened on a
    machine that held no seed): the period's dice committed first, as their own change.
    The terminal then makes its own random bytes and rolls; a phone's bytes were made before
    the commitment, so they are thrown away and it sends again (`Committed`)."""
    from cok.core.campaign import open_campaign

    elsewhere = open_elsewhere(campaign, campaign.ruleset.period(campaign.state))
    if elsewhere is not None:
        raise held_elsewhere(campaign, elsewhere)
    if dry_run:
        raise Refused(Problem(campaign.shown, None, "a dry run rolls no dice: the period's dice are not committed yet"))
    try:
        committed = commit(campaign, by, followers)
    except Meanwhile as meanwhile:  # another process committed it first: its seed, if this machine holds it
        again = open_campaign(campaign.folder, use_cache=False)
        rolling = dice_of(again, answers)
        if rolling.kept is None or rolling.kept.period != meanwhile.period:
            raise held_elsewhere(again, open_elsewhere(again, meanwhile.period) or _unknown(meanwhile)) from None
        if rolling.asked:
            raise Committed(campaign.shown, meanwhile.period, None) from None
        return rolling
    if dice_asked(answers):
        raise committed_now(campaign, committed)
    return dice_of(campaign, answers)


def _unknown(meanwhile: Meanwhile) -> Commitment:
    from cok.core.dicecheck import Commitment

    return Commitment("", 0, meanwhile.period, "")


def dice_asked(answers: Mapping[str, Any]) -> bool:
    """Whether the asker sent their own random bytes (a phone, a bot): else the terminal's."""
    return answers.get(ENTROPY) is not None


class Committed(Refused):
    """The period's dice were committed by this request (or another at the same moment),
    after the asker's random bytes were made: those are thrown away, and the asker sends
    again with new ones. Something WAS written (the commitment): a page says so, and sends
    the form again by itself (docs/dice.md)."""

    def __init__(self, shown: str, period: str, sha256: str | None) -> None:
        sha = f" (sha256 {sha256[:16]}…)" if sha256 else ""
        super().__init__(
            Problem(
                shown,
                None,
                f"the dice of {period} are committed now{sha}, before your random bytes count: the commitment "
                "was written and nothing else; send it again, and your own new random bytes roll the dice",
            )
        )
        self.period = period


def committed_now(campaign: Campaign, event: DiceCommit) -> Committed:
    """The asker's entropy was made before the commitment: it is thrown away, and they ask again."""
    return Committed(campaign.shown, event.period, event.sha256)


def reveals(after: Campaign, rolling: RecordingDice, events: Sequence[EventBase], dry_run: bool) -> list[EventBase]:
    """The reveal that closes the change of these events when they end the period of the
    seed held here, and the next period's commitment (`opening`): `after` is the campaign
    once they are decided (the ledger's `then`), so that nothing is decided twice to learn
    the period after."""
    kept = rolling.kept
    if kept is None or kept.commit is None or dry_run or not events:
        return []
    used = kept.used or any(e.rolled is not None for e in events)
    period = after.ruleset.period(after.state)
    if period == kept.period:
        return []
    # an unused seed is not revealed (nothing to verify): it is forgotten once this is written
    return ([DiceReveal(commit=kept.commit, seed=kept.seed)] if used else []) + opening(after, rolling, period)


def opening(campaign: Campaign, rolling: RecordingDice, period: str) -> list[EventBase]:
    """The commitment of the period these events open, appended in the same change (as the
    reveal is made with the event that ends one): the seed exists before anyone can ask a
    roll of the period, so a phone's first "Roll for me" rolls. Made by the machine that held
    the period that ends (where the campaign's dice are rolled); none where no seed can be kept."""
    if rolling.opened is not None:  # built again under the lock: the same seed
        seeds.forget(rolling.opened.sha256)
    try:
        event, rolling.opened = _committing(campaign, period)
    except (OSError, Refused):  # no data folder here: the period's first roll commits, as before
        rolling.opened = None
        return []
    return [event]


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
    opened = rolling.opened
    if opened is not None and not (written and any(e.id == opened.commit for e in events)):
        seeds.forget(opened.sha256)  # its commitment was never written: nothing to keep
        opened = None
    if kept is None:
        return
    if written and (opened is not None or any(isinstance(e, DiceReveal) for e in events)):
        seeds.forget(kept.sha256)  # its period ended: revealed, or never used
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
