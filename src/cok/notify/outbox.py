"""The outbox: posts waiting to be sent, one small file each in the user data folder, keyed
by the event id, so that posting never slows or fails a recording, survives a restart and
reaches each destination at most once. Filled by the service's first follower of every write
(service/followers.py: after the lock, before the answer), emptied by `send` off the lock
(`cok serve`'s courier, or `cok notify send`)."""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cok.core.folders import EVENTS_FILE, write_private
from cok.notify.asked import Asked, asked_now
from cok.notify.destinations import Destination, Settings, settings
from cok.notify.home import campaign_home, organisers, read_json
from cok.notify.inert import allowing, inert, service
from cok.notify.posts import Post, posts
from cok.notify.reminders import ABOUT, due_now
from cok.notify.retry_after import Busy

if TYPE_CHECKING:
    import datetime as dt

    from cok.core.campaign import Campaign
    from cok.core.deadlines import Wait
    from cok.service.change import Change

FIRST_WAIT = 10  # seconds before the first retry; doubled at each failure
LONGEST_WAIT = 3600


def _box(folder: Path) -> Path:
    return campaign_home(folder) / "outbox"


def _sent(folder: Path) -> Path:
    return campaign_home(folder) / "sent"


def enqueue(folder: Path, recording: Change) -> int:
    """The change's posts put in the outbox (the service's follower of every write: no
    network here); the number of posts queued. Nothing when no destination."""
    made = prepared(folder, recording)
    return 0 if made is None else put(folder, made)


@dataclass(frozen=True)
class Prepared:
    """A recording's posts, made from it under the lock (words and state of that moment),
    not yet written to the outbox."""

    kept: Settings
    posts: list[Post]
    at: float
    last: str = ""  # the recording's last event id: where a wait it begins began


def prepared(folder: Path, recording: Change) -> Prepared | None:
    """The posts of a recording (cheap: no write; the organisers' names read only for a
    dispute); None when the campaign has no destination or nothing was written."""
    try:
        kept = settings(folder)
    except Exception:  # no data folder (no home): then no destination was ever added
        return None
    if not kept.destinations or not recording.written:
        return None
    disputed = any(r.event.type == "dispute" for r in recording.recorded)
    made = posts(recording.recorded, kept.server, organisers(folder) if disputed else ())
    return Prepared(kept, made, time.time(), str(recording.events[-1].id or "") if recording.events else "")


def put(folder: Path, made: Prepared) -> int:
    """The prepared posts written to the outbox, each at most once; the number queued. The
    game's "whose turn" is nudged once a wait (the same person asked the same thing in the
    same period, unbroken): the wait is kept in `waiting.json` with the event it began at."""
    kept, now, home = made.kept, made.at, campaign_home(folder)
    queued = 0
    club = [d for d in kept.destinations if d.player is None]
    turn = next((p for p in made.posts if p.kind == "nudge" and p.about is None), None)
    tracked = read_json(home / "waiting.json")
    tracked = tracked if isinstance(tracked, dict) else {}
    wait = None if turn is None else {"who": turn.waits_for, "what": turn.what, "period": turn.period}
    same = wait is not None and all(tracked.get(k) == v for k, v in wait.items())
    since = tracked.get("since") if same else made.last if wait is not None else None
    for post in made.posts:
        if post is turn and same:
            continue  # the ledger still waits for the one already nudged: once, then the reminder
        own = [d.key for d in kept.destinations if d.player is not None and d.player == post.waits_for]
        # a nudge goes to the person's own destination (a direct message) when they have one,
        # instead of the club's channel; every other post to the club's channel alone
        to = own if post.kind == "nudge" and own else [d.key for d in club if post.kind in d.only]
        if to:
            wait_of = {"since": since} if post is turn else {}
            queued += _put(home, post, to, now, wait_of)
            if post.kind == "nudge":  # posted again after the organiser's delay if still waiting
                again = replace(post, key=f"{post.key}.again")
                queued += _put(home, again, to, now + kept.remind, wait_of)
    write_private(home / "waiting.json", {**(wait or {"who": None}), "since": since, "seen": made.last})
    return queued


def remind(folder: Path, campaign: Campaign, now: dt.datetime, offsets: Sequence[int]) -> int:
    """The reminders before a deadline due at `now` queued (notify/reminders.py; `offsets`:
    the organiser's `reminders:` in seconds); how many."""
    found = due_now(campaign, now, offsets)
    return remind_posts(folder, found) if found else 0


def remind_posts(folder: Path, reminders: Sequence[tuple[str, str, Wait]]) -> int:
    """Reminders before a deadline (notify/reminders.py) queued as nudges, each at most once
    by its key (its wait and offset), to the person's own destination when they have one, else
    the club's; checked again when sent (a wait over by then is dropped). How many queued."""
    try:
        kept = settings(folder)
    except Exception:  # no data folder: no destination was ever added
        return 0
    home, queued = campaign_home(folder), 0
    for key, text, wait in reminders:
        post = Post(key, "nudge", text, wait.who, f"{ABOUT}{wait.key}", wait.what)
        own = [d.key for d in kept.destinations if d.player is not None and d.player == wait.who]
        to = own or [d.key for d in kept.destinations if d.player is None and "nudge" in d.only]
        if to:
            queued += _put(home, post, to, time.time(), {})
    return queued


