"""Merging two branches of an event log (the `cok` git merge driver), by event identity.

An event is the same event on both sides when it has the same `id` (or, for an event written
by hand without one, the same text at the same place among identical ones). The merge is this
branch's log as it stands, with the other branch's new events woven in: never an event of
the common ancestor the other branch dropped, each branch's own order kept, and the other's
events placed by their time (`at`). Rebases, `pull --rebase` and cherry-picks go through the
same rule. The result is replayed on the campaign's rules. Where the branches cannot be merged
— an event recorded before they split was edited, or the merged log breaks a rule — the file
is left in conflict, with markers, so that both git and `cok check` stop.
"""

from __future__ import annotations

import datetime as dt
import subprocess
import sys
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from cok.core import ruleset as registry
from cok.core.campaign import read, set_up
from cok.core.errors import Refused, display_path
from cok.core.fold import fold
from cok.core.folders import SETTINGS_FILE
from cok.core.log import Log, read_log
from cok.core.ruleset import Ruleset

if TYPE_CHECKING:
    from cok.core.campaign import Setup

CANNOT = "the branches cannot be merged by themselves:"
DRIVER_NAME = "cok event log merge (append-only, by event id)"


@dataclass(frozen=True)
class Block:
    """One event's text in a log file, from its first line up to the next event's."""

    key: str
    text: str
    at: dt.datetime | None
    side: str


@dataclass(frozen=True)
class Merged:
    text: str
    problems: list[str]
    why: str = "the merged log breaks the rules; the events that clash:"

    @property
    def clean(self) -> bool:
        return not self.problems


def _parse(text: str, shown: str, ruleset: Ruleset) -> Log:
    return read_log(text.encode("utf-8"), text, shown, ruleset)


def _split(text: str, side: str, shown: str, ruleset: Ruleset) -> tuple[str, list[Block]]:
    """The text before the first event, and each event's block with its identity."""
    log = _parse(text, shown, ruleset)
    if log.problems:
        raise Refused(log.problems)
    lines = text.splitlines(keepends=True)
    if lines and not lines[-1].endswith("\n"):
        lines[-1] += "\n"
    starts = log.item_lines
    flow = log.position.empty_flow
    if flow is not None or not starts:
        head = "".join(lines) if flow is None else text[: flow[0]] + text[flow[1] :]
        return head.rstrip() + ("\n" if head.strip() else ""), []
    by_line = {entry.line: entry.event for entry in log.entries}
    blocks = []
    seen: dict[str, int] = {}
    for index, start in enumerate(starts):
        end = starts[index + 1] - 1 if index + 1 < len(starts) else len(lines)
        body = "".join(lines[start - 1 : end])
        event = by_line.get(start)
        if event is not None and event.id:
            key = f"id:{event.id}"
        else:  # written by hand without an id: the same text at the same place among its twins
            seen[body.strip()] = seen.get(body.strip(), 0) + 1
            key = f"text#{seen[body.strip()]}:{body.strip()}"
        at = event.at if event is not None else None
        blocks.append(Block(key, body, at, side))
    return "".join(lines[: starts[0] - 1]), blocks


def _time(at: dt.datetime | None) -> dt.datetime | None:
    return at.replace(tzinfo=dt.UTC) if at is not None and at.tzinfo is None else at


def weave(ours: list[Block], theirs: list[Block], start: int) -> list[Block]:
    """This branch's events in their order, with the other branch's new ones (in theirs) woven
    in after position `start` by their time: an event without `at` goes with the event before
    it in its own branch, and in the same second this branch's come first."""
    our_times: list[dt.datetime | None] = []
    last: dt.datetime | None = None
    for block in ours:
        last = _time(block.at) or last
        our_times.append(last)
    out = list(ours[:start])
    i = start
    last = None
    for block in theirs:
        last = _time(block.at) or last
        while i < len(ours):
            mine = our_times[i]
            if mine is not None and (last is None or mine > last):
                break
            out.append(ours[i])
            i += 1
        out.append(block)
    return out + ours[i:]


def _conflict(head: str, kept: list[Block], ours: list[Block], theirs: list[Block]) -> str:
    return (
        head
        + "".join(b.text for b in kept)
        + "<<<<<<< this branch\n"
        + "".join(b.text for b in ours)
        + "=======\n"
        + "".join(b.text for b in theirs)
        + ">>>>>>> other branch\n"
    )


