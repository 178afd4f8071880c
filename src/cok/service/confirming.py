"""The other side's word on a result (docs/confirm.md), for every interface: where each
result stands, who the ledger waits on for a confirmation, the open disputes, and who may
confirm, dispute or settle — only the other side of a result or an organiser, never whoever
recorded it; a dispute is settled only by an organiser."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, cast

from cok.core.confirmation import AWAITING, CONFIRMED, DISPUTED, Result, open_disputes, results, waiting_on
from cok.core.errors import RuleError
from cok.core.folders import mentions
from cok.service.drafts import Draft, Who

if TYPE_CHECKING:
    from cok.core.campaign import Campaign
    from cok.core.events import EventBase
    from cok.core.history import Told

__all__ = ["Result", "check", "disputes", "mark", "may_answer", "refusal", "required", "standing", "waiting"]

#: What each verdict may follow: a result is confirmed while awaiting; disputed while awaiting
#: or confirmed (never twice while open, nor once an organiser kept it); settled while disputed.
FROM = {"confirm": (AWAITING,), "dispute": (AWAITING, CONFIRMED), "settle": (DISPUTED,)}


def standing(campaign: Campaign) -> dict[str, Result]:
    """Every result of the campaign by id, with where it stands."""
    return results(campaign.ruleset, campaign.told())


def waiting(campaign: Campaign) -> dict[str, list[Result]]:
    """Who the ledger waits on for a confirmation (a player -> the results awaiting their
    word): what a nudge asks them (the notify work reads it here)."""
    return waiting_on(standing(campaign))


def disputes(campaign: Campaign) -> list[Result]:
    """The disputes an organiser has yet to settle (keep, or void)."""
    return open_disputes(standing(campaign))


def required(campaign: Campaign) -> bool:
    """Whether `campaign.yaml` says `confirm: required` (results wait for the other side):
    read once per content of the file the campaign was opened with, from the game's settings
    model (a file without the word is not parsed: a warm `cok standings` reads no YAML)."""
    from cok.core.folders import read_bytes
    from cok.core.position import digest

    known = _REQUIRED.get(campaign.digests[0])
    if known is not None:
        return known
    raw = read_bytes(campaign.folder / "campaign.yaml", "campaign settings")
    found = b"confirm" in raw and _confirm(raw) == "required"
    _REQUIRED[digest(raw)] = found
    return found


#: `confirm:` by the digest of the settings file's bytes (a few campaigns in a process).
_REQUIRED: dict[str, bool] = {}


def _confirm(raw: bytes) -> str:
    """`confirm:` as the game's settings model reads it (checked when the campaign opened)."""
    from cok.core.settings import CampaignSettings, read_settings

    try:
        settings = read_settings(raw.decode("utf-8", "replace"), "campaign.yaml")[1]
    except Exception:  # changed since it was opened, and now refused: the next open says why
        return "optional"
    return str(settings.confirm) if isinstance(settings, CampaignSettings) else "optional"


def refusal(campaign: Campaign, kind: str, target: str, who: Who | str | None) -> str | None:
    """Why `who` may not record this verdict on `target` (a sentence naming who may), or None."""
    found = standing(campaign)
    result = found.get(target)
    if result is None:
        games = ", ".join(sorted(campaign.ruleset.results)) or "none"
        return f"{target!r} is not a result the other side confirms (this game's results: {games}; see `cok log`)"
    if who is None:  # at a terminal: $COK_BY, else the login, as the event's `by:` will say
        from cok.core.ledger import recorder

        who = recorder()
    name = who.name if isinstance(who, Who) else who
    organiser = isinstance(who, Who) and who.organiser
    if result.status not in FROM[kind]:
        return f"the result {target} is {result.status}: it cannot be {_past(kind)} now"
    if kind == "settle":
        return None  # an organiser's (the server's access says so; a terminal is the organiser's)
    player = _player(campaign, name)
    if not organiser and (name == result.by or player == result.by):
        others = " or ".join(result.other)
        return f"{result.by} recorded this result: only {others} (the other side) or an organiser may {kind} it"
    if isinstance(who, Who) and not organiser and player not in result.other:
        return f"only {' or '.join(result.other)} (the other side) or an organiser may {kind} the result {target}"
    if not isinstance(who, Who) and player in result.players and player not in result.other:
        return f"{player} is on the recorder's side: only {' or '.join(result.other)} or an organiser may {kind} it"
    return None


def may_answer(campaign: Campaign, draft: Draft, who: Who) -> bool:
    """Whether a player may record this confirmation or dispute (the access rule the server's
    403 follows): they are the other side of its result, and did not record it."""
    target = draft.fields.get("target") if isinstance(draft.fields, Mapping) else None
    return isinstance(target, str) and refusal(campaign, draft.type, target, who) is None


def check(campaign: Campaign, events: Sequence[EventBase], who: Who | str | None) -> None:
    """Each verdict among these events allowed, before anything is written (RuleError: why, and who may)."""
    from cok.core.events import Confirm, Dispute, Settle

    for event in events:
        if isinstance(event, (Confirm, Dispute, Settle)):
            said = refusal(campaign, event.type, event.target, who)
            if said is not None:
                raise RuleError(said)


def _player(campaign: Campaign, name: str | None) -> str | None:
    if name is None:
        return None
    try:
        return campaign.ruleset.player(campaign.state, name)
    except RuleError:
        return name


def _past(kind: str) -> str:
    return {"confirm": "confirmed", "dispute": "disputed", "settle": "settled"}[kind]