def _put(home: Path, post: Post, to: list[str], due: float, wait: dict[str, Any]) -> int:
    path = home / "outbox" / f"{post.key}.json"
    if path.exists() or (home / "sent" / post.key).exists():
        return 0  # at most once: this event's post is already queued or sent
    entry = {
        "key": post.key,
        # each destination's posts go out in this order: when they were decided (the log's
        # order: decided under its lock), a reminder when it falls due; then as queued
        "order": due,
        "queued": _queued_at(),
        "kind": post.kind,
        "text": post.text,
        "waits_for": post.waits_for,
        "about": post.about,
        "what": post.what,
        "period": post.period,
        **wait,
        "to": {k: {"sent": False, "tries": 0, "due": due, "error": None} for k in to},
    }
    write_private(path, entry)
    return 1


_last_queued = 0


def _queued_at() -> int:
    """Now in nanoseconds, always after the last post this process queued: one recording's
    posts keep the order they were made in (its event, the summary, the nudges)."""
    global _last_queued
    _last_queued = max(time.time_ns(), _last_queued + 1)
    return _last_queued


@dataclass(frozen=True)
class Waiting:
    """A post not yet sent to a destination, as `cok notify status` shows it."""

    key: str
    kind: str
    destination: str  # masked
    tries: int
    due: float
    error: str | None


def pending(folder: Path) -> list[Waiting]:
    by_key = {d.key: d for d in settings(folder).destinations}
    found = []
    for _path, entry in _queued(_box(folder)):  # in the order they go out
        for key, to in entry.get("to", {}).items():
            if not to.get("sent") and key in by_key:
                found.append(
                    Waiting(entry["key"], entry["kind"], by_key[key].masked, to["tries"], to["due"], to.get("error"))
                )
    return found


def failed_posts(folder: Path) -> int:
    """How many posts have failed at least once and still wait (the organiser's Activity page)."""
    try:
        return sum(1 for w in pending(folder) if w.tries)
    except Exception:  # the page never fails for the chat's sake
        return 0


Sender = Callable[[Destination, str], "bool | None"]


def apprise_send(destination: Destination, text: str) -> bool:
    """One post through Apprise: True when the service took it. A service that answered
    429 saying how long to wait raises Busy with that wait (Apprise itself tells only
    success or failure: the answer is read where it passes, retry_after.py)."""
    import apprise

    from cok.notify.retry_after import Busy, watching

    bell = apprise.Apprise()
    if not bell.add(destination.url):
        return False
    with watching() as asked:
        took = bool(bell.notify(body=text, title="", body_format=apprise.NotifyFormat.TEXT))
    waits = [w for w in asked if w is not None]
    if not took and waits:
        raise Busy(max(waits))
    return took


def send(
    folder: Path,
    *,
    sender: Sender = apprise_send,
    now: Callable[[], float] = time.time,
    mentions: dict[str, str] | None = None,
    asked: Callable[[], Asked] | None = None,
) -> tuple[int, int]:
    """Every post due sent to each destination not yet reached (off the lock), each
    destination's in order; a failure is kept with its error and tried again later, each
    time waiting twice as long (or as long as a 429 asked), the destination's later posts
    waiting behind it. A nudge or reminder whose wait is over is dropped (`asked`: what
    the ledger asks now; by default read from the campaign). (sent, failed)."""
    from filelock import FileLock

    home = campaign_home(folder)
    home.mkdir(parents=True, exist_ok=True)
    with FileLock(home / "sending.lock"):  # `cok serve` and `cok notify send` at once: each post sent once
        return _send(folder, sender, now, mentions, asked or (lambda: asked_now(folder)))