def merge_logs(base: str, ours: str, theirs: str, campaign: Path | None, shown: str = "events.yaml") -> Merged:
    """The merged log's text, and the problems that make it a conflict (none when clean)."""
    setup = set_up(campaign, read(campaign)) if campaign is not None else None
    ruleset = setup.ruleset if setup is not None else registry.get(registry.DEFAULT)
    _, base_blocks = _split(base, "base", shown, ruleset)
    head, our_blocks = _split(ours, "ours", shown, ruleset)
    _, their_blocks = _split(theirs, "theirs", shown, ruleset)
    base_text = {b.key: b.text.strip() for b in base_blocks}
    our_text = {b.key: b.text.strip() for b in our_blocks}
    for side, blocks in (("this branch", our_blocks), ("the other branch", their_blocks)):
        for block in blocks:
            if base_text.get(block.key, block.text.strip()) != block.text.strip():
                return Merged(
                    _conflict(head, [], our_blocks, their_blocks),
                    [
                        f"{side} edited an event recorded before the branches split ({_shown(block)}); the log "
                        "is append-only: keep one version between the conflict markers (or void it and record "
                        "it again), then `cok check`"
                    ],
                    CANNOT,
                )
    for block in their_blocks:
        if block.key.startswith("id:") and our_text.get(block.key, block.text.strip()) != block.text.strip():
            return Merged(
                _conflict(head, [], our_blocks, their_blocks),
                [f"both branches hold the event {_shown(block)} with different fields: keep one version"],
                CANNOT,
            )
    new = [b for b in their_blocks if b.key not in base_text and (b.key not in our_text or not b.key.startswith("id:"))]
    start = max((i + 1 for i, b in enumerate(our_blocks) if b.key in base_text), default=0)
    woven = weave([replace(b, side="base") if b.key in base_text else b for b in our_blocks], new, start)
    text = head + "".join(b.text for b in woven)
    problems = _validate(text, setup, shown, woven, ruleset)
    if problems:
        return Merged(_conflict(head, our_blocks[:start], our_blocks[start:], new), problems)
    return Merged(text, [])


def _shown(block: Block) -> str:
    return block.key[3:] if block.key.startswith("id:") else repr(block.text.strip().splitlines()[0][:40])


def _validate(text: str, setup: Setup | None, shown: str, woven: list[Block], ruleset: Ruleset) -> list[str]:
    """Replay the merged log on the campaign's map and settings; say which events clash."""
    log = _parse(text, shown, ruleset)
    if log.problems:
        return [str(p) for p in log.problems]
    if setup is None:
        return []
    result = fold(ruleset, log.entries, setup.state, shown, telling=False)
    sides = {"ours": "this branch", "theirs": "the other branch", "base": "both branches"}
    side_of = {entry.line: sides[block.side] for entry, block in zip(log.entries, woven, strict=False)}
    return [f"{p} (recorded on {side_of[p.line]})" if p.line in side_of else str(p) for p in result.problems]


def run_driver(base: Path, ours: Path, theirs: Path, path: str | None) -> int:
    """`cok merge-driver %O %A %B %P`: write the merge into %A; 0 clean, 1 conflict."""
    campaign = None
    if path:
        folder = Path(path).parent
        if (folder / SETTINGS_FILE).is_file():
            campaign = folder
    shown = path or display_path(ours)
    ours_text = ours.read_text(encoding="utf-8", errors="replace")
    theirs_text = theirs.read_text(encoding="utf-8", errors="replace")
    try:
        merged = merge_logs(base.read_text(encoding="utf-8"), ours_text, theirs_text, campaign, shown)
    except (Refused, UnicodeDecodeError) as error:  # a side git cannot merge for us: both, in markers
        for problem in error.problems if isinstance(error, Refused) else [error]:
            print(f"cok merge: {problem}", file=sys.stderr)
        end = "" if ours_text.endswith("\n") or not ours_text else "\n"
        ours.write_text(
            f"<<<<<<< this branch\n{ours_text}{end}=======\n{theirs_text}"
            + ("" if theirs_text.endswith("\n") or not theirs_text else "\n")
            + ">>>>>>> other branch\n",
            encoding="utf-8",
        )
        return 1
    ours.write_text(merged.text, encoding="utf-8")
    if merged.clean:
        return 0
    print(f"cok merge: {shown}: {merged.why}", file=sys.stderr)
    for clash in merged.problems:
        print(f"  {clash}", file=sys.stderr)
    return 1


def git_setup(folder: Path) -> Path | None:
    """Register the merge driver in the git repository holding `folder` (None: not in one)."""
    try:
        found = subprocess.run(
            ["git", "-C", str(folder), "rev-parse", "--show-toplevel"], capture_output=True, text=True, check=False
        )
    except FileNotFoundError:
        return None
    if found.returncode != 0:
        return None
    root = Path(found.stdout.strip())
    driver = f"{sys.executable} -m cok merge-driver %O %A %B %P"
    for key, value in (("merge.cok.name", DRIVER_NAME), ("merge.cok.driver", driver)):
        subprocess.run(["git", "-C", str(root), "config", key, value], check=True, capture_output=True)
    return root
