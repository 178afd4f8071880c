"""The outbox: posts waiting to be sent, one small file each in the user data folder, keyed
by the event id, so that posting never slows or fails a recording, survives a restart and
reaches each destination at most once. Filled by the service's first follower of every write
(service/followers.py: after the lock, before the answer), emptied by `send` off the lock
(`cok serve`'s courier, or `cok notify send`)."""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cok.core.folders import write_private
from cok.notify.destinations import Destination, Settings, settings
from cok.notify.home import campaign_home, organisers, read_json
from cok.notify.posts import Post, posts
from cok.notify.retry_after import Busy

if TYPE_CHECKING:
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
    return Prepared(kept, made, time.time())


def put(folder: Path, made: Prepared) -> int:
    """The prepared posts written to the outbox, each at most once; the number queued."""
    kept, now, home = made.kept, made.at, campaign_home(folder)
    queued = 0
    club = [d for d in kept.destinations if d.player is None]
    for post in made.posts:
        own = [d.key for d in kept.destinations if d.player is not None and d.player == post.waits_for]
        # a nudge goes to the person's own destination (a direct message) when they have one,
        # instead of the club's channel; every other post to the club's channel alone
        to = own if post.kind == "nudge" and own else [d.key for d in club if post.kind in d.only]
        turn = post.kind == "nudge" and post.about is None  # the game's "whose turn": once a person
        if turn and not _newly_waiting(home, post.waits_for):
            continue  # the ledger still waits for the one already nudged: once, then the reminder
        if to:
            queued += _put(home, post, to, now)
            if post.kind == "nudge":  # posted again after the organiser's delay if still waiting
                again = Post(f"{post.key}.again", "nudge", post.text, post.waits_for, post.about)
                queued += _put(home, again, to, now + kept.remind)
    if not any(p.kind == "nudge" and p.about is None for p in made.posts):
        _newly_waiting(home, None)  # no one holds the ledger up: the next one waited for is nudged
    return queued


def _newly_waiting(home: Path, who: str | None) -> bool:
    """Whether the ledger now waits for someone it did not wait for at the last nudge."""
    path = home / "waiting.json"
    if read_json(path) == {"who": who}:
        return False
    write_private(path, {"who": who})
    return True


def _put(home: Path, post: Post, to: list[str], due: float) -> int:
    path = home / "outbox" / f"{post.key}.json"
    if path.exists() or (home / "sent" / post.key).exists():
        return 0  # at most once: this event's post is already queued or sent
    entry = {
        "key": post.key,
        "queued": time.time_ns(),  # posts go out in the order they were queued
        "kind": post.kind,
        "text": post.text,
        "waits_for": post.waits_for,
        "about": post.about,
        "to": {k: {"sent": False, "tries": 0, "due": due, "error": None} for k in to},
    }
    write_private(path, entry)
    return 1


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
    for path in sorted(_box(folder).glob("*.json")) if _box(folder).is_dir() else []:
        entry = read_json(path)
        if not isinstance(entry, dict):
            continue
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
#: Whether the ledger still waits for this person (and, for a nudge about one thing, still
#: asks it: `confirm:ID`, `settle:ID`): a reminder is posted only then.
StillWaits = Callable[[str | None, str | None], bool]


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
    if not took and asked:
        raise Busy(max(asked))
    return took


def send(
    folder: Path,
    *,
    sender: Sender = apprise_send,
    now: Callable[[], float] = time.time,
    mentions: dict[str, str] | None = None,
    still_waits: StillWaits | None = None,
) -> tuple[int, int]:
    """Every post due sent to each destination not yet reached (off the lock); a failure is
    kept with its error and tried again later, each time waiting twice as long. A reminder
    whose person no longer holds up the ledger is dropped. (sent, failed)."""
    from filelock import FileLock

    home = campaign_home(folder)
    home.mkdir(parents=True, exist_ok=True)
    with FileLock(home / "sending.lock"):  # `cok serve` and `cok notify send` at once: each post sent once
        return _send(folder, sender, now, mentions, still_waits)


def _send(
    folder: Path,
    sender: Sender,
    now: Callable[[], float],
    mentions: dict[str, str] | None,
    still_waits: StillWaits | None,
) -> tuple[int, int]:
    from cok.notify.mentions import mentions as known

    handles = known(folder) if mentions is None else mentions
    by_key = {d.key: d for d in settings(folder).destinations}
    sent = failed = 0
    failing: set[str] = set()  # a destination that failed this round is not tried again in it
    box = _box(folder)
    for path, entry in _queued(box):
        who = entry.get("waits_for")
        due = min(t["due"] for t in entry["to"].values()) <= now()
        about = entry.get("about")
        asks = who or about
        if entry["key"].endswith(".again") and due and asks and still_waits is not None and not still_waits(who, about):
            _done(folder, path, entry["key"])  # a reminder only while the ledger still waits for them
            continue
        text = str(entry["text"]).replace("{who}", handles.get(who, str(who)) if who else "")
        changed = False
        for key, to in entry["to"].items():
            destination = by_key.get(key)
            if to["sent"] or destination is None or to["due"] > now() or key in failing:
                continue
            changed = True
            wait = None
            try:
                ok = bool(sender(destination, text))
                error = None if ok else "the service refused it or could not be reached"
            except Busy as busy:  # 429 with its wait: the next try no sooner (issue 39)
                ok, error, wait = False, str(busy), busy.seconds
            except Exception as broken:  # a library's failure is a failed post, never a crash
                ok, error = False, str(broken) or type(broken).__name__
            if ok:
                to.update(sent=True, error=None)
                sent += 1
            else:
                to["tries"] += 1
                backoff = min(FIRST_WAIT * 2 ** (to["tries"] - 1), LONGEST_WAIT)
                to["due"] = now() + (backoff if wait is None else wait)
                to["error"] = error
                failed += 1
                failing.add(key)
        if all(t["sent"] or k not in by_key for k, t in entry["to"].items()):
            _done(folder, path, entry["key"])
        elif changed:
            write_private(path, entry)
    return sent, failed


def _queued(box: Path) -> list[tuple[Path, Any]]:
    """The outbox's entries, oldest first (an unreadable one is left for `status` to show)."""
    found = [(path, read_json(path)) for path in box.glob("*.json")] if box.is_dir() else []
    return sorted(
        ((p, e) for p, e in found if isinstance(e, dict)), key=lambda pe: (pe[1].get("queued", 0), pe[0].name)
    )


def _done(folder: Path, path: Path, key: str) -> None:
    """Sent everywhere: remembered as sent (so the same event is never queued again)."""
    marker = _sent(folder) / key
    marker.parent.mkdir(parents=True, exist_ok=True)
    marker.touch()
    with contextlib.suppress(OSError):
        os.unlink(path)
