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
    waits_for: str | None = None  # a nudge's player


def kind_of(ruleset: Any, event_type: str) -> str | None:
    """The post kind of an event type: the core's void, else the game's own mapping."""
    if event_type == "void":
        return "void"
    mapping: Mapping[str, str] = getattr(ruleset, "notify_kinds", {})
    return mapping.get(event_type)


def posts(done: Sequence[Recorded], server: str | None = None) -> list[Post]:
    """The posts of one recording (each event, then the summary and the nudge after it)."""
    if not done or not done[0].written:
        return []
    made: list[Post] = []
    link = f"\n{server.rstrip('/')}/activity" if server else ""
    for recorded in done:
        event = recorded.event
        kind = kind_of(recorded.campaign.ruleset, event.type)
        if kind is not None:
            made.append(Post(f"{event.id}", kind, f"{recorded.text}{_took_back(recorded)}{link}"))
    last = done[-1]
    ended = getattr(last.campaign.ruleset, "notify_ended", None)
    over = ended(last) if ended is not None else None
    if over:
        made.append(Post(f"{last.event.id}.end", "end", over + link))
    if any(p.kind in BEGINNINGS for p in made):
        summary = _summary(last.campaign)
        if summary:
            made.append(Post(f"{last.event.id}.summary", "summary", summary + link))
    waits = waiting(last.campaign)
    if waits is not None:
        text = f"The ledger waits for {{who}}: {waits[1]}.{link}"  # {who}: their chat handle, at sending
        made.append(Post(f"{last.event.id}.nudge", "nudge", text, waits[0]))
    return made


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
    waits = getattr(campaign.ruleset, "notify_waits", None)
    if waits is None:
        return None
    try:
        found: tuple[str, str] | None = waits(campaign)
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
    return " ".join(parts)
