"""Voiding an event, for every interface alike (`cok void`, the organiser's void page, the
API): the event named as a person names it (its whole id, a unique start of it, `@LINE`),
what voiding it takes with it (the later events that stand only because of it: the core's
`Dependants`), and the void recorded through `service.record`, with those events' voids as
one change when the caller says so (`--cascade`, the page's confirmed preview)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from cok.core.errors import Problem, Refused, RuleError
from cok.service.drafts import Draft, Who
from cok.service.recording import Recording, Refusal

if TYPE_CHECKING:
    from cok.core.campaign import Campaign

#: The fewest characters of an id taken as its prefix (as git takes a commit's).
SHORTEST = 4

#: How the interface records drafts (dry run or not): `service.record` unless it keeps its
#: own way (the command line asks at a terminal and prints; the server keeps its ledger warm).
Put = Callable[[Sequence[Draft], bool], Recording]


@dataclass(frozen=True)
class Takes:
    """What voiding an event takes with it: the later events that stand only because of it."""

    target: str  # the event's reference, as the log's void names it
    following: list[tuple[str, int | None, str]] = field(default_factory=list)  # reference, line, why refused
    words: str = ""  # the target as the log tells it ("week 5 — Sara beat Dany at Hornwood")

    @property
    def refs(self) -> list[str]:
        """The target, then every event voided with it."""
        return [self.target, *(ref for ref, _, _ in self.following)]


class Dependent(Refusal):
    """Voiding without `cascade` would leave later events refused: nothing written. The
    message lists them (the core's words); `takes` is what a cascade would void."""

    def __init__(self, shown: str, rule: RuleError, takes: Takes) -> None:
        super().__init__(shown, rule, ruling=False)
        self.takes = takes


def event_ref(campaign: Campaign, typed: str) -> str:
    """The reference of the event a person names: `@LINE` of events.yaml, the whole id, or
    any unique start of it of at least 4 characters, as git takes a commit's; an id-less
    event's `=…` reference with or without its `=`. RuleError saying why none (several
    events starting so are listed)."""
    typed = typed.strip()
    if typed.startswith("@"):
        return _by_line(campaign, typed)
    if typed in campaign.ids():  # the usual case: an id copied whole from `cok log`
        return typed
    bare = typed.removeprefix("=").casefold()
    if len(bare) < SHORTEST:
        raise RuleError(f"{typed!r}: give at least {SHORTEST} characters of the event's id (see `cok log`)")
    matches = [t for t in campaign.told() if t.ref and t.ref.removeprefix("=").casefold().startswith(bare)]
    if len(matches) == 1 and matches[0].ref:
        return matches[0].ref
    if matches:
        listed = "\n".join(f"  {t.ref}  line {t.line}: {t.text}" for t in matches)
        raise RuleError(f"{typed!r} starts the ids of {len(matches)} events; give more of the one you mean:\n{listed}")
    raise RuleError(f"no event has an id starting {typed!r} (the ids are in `cok log`)")


def _by_line(campaign: Campaign, typed: str) -> str:
    """The reference of the event that starts on a line of the log (`@39`)."""
    line = typed[1:]
    if not line.isdigit():
        raise RuleError(f"{typed!r}: write @ and a line number of events.yaml, like @39")
    near = []
    for told in campaign.told():
        if told.line == int(line) and told.ref:
            return told.ref
        if abs(told.line - int(line)) <= 10:
            near.append(told.line)
    hint = f"; events start on lines {', '.join(map(str, near))}" if near else ""
    raise RuleError(f"no event starts on line {line} of {campaign.shown}{hint}")


def takes(campaign: Campaign, typed: str, reason: str, *, by: Who | str | None = None, put: Put | None = None) -> Takes:
    """What a void of the event named `typed` would take with it, and the event in words:
    the preview of a void (nothing written)."""
    target = _target(campaign, typed)
    words = next((t.text for t in campaign.told() if target in (t.ref, t.id)), "")
    try:
        _put(campaign, by, put)([_void_of(target, reason, None)], True)
    except (Refused, RuleError) as refused:
        found = _dependants(refused, target)
        if found is None:
            raise
        return Takes(target, found.following, words)
    return Takes(target, [], words)


def void(
    folder: Path,
    typed: str,
    reason: str,
    *,
    cascade: bool = False,
    by: Who | str | None = None,
    note: str | None = None,
    dry_run: bool = False,
    previewed: Sequence[str] | None = None,
    campaign: Campaign | None = None,
    put: Put | None = None,
) -> Recording:
    """Void the event named `typed` (a whole id, a unique start of it, `@LINE`). When later
    events stand only because of it: with `cascade`, their voids are recorded with it as
    one change (each saying what it depends on); without, `Dependent` (nothing written).
    `previewed`: the references a preview showed (`Takes.refs`): anything else taken is
    refused, so that a confirmation voids only what it was shown. `put`: how the interface
    records drafts (default: `service.record` on the folder)."""
    from cok.core.campaign import open_campaign

    opened = campaign if campaign is not None else open_campaign(Path(folder))
    target = _target(opened, typed)
    record = _put(opened, by, put)
    following: list[tuple[str, int | None, str]] = []
    try:
        if previewed is None or list(previewed) == [target]:  # one replay when nothing depends on it
            return record([_void_of(target, reason, note)], dry_run)
    except (Refused, RuleError) as refused:
        found = _dependants(refused, target)
        if found is None:
            raise
        if not cascade:
            raise Dependent(opened.shown, _rule(refused), found) from None
        following = found.following
    else:  # a preview showed more than the target alone: what it takes is found first
        following = takes(opened, target, reason, by=by, put=put).following
    _as_previewed(opened, previewed, Takes(target, following))
    drafts = [_void_of(target, reason, note)]
    drafts += [_void_of(ref, f"{reason} (depends on {target})", note) for ref, _, _ in following]
    return record(drafts, dry_run)


def _target(campaign: Campaign, typed: str) -> str:
    try:
        return event_ref(campaign, typed)
    except RuleError as unknown:
        raise Refusal(campaign.shown, unknown, ruling=False) from None


def _void_of(target: str, reason: str, note: str | None) -> Draft:
    return Draft("void", {"target": target, "reason": reason, **({"note": note} if note is not None else {})})


def _put(campaign: Campaign, by: Who | str | None, put: Put | None) -> Put:
    if put is not None:
        return put
    from cok.service.recording import record

    return lambda drafts, dry_run: record(campaign.folder, drafts, by=by, dry_run=dry_run)


def _rule(refused: Exception) -> RuleError:
    rule = getattr(refused, "rule", refused)
    return rule if isinstance(rule, RuleError) else RuleError(str(refused))


def _dependants(refused: Exception, target: str) -> Takes | None:
    """The events the core's `Dependants` lists in a refusal (the service's or the rules'
    own, as an interface's recording raised it); None for any other refusal."""
    from cok.core.ledger import Dependants

    rule = getattr(refused, "rule", refused)
    if not isinstance(rule, Dependants):
        return None
    return Takes(target, [(r.ref, r.problem.line, r.problem.message) for r in rule.refusals])


def _as_previewed(campaign: Campaign, previewed: Sequence[str] | None, now: Takes) -> None:
    """A confirmation voids only what its preview showed: another event, or a log that
    changed what the void takes with it, is refused (nothing written)."""
    if previewed is not None and list(previewed) != now.refs:
        raise Refused(
            Problem(
                campaign.shown,
                None,
                "what this void takes changed since it was shown (another event, or the log changed): "
                "see what it takes now; nothing was voided",
            )
        )
