"""The campaign's time for every interface (issue 48, docs/deadlines.md): what is due and
when (`pending`, `next_due`: the server's alarm wakes at it), the ledger's defaults for every
missed wait (`tick`: `cok tick`, the server's alarm), an extension (`extend`) and an absent
player brought back (`back`).

Every default is an ordinary event, built from the game's own drafts (`Ruleset.defaults`)
through the one recording path (`service.record`: the game's intents, fair dice, the
followers: the chat's post, the git commit, the push), decided under the campaign's lock on
the state as it is then: two ticks, or a tick and a server, record each default once."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cok.core import deadlines
from cok.core.deadlines import NONE, Due, Wait
from cok.core.errors import Problem, Refused, RuleError

if TYPE_CHECKING:
    from cok.core.campaign import Campaign
    from cok.core.deadlines import Clock
    from cok.service.drafts import Draft, Who
    from cok.service.followers import Followers
    from cok.service.recording import Recording

#: Who records a default (`by:`): the ledger itself, not a person.
LEDGER = "ledger"
#: Defaults one tick records at most (each may open another wait due at once: an absent
#: player's next turn); a bound, so that a game's mistake cannot loop for ever.
MOST = 200


@dataclass(frozen=True)
class Schedule:
    """The organiser's choices in campaign.yaml that the clock itself does not keep: what is
    recorded for each step's misses, the reminders before a deadline, a player's own ask."""

    defaults: dict[str, str] = field(default_factory=dict)  # step → choice (first of the step's when not set)
    reminders: tuple[int, ...] = ()  # seconds before a deadline
    extension: str = "24h"
    extensions: int = 0

    def choice(self, campaign: Campaign, step: str) -> str:
        """What is recorded for a miss of `step`: the organiser's choice, else the safest."""
        chosen = self.defaults.get(step)
        if chosen is not None:
            return chosen
        found = next((s for s in campaign.ruleset.deadline_steps if s.key == step), None)
        return found.defaults[0] if found is not None and found.defaults else NONE


def schedule(campaign: Campaign) -> Schedule:
    """The campaign's schedule, read once per content of its campaign.yaml (it was checked
    when the campaign opened)."""
    key = campaign.digests[0]
    kept = _SCHEDULES.get(key)
    if kept is None:
        kept = _SCHEDULES[key] = _read(campaign)
    return kept


_SCHEDULES: dict[str, Schedule] = {}


def _read(campaign: Campaign) -> Schedule:
    from cok.core.folders import read_bytes
    from cok.core.settings import read_settings

    raw = read_bytes(campaign.folder / "campaign.yaml", "campaign settings")
    try:
        settings = read_settings(raw.decode("utf-8", "replace"), campaign.shown)[1]
    except Refused:  # changed since it was opened, and now refused: the next open says why
        return Schedule()
    reminders = []
    for text in getattr(settings, "reminders", ()):
        read = deadlines.spec(str(text))
        if not isinstance(read, str) and read.weekday is None:
            reminders.append(read.seconds)
    return Schedule(
        dict(getattr(settings, "defaults", {}) or {}),
        tuple(sorted(set(reminders), reverse=True)),
        str(getattr(settings, "extension", "24h")),
        int(getattr(settings, "extensions", 0)),
    )


def clock(campaign: Campaign) -> Clock | None:
    """The campaign's clock (None: its game keeps none)."""
    return deadlines.kept(campaign.state)


def pending(campaign: Campaign) -> list[Due]:
    """Everything the ledger waits for now with its due time, soonest first (no deadline:
    last, due None), each saying whether its player is marked absent."""
    kept = clock(campaign)
    if kept is None:
        return []
    return deadlines.pending(kept, campaign.ruleset.waits(campaign.state))


def steps(campaign: Campaign) -> list[dict[str, Any]]:
    """The game's steps as this campaign sets them (`cok deadline --json`, the organiser's
    page): each step's deadline as written (null: none), the default chosen and the choices."""
    kept = clock(campaign)
    plan = schedule(campaign)
    return [
        {
            "step": step.key,
            "what": step.what,
            "deadline": kept.steps.get(step.key) if kept is not None else None,
            "default": plan.choice(campaign, step.key),
            "choices": list(step.defaults),
        }
        for step in campaign.ruleset.deadline_steps
    ]


def absent(campaign: Campaign) -> list[str]:
    """The players marked absent (their defaults are recorded as soon as a wait opens)."""
    kept = clock(campaign)
    return sorted(kept.absent) if kept is not None else []


@dataclass(frozen=True)
class Owed:
    """A wait whose default is owed at `now`: `kind` (`deadline`, `absent`) and when it was due."""

    wait: Wait
    kind: str
    due: dt.datetime


