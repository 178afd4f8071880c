"""What is posted for a recording, in the log's own words (`cok log`'s told sentences): each
event of a kind the destination takes, a short summary when a week, month or round begins,
and a nudge when the ledger waits for one person. Only public told text: nothing sealed."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from cok.core.ledger import Recorded

BEGINNINGS = frozenset({"week", "month", "season", "round"})


@dataclass(frozen=True)
class Post:
    key: str  # the outbox key: the event id and what the post is for (at most once each)
    kind: str  # one of destinations.KINDS
    text: str
    waits_for: str | None = None  # a nudge's player (or organiser)
    #: what a nudge other than the game's turn asks (`confirm:ID`, `settle:ID`): its reminder
    #: is posted only while it is still asked; None for the game's own "whose turn"
    about: str | None = None
    #: the game's "whose turn": what it asks, and in which period (`year 1, month 3`): a
    #: reminder is for this same wait, never the same question a month later
    what: str | None = None
    period: str | None = None


def kind_of(ruleset: Any, event_type: str) -> str | None:
    """The post kind of an event type: the core's void, else the game's own mapping."""
    if event_type == "void":
        return "void"
    mapping: Mapping[str, str] = ruleset.notify_kinds
    return mapping.get(event_type)


def posts(done: Sequence[Recorded], server: str | None = None, organisers: Sequence[str] = ()) -> list[Post]:
    """The posts of one recording (each event, then the summary and the nudges after it:
    whose turn it is, the other side of a new result, the organisers of a new dispute)."""
    if not done or not done[0].written:
        return []
    made: list[Post] = []
    link = f"\n{server.rstrip('/')}/activity" if server else ""
    for recorded in done:
        event = recorded.event
        kind = kind_of(recorded.campaign.ruleset, event.type)
        if kind is not None:
            made.append(Post(f"{event.id}", kind, f"{recorded.text}{_took_back(recorded)}{link}"))
        made += [Post(f"{event.id}.opens", kind, text + link) for kind, text in _opened(recorded)]
    last = done[-1]
    over = last.campaign.ruleset.notify_ended(last)
    if over:
        made.append(Post(f"{last.event.id}.end", "end", over + link))
    if any(p.kind in BEGINNINGS for p in made):
        summary = _summary(last.campaign)
        if summary:
            made.append(Post(f"{last.event.id}.summary", "summary", summary + link))
    waits = waiting(last.campaign)
    if waits is not None:
        text = f"The ledger waits for {{who}}: {waits[1]}.{link}"  # {who}: their chat handle, at sending
        made.append(Post(f"{last.event.id}.nudge", "nudge", text, waits[0], None, waits[1], _period(last.campaign)))
    for recorded in done:
        made += _answers_asked(recorded, link, organisers)
    return made


def _answers_asked(recorded: Recorded, link: str, organisers: Sequence[str]) -> list[Post]:
    """The nudges a new result or dispute asks for (issue 39): the other side of a battle a
    player recorded, to confirm or dispute it; every organiser, to settle a dispute."""
    event, ruleset = recorded.event, recorded.campaign.ruleset
    if event.type in ruleset.results:
        other = sorted(ruleset.other_side(ruleset.involved(event), event.by))
        asked = (
            f"to confirm or dispute the result {event.id}: {recorded.text} "
            f"(cok confirm {event.id}, or cok dispute {event.id} --reason …)"
        )
        return [
            Post(
                f"{event.id}.confirm.{p}",
                "nudge",
                f"The ledger waits for {{who}}: {asked}.{link}",
                p,
                f"confirm:{event.id}",
            )
            for p in other
        ]
    target = getattr(event, "target", None)
    if event.type != "dispute" or target is None:
        return []
    asked = (
        f"to settle a dispute: {recorded.text}. Keep the result (cok settle {target} --reason …) "
        f"or void it (cok void {target} --reason …).{link}"
    )
    about = f"settle:{target}"
    return [
        Post(f"{event.id}.settle.{o}", "nudge", f"The ledger waits for {{who}} (organiser) {asked}", o, about)
        for o in organisers
    ] or [Post(f"{event.id}.settle", "nudge", f"The ledger waits for an organiser {asked}", None, about)]


def _opened(recorded: Recorded) -> list[tuple[str, str]]:
    """What an event opens besides its own post (each game's `notify_opened`): No True
    King's last exchange of a round opens the next round."""
    try:
        found: tuple[str, str] | None = recorded.campaign.ruleset.notify_opened(recorded)
    except Exception:  # a post is never worth failing a recording
        return []
    return [found] if found else []


def _period(campaign: Any) -> str | None:
    """The game's period now (`week 3`, `year 1, month 2`, `round 2`), naming which wait."""
    try:
        return str(campaign.ruleset.period(campaign.state))
    except Exception:
        return None


def _took_back(recorded: Recorded) -> str:
    """A void's post names what it took back: the voided event as `cok log` tells it."""
    target = getattr(recorded.event, "target", None)
    if recorded.event.type != "void" or target is None:
        return ""
    try:
        told = next((t for t in recorded.campaign.told() if target in (t.id, t.ref)), None)
    except Exception:  # the void's own words already name it by id
        return ""
    return f" (took back: {told.text})" if told is not None else ""


def waiting(campaign: Any) -> tuple[str, str] | None:
    """(player, what) when the ledger waits for one person (each game's `notify_waits`)."""
    try:
        found: tuple[str, str] | None = campaign.ruleset.notify_waits(campaign)
    except Exception:  # a summary is never worth failing a post
        return None
    return found


def _summary(campaign: Any) -> str:
    """Leaders from the standings, the points limit or the phase, and who the ledger waits for."""
    try:
        document = campaign.ruleset.standings(campaign).document
    except Exception:
        return ""
    rows = next((v for v in document.values() if isinstance(v, list) and v and isinstance(v[0], dict)), [])
    leaders = [str(r.get("name") or r.get("id")) for r in rows if r.get("rank") == 1]
    parts = []
    when = [f"{k} {document[k]}" for k in ("year", "season", "month", "week", "round") if document.get(k) is not None]
    if when:
        parts.append("Now " + ", ".join(when) + ".")
    if leaders:
        parts.append("Leading: " + ", ".join(leaders) + ".")
    if document.get("points_limit") is not None:
        parts.append(f"Points limit: {document['points_limit']}.")
    waits = waiting(campaign)
    if waits is not None:
        parts.append(f"Waiting for {waits[0]}: {waits[1]}.")
    due = next_due(campaign)
    if due:
        parts.append(due)
    return " ".join(parts)


def next_due(campaign: Any) -> str:
    """The campaign's next deadline in words, in its time zone ("Next due: orders for bo-4
    and bo-5 from bo by Thu 3 Dec 20:00 (Europe/London)."); "" when nothing is due. Said as a
    moment, never "in 2 days": a post is read later than it is written."""
    from cok.core import deadlines
    from cok.core.waiting import clock_of
    from cok.notify.reminders import said

    clock = clock_of(campaign.state)
    if clock is None:
        return ""
    try:
        found = deadlines.pending(clock, campaign.ruleset.waits(campaign.state))
    except Exception:  # a summary is never worth failing a post
        return ""
    first = deadlines.first_due(found)
    if first is None:
        return ""
    who = f" from {first.wait.who}" if first.wait.who is not None else " from the organisers"
    return f"Next due: {first.wait.what}{who} by {said(first, clock.zone())} ({clock.tz})."