def _send(
    folder: Path,
    sender: Sender,
    now: Callable[[], float],
    mentions: dict[str, str] | None,
    ask: Callable[[], Asked],
) -> tuple[int, int]:
    from cok.notify.mentions import mentions as known

    handles = known(folder) if mentions is None else mentions
    by_key = {d.key: d for d in settings(folder).destinations}
    home = campaign_home(folder)
    holds = _holds(home)
    tracked: Any = read_json(home / "waiting.json")
    sent = failed = 0
    blocked: set[str] = set()  # a destination with an earlier post still unsent: its later ones wait
    asked: Asked | None = None
    read_at: tuple[int, int] | None = None  # the log as it was when `asked` was read
    for path, entry in _queued(_box(folder)):
        unsent = {k: t for k, t in entry["to"].items() if not t["sent"] and k in by_key}
        if not unsent:
            _done(folder, path, entry["key"])
            continue
        ready = [k for k, t in unsent.items() if k not in blocked and max(t["due"], holds.get(k, 0.0)) <= now()]
        if ready and entry.get("kind") == "nudge":
            if asked is None or read_at != _log_stamp(folder):  # a recording meanwhile: read it again
                read_at = _log_stamp(folder)
                asked = _asking(ask)
            if not asked.still(entry, tracked if isinstance(tracked, dict) else None):
                _done(folder, path, entry["key"])  # its wait is over: dropped, never sent
                continue
        blocked.update(k for k in unsent if k not in ready)
        for key in ready:
            to, destination = unsent[key], by_key[key]
            wait = None
            try:
                ok = _post(sender, destination, entry, handles)
                error = None if ok else "the service refused it or could not be reached"
            except Busy as busy:  # 429 with its wait: nothing to it sooner (issue 39)
                ok, error, wait = False, str(busy), busy.seconds
            except Exception as broken:  # a library's failure is a failed post, never a crash
                ok, error = False, str(broken) or type(broken).__name__
            if ok:
                to.update(sent=True, error=None)
                sent += 1
            else:
                to["tries"] += 1
                backoff = min(FIRST_WAIT * 2 ** (to["tries"] - 1), LONGEST_WAIT)
                to["due"] = holds[key] = now() + (backoff if wait is None else wait)
                to["error"] = error
                failed += 1
                blocked.add(key)
        if all(t["sent"] or k not in by_key for k, t in entry["to"].items()):
            _done(folder, path, entry["key"])
        elif ready:  # tried: its tries, errors and next try kept (an untouched entry is not rewritten)
            write_private(path, entry)
    held = {k: v for k, v in holds.items() if v > now()}
    if held != _holds(home):
        write_private(home / "holds.json", held)
    return sent, failed


def _log_stamp(folder: Path) -> tuple[int, int]:
    """The event log's size and change time: another recording changes them."""
    try:
        found = (Path(folder) / EVENTS_FILE).stat()
    except OSError:
        return 0, 0
    return found.st_size, found.st_mtime_ns


def _asking(ask: Callable[[], Asked]) -> Asked:
    """What the ledger asks now; a log that cannot be read asks nothing (its nudges dropped)."""
    try:
        return ask()
    except Exception:
        return Asked()


def _post(sender: Sender, destination: Destination, entry: dict[str, Any], handles: dict[str, str]) -> bool:
    """The entry's text as this destination's service reads it: the player's words inert,
    the mention cok adds (the person's handle) live; on Discord, when the words held
    something a chat reads as a mention or a link, that one mention is also the only one
    allowed (Apprise's switch, which appends the mention once more: only when needed)."""
    to = service(destination.url)
    head, placed, tail = str(entry["text"]).partition("{who}")
    who = entry.get("waits_for")
    handle = handles.get(str(who)) if placed and who else None
    if not placed:
        return bool(sender(destination, inert(head, to)))
    named = handle if handle else inert(str(who) if who else "", to)
    text = inert(head, to) + named + inert(tail, to)
    hostile = inert(head + tail, "other") != head + tail
    allowed = allowing(destination.url, handle) if handle and hostile else destination.url
    return bool(sender(replace(destination, url=allowed) if allowed != destination.url else destination, text))


def next_due(folder: Path) -> float | None:
    """When the courier has something to send next: the earliest moment any destination's
    first unsent post may go (its due time, or the wait a 429 asked); None: nothing waits."""
    by_key = {d.key for d in settings(folder).destinations}
    holds = _holds(campaign_home(folder))
    heads: dict[str, float] = {}
    for _path, entry in _queued(_box(folder)):
        for key, to in entry.get("to", {}).items():
            if key in by_key and not to.get("sent") and key not in heads:
                heads[key] = max(float(to["due"]), holds.get(key, 0.0))
    return min(heads.values(), default=None)


def _holds(home: Path) -> dict[str, float]:
    """Destinations that asked to wait (429) or failed: nothing goes to them before then."""
    data = read_json(home / "holds.json")
    return {str(k): float(v) for k, v in data.items()} if isinstance(data, dict) else {}


def _queued(box: Path) -> list[tuple[Path, Any]]:
    """The outbox's entries in the order they go out (an unreadable one is left for `status`)."""
    found = [(path, read_json(path)) for path in box.glob("*.json")] if box.is_dir() else []
    return sorted(
        ((p, e) for p, e in found if isinstance(e, dict) and isinstance(e.get("to"), dict)),
        key=lambda pe: (pe[1].get("order", pe[1].get("queued", 0) / 1e9), pe[1].get("queued", 0), pe[0].name),
    )


def _done(folder: Path, path: Path, key: str) -> None:
    """Sent everywhere (or dropped): remembered, so the same post is never queued again."""
    marker = _sent(folder) / key
    marker.parent.mkdir(parents=True, exist_ok=True)
    marker.touch()
    with contextlib.suppress(OSError):
        os.unlink(path)