def owed(campaign: Campaign, now: dt.datetime) -> list[Owed]:
    """The waits whose default is owed at `now`, soonest first: due and not yet defaulted,
    an absent player's at once; a step whose organiser chose `none` is told, never defaulted."""
    kept = clock(campaign)
    if kept is None or not kept.on:
        return []
    plan = schedule(campaign)
    found = []
    for due in pending(campaign):
        if due.due is None or due.due > now or due.wait.key in kept.defaulted:
            continue
        if plan.choice(campaign, due.wait.step) == NONE:
            continue
        found.append(Owed(due.wait, "absent" if due.absent else "deadline", due.due))
    return found


def next_due(campaign: Campaign, now: dt.datetime | None = None) -> dt.datetime | None:
    """When something is next to be done for this campaign: the soonest default owed (a past
    one: at once), a deadline a step without default reaches (the organisers are told) or a
    reminder still to come (`reminders:`); None when nothing is. The server's alarm sleeps
    until then, and a recording wakes it to ask again."""
    kept = clock(campaign)
    if kept is None or not kept.on:
        return None
    moment = now if now is not None else deadlines.now()
    plan = schedule(campaign)
    times: list[dt.datetime] = []
    for due in pending(campaign):
        if due.due is None or due.wait.key in kept.defaulted:
            continue
        if due.due > moment or _drafts_owed(campaign, due.wait, plan):
            times.append(due.due)
        times += [t for t in reminder_times(due, plan) if t > moment]
    return min(times) if times else None


def _drafts_owed(campaign: Campaign, wait: Wait, plan: Schedule) -> bool:
    """Whether a tick would record something for `wait` now past due: its step's choice is not
    `none` and the game drafts a default for it (else waking for it again would loop)."""
    choice = plan.choice(campaign, wait.step)
    return choice != NONE and bool(campaign.ruleset.defaults(campaign.state, wait, choice))


def reminder_times(due: Due, plan: Schedule) -> list[dt.datetime]:
    """When the club's chat reminds whoever `due` waits for (`reminders:`, e.g. 24h and 2h
    before), earliest first; none for an absent player (defaulted at once) or no deadline."""
    if due.due is None or due.absent:
        return []
    at = due.due
    return [at - dt.timedelta(seconds=s) for s in plan.reminders]


@dataclass(frozen=True)
class Defaulted:
    """One missed wait and what the ledger recorded (or, for a dry run, would record) for it."""

    wait: Wait
    kind: str
    due: dt.datetime
    recording: Recording

    def document(self, zone: dt.tzinfo = dt.UTC) -> dict[str, Any]:
        """As `cok tick --json` shows it."""
        return {
            "step": self.wait.step,
            "player": self.wait.who,
            "what": self.wait.what,
            "default": self.kind,
            "due": deadlines.iso(self.due.astimezone(zone)),
            "events": [e.model_dump(mode="json", exclude_none=True) for e in self.recording.events],
            "told": list(self.recording.told),
        }


@dataclass
class Ticked:
    """What a tick did: the defaults recorded in the log's order, and the waits whose default
    the rules refused (each said, the others recorded all the same)."""

    now: dt.datetime
    defaults: list[Defaulted] = field(default_factory=list)
    refused: list[tuple[Wait, str]] = field(default_factory=list)
    written: bool = True


class _Gone(Exception):
    """Under the lock, the wait is no longer owed: another tick, a server or the player came first."""


def tick(
    folder: Path | str,
    now: dt.datetime | None = None,
    *,
    dry_run: bool = False,
    by: str = LEDGER,
    followers: Followers | None = None,
    use_cache: bool = True,
) -> Ticked:
    """Record the default of every wait owed at `now` (default: the ledger's clock), each as
    its own change through the one recording path, decided under the lock on the state as it
    is then (idempotent: a wait already defaulted, or acted on meanwhile, is left alone). A
    deadline that passed while nothing ran is applied now, dated now, with `due:` the time
    it was due. A dry run records nothing and shows what would be (the waits owed now; not
    those a default would open)."""
    from cok.core.campaign import open_campaign
    from cok.service.questions import Asked
    from cok.service.recording import record

    moment = now if now is not None else deadlines.now()
    done = Ticked(moment, written=not dry_run)
    left_alone: set[str] = set()
    for _ in range(MOST):
        campaign = open_campaign(Path(folder), use_cache=use_cache).valid()
        waiting = [o for o in owed(campaign, moment) if o.wait.key not in left_alone]
        if not waiting:
            break
        first = waiting[0]
        if dry_run:  # nothing changes: each wait owed now is shown once
            left_alone.add(first.wait.key)
        try:
            recording = record(
                campaign.folder,
                _drafting(first.wait.key, moment),
                by=by,
                dry_run=dry_run,
                followers=followers,
                use_cache=use_cache,
                campaign=campaign,
            )
        except _Gone:
            left_alone.add(first.wait.key)
            continue
        except Refused as refused:
            left_alone.add(first.wait.key)
            done.refused.append((first.wait, "; ".join(p.message for p in refused.problems)))
            continue
        except Asked as asked:  # a default answers no question: the game's drafts must be whole
            left_alone.add(first.wait.key)
            done.refused.append((first.wait, f"the rules asked: {asked}"))
            continue
        done.defaults.append(Defaulted(first.wait, first.kind, first.due, recording))
    return done