def mark(result: Result | None, awaiting_shown: bool) -> str:
    """The words a result is marked with where it is shown: always while disputed; while
    awaiting the other side only when the campaign requires confirmation."""
    if result is None or (result.status == AWAITING and not awaiting_shown):
        return ""
    return result.marked


def marked_history(campaign: Campaign, history: Iterable[Told]) -> Iterator[Told]:
    """The history with each disputed (or, when required, unconfirmed) result's sentence marked."""
    from dataclasses import replace

    if not marking(campaign):
        yield from history
        return
    found, shown = standing(campaign), required(campaign)
    for told in history:
        said = mark(found.get(told.id) if told.id is not None else None, shown)
        yield replace(told, text=f"{told.text} [{said}]") if said and not told.voided else told


def marking(campaign: Campaign) -> bool:
    """Whether anything can be marked at all: the log holds a dispute, or results wait for
    confirmation (most logs: neither, and the history is not read)."""
    known = campaign.mentions_dispute()  # as the campaign was read (and cached): no log read again
    found = known if known is not None else mentions_dispute(campaign.events_file)
    return True if found is None else found or required(campaign)


#: What `mentions_dispute` read of each log: (device, inode) -> (size, mtime, the last bytes
#: read, whether `dispute` was in them).
_READ: dict[tuple[int, int], tuple[int, int, bytes, bool]] = {}
_TAIL = 64


def mentions_dispute(log: Path) -> bool | None:
    """Whether the log's text holds `dispute` (None: it cannot be read). A log that only
    grew since it was last asked (the same file, its bytes before still ending as they did)
    is read from there: the first page after a recording at 100,000 events read 20 MB
    for this (issue #37). Once found, a later edit taking it out still reads as found:
    the history is then read for marks, which finds none."""
    import os

    word = b"dispute"
    try:
        with open(log, "rb") as handle:
            info = os.fstat(handle.fileno())
            key, size = (info.st_dev, info.st_ino), info.st_size
            known, start, before = _READ.get(key), 0, False
            if known is not None:
                seen, mtime, tail, was = known
                if seen < size or (seen == size and mtime == info.st_mtime_ns):
                    handle.seek(seen - len(tail))
                    if handle.read(len(tail)) == tail:  # only grew
                        if seen == size:
                            return was
                        before, start = was, (size if was else max(0, seen - len(word) + 1))
            found = before or mentions(handle, (word,), start, size)  # never the 20 MB log whole
            handle.seek(max(0, size - _TAIL))
            last = handle.read(_TAIL)
    except OSError:
        return None
    if len(_READ) > 16:
        _READ.clear()
    _READ[key] = (size, info.st_mtime_ns, last, found)
    return found


def open_results(campaign: Campaign) -> tuple[list[str], dict[str, list[dict[str, object]]]]:
    """What the organiser is told by `cok check` and `cok standings` (docs/confirm.md): each
    open dispute, and each result still awaiting the other side when confirmation is
    required, as lines and as `--json` shows them (the results decided once for both)."""
    if not marking(campaign):
        return [], {}
    found = standing(campaign)
    shown = required(campaign)
    lines = [
        f"disputed: {r.id} (line {r.line}) {r.text} — {r.said_by}: {r.reason}; "
        f"an organiser keeps it (cok settle {r.id} --reason …) or voids it (cok void {r.id} --reason …)"
        for r in open_disputes(found)
    ]
    if found and shown:
        lines += [
            f"awaiting confirmation by {' or '.join(r.other)}: {r.id} {r.text}"
            for r in found.values()
            if r.status == AWAITING
        ]
    pick = [(r.status, r) for r in found.values() if r.status == DISPUTED or (shown and r.status == AWAITING)]
    document = {
        status: [{"id": r.id, "summary": r.text, **r.document()} for s, r in pick if s == status]
        for status in (DISPUTED, AWAITING)
        if any(s == status for s, _ in pick)
    }
    return lines, document


class _Marked:
    """A campaign whose history tells each disputed (or, when required, unconfirmed) result
    marked: what the site's pages are made of, so that every page showing it says so."""

    def __init__(self, campaign: Campaign) -> None:
        self._campaign = campaign

    def __getattr__(self, name: str) -> object:
        return getattr(self._campaign, name)

    def told(self) -> Iterator[Told]:
        return marked_history(self._campaign, self._campaign.told())


def for_site(campaign: Campaign) -> Campaign:
    """The campaign as the site shows it (`cok site`, the served pages): its disputed results
    marked wherever their sentences appear (the latest battles, the log, a player's page)."""
    if not campaign.ruleset.results or not marking(campaign):
        return campaign
    found, shown = standing(campaign), None
    if not any(r.status == DISPUTED for r in found.values()):
        shown = required(campaign) and any(r.status == AWAITING for r in found.values())
        if not shown:
            return campaign
    return cast("Campaign", _Marked(campaign))


def confirmation_of(campaign: Campaign) -> Callable[[Told], dict[str, object] | None]:
    """Each result's standing as `cok log --json` shows it (its `confirmation` field). A log
    holding no confirmation, dispute or settling is not read twice: each result awaits."""
    try:
        with open(campaign.events_file, "rb") as handle:
            answered = mentions(handle, (b"confirm", b"dispute", b"settle"))
    except OSError:
        answered = True
    if not answered:
        ruleset = campaign.ruleset

        def alone(told: Told) -> dict[str, object] | None:
            found = results(ruleset, (told,))
            return found[told.id].document() if told.id in found else None

        return alone
    found = standing(campaign)
    return lambda told: found[told.id].document() if told.id in found else None