def _drafting(key: str, now: dt.datetime) -> Any:
    """The drafts of the default owed for the wait `key`, from the campaign as it is when
    asked (under the lock): _Gone when it is owed no longer."""
    from cok.service.drafts import Draft

    def drafts(campaign: Campaign) -> Sequence[Draft]:
        found = next((o for o in owed(campaign, now) if o.wait.key == key), None)
        if found is None:
            raise _Gone(key)
        choice = schedule(campaign).choice(campaign, found.wait.step)
        made = campaign.ruleset.defaults(campaign.state, found.wait, choice)
        if not made:
            raise _Gone(key)
        kept = clock(campaign)
        zone = kept.zone() if kept is not None else dt.UTC
        marks = {"default": found.kind, "due": found.due.astimezone(zone), "at": now.astimezone(dt.UTC)}
        return [Draft(kind, fields, marks) for kind, fields in made]

    return drafts


def extend(
    folder: Path | str,
    length: str | None = None,
    *,
    player: str | None = None,
    step: str | None = None,
    by: Who | str | None = None,
    asked: bool = False,
    followers: Followers | None = None,
    dry_run: bool = False,
) -> Recording:
    """More time for the open waits named (a player's, a step's, else every one), as an
    `extend` event. An organiser extends anyone's by any length; a player only their own
    (`asked`), by campaign.yaml's `extension:`, at most `extensions:` times."""
    from cok.core.campaign import open_campaign
    from cok.service.drafts import Draft, Who
    from cok.service.recording import Refusal, record

    campaign = open_campaign(Path(folder)).valid()
    plan = schedule(campaign)
    named = _player(campaign, player) if player is not None else None
    if isinstance(by, Who) and not by.organiser:
        own = _player(campaign, by.name)
        if named is not None and named != own:
            raise Refusal(campaign.shown, RuleError(f"{by.name} may extend only their own deadlines"), ruling=False)
        named, asked = own, True
    if asked:
        if named is None:
            raise Refusal(campaign.shown, RuleError("a player asks for their own time: name the player"), ruling=False)
        if length is not None and length != plan.extension:
            said = f"a player's own ask lasts {plan.extension} (campaign.yaml's `extension:`), not {length}"
            raise Refusal(campaign.shown, RuleError(said), ruling=False)
        length = plan.extension
    if length is None:
        raise Refusal(campaign.shown, RuleError("how much longer? a length of time like 24h or 2d"))
    fields: dict[str, Any] = {"length": length}
    fields.update({"player": named} if named is not None else {})
    fields.update({"step": step} if step is not None else {})
    fields.update({"asked": True} if asked else {})
    return record(campaign.folder, [Draft("extend", fields)], by=by, followers=followers, dry_run=dry_run)


def back(
    folder: Path | str,
    player: str,
    *,
    by: Who | str | None = None,
    followers: Followers | None = None,
    dry_run: bool = False,
) -> Recording:
    """An absent player brought back (a `present` event): by an organiser, or by the player
    themselves ("I'm back", from their page: an absent player's turns are defaulted as soon as
    they open, so saying so is how they act again). Their waits have a whole deadline again."""
    from cok.core.campaign import open_campaign
    from cok.service.drafts import Draft, Who
    from cok.service.recording import Refusal, record

    campaign = open_campaign(Path(folder)).valid()
    named = _player(campaign, player)
    if isinstance(by, Who) and not by.organiser and _player(campaign, by.name) != named:
        said = f"{by.name} may bring back only themselves; an organiser brings back another player"
        raise Refusal(campaign.shown, RuleError(said), ruling=False)
    return record(campaign.folder, [Draft("present", {"player": named})], by=by, followers=followers, dry_run=dry_run)


def _player(campaign: Campaign, typed: str) -> str:
    """A player's id as typed in any spelling the game accepts (Refused: an unknown one)."""
    try:
        return str(campaign.ruleset.player(campaign.state, typed))
    except RuleError as error:
        raise Refused(Problem(campaign.shown, None, str(error))) from None
