"""Merging two branches of an event log (the `cok` git merge driver).

Both branches only ever appended to the common ancestor's log. The merge keeps the
common prefix byte for byte, then both sides' new events, each once (by `id`), ordered
by `at` then `id`, and replays the result: a merged log that breaks a rule (two branches
gave the same castle to two players) is a conflict, reported event by event.
"""

from __future__ import annotations

import datetime as dt
import subprocess
import sys
from dataclasses import dataclass
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

    @property
    def clean(self) -> bool:
        return not self.problems


def _parse(text: str, shown: str, ruleset: Ruleset) -> Log:
    return read_log(text.encode("utf-8"), text, shown, ruleset)


def _split(text: str, side: str, shown: str, ruleset: Ruleset) -> tuple[str, list[Block]]:
    """The text before the first event, and each event's block."""
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
    for index, start in enumerate(starts):
        end = starts[index + 1] - 1 if index + 1 < len(starts) else len(lines)
        body = "".join(lines[start - 1 : end])
        event = by_line.get(start)
        key = event.id if event is not None and event.id else body.strip()
        at = event.at if event is not None else None
        blocks.append(Block(key, body, at, side))
    return "".join(lines[: starts[0] - 1]), blocks


def _order(block: Block) -> tuple[bool, dt.datetime, str]:
    at = block.at
    if at is not None and at.tzinfo is None:
        at = at.replace(tzinfo=dt.UTC)
    return (at is None, at or dt.datetime.max.replace(tzinfo=dt.UTC), block.key)


def merge_logs(base: str, ours: str, theirs: str, campaign: Path | None, shown: str = "events.yaml") -> Merged:
    """The merged log's text, and the problems that make it a conflict (none when clean)."""
    setup = set_up(campaign, read(campaign)) if campaign is not None else None
    ruleset = setup.ruleset if setup is not None else registry.get(registry.DEFAULT)
    _, base_blocks = _split(base, "base", shown, ruleset)
    head, our_blocks = _split(ours, "ours", shown, ruleset)
    _, their_blocks = _split(theirs, "theirs", shown, ruleset)
    for side, blocks in (("this branch", our_blocks), ("the other branch", their_blocks)):
        for old, kept in zip(base_blocks, blocks, strict=False):
            if old.key != kept.key:
                return Merged(
                    ours,
                    [
                        f"{side} changed or removed an event recorded before the branches split "
                        f"({old.key[:40]!r}); the log is append-only, so merge it by hand"
                    ],
                )
        if len(blocks) < len(base_blocks):
            return Merged(ours, [f"{side} removed events recorded before the branches split; merge it by hand"])
    new: dict[str, Block] = {}
    for block in our_blocks[len(base_blocks) :] + their_blocks[len(base_blocks) :]:
        new.setdefault(block.key, block)
    ordered = sorted(new.values(), key=_order)
    text = head + "".join(b.text for b in base_blocks) + "".join(b.text for b in ordered)
    problems = _validate(text, setup, shown, ordered, len(base_blocks), ruleset)
    if problems:
        ours_new = "".join(b.text for b in our_blocks[len(base_blocks) :])
        theirs_new = "".join(b.text for b in their_blocks[len(base_blocks) :])
        conflict = (
            head
            + "".join(b.text for b in base_blocks)
            + "<<<<<<< this branch\n"
            + ours_new
            + "=======\n"
            + theirs_new
            + ">>>>>>> other branch\n"
        )
        return Merged(conflict, problems)
    return Merged(text, [])


def _validate(text: str, setup: Setup | None, shown: str, new: list[Block], kept: int, ruleset: Ruleset) -> list[str]:
    """Replay the merged log on the campaign's map and settings; say which new events clash."""
    log = _parse(text, shown, ruleset)
    if log.problems:
        return [str(p) for p in log.problems]
    if setup is None:
        return []
    result = fold(ruleset, log.entries, setup.state, shown, telling=False)
    if not result.problems:
        return []
    line_side = {}
    lines = [entry.line for entry in log.entries]
    for block, line in zip(new, lines[kept:], strict=False):
        line_side[line] = "this branch" if block.side == "ours" else "the other branch"
    return [f"{p}" + (f" (recorded on {line_side[p.line]})" if p.line in line_side else "") for p in result.problems]


def run_driver(base: Path, ours: Path, theirs: Path, path: str | None) -> int:
    """`cok merge-driver %O %A %B %P`: write the merge into %A; 0 clean, 1 conflict."""
    campaign = None
    if path:
        folder = Path(path).parent
        if (folder / SETTINGS_FILE).is_file():
            campaign = folder
    shown = path or display_path(ours)
    try:
        merged = merge_logs(
            base.read_text(encoding="utf-8"),
            ours.read_text(encoding="utf-8"),
            theirs.read_text(encoding="utf-8"),
            campaign,
            shown,
        )
    except Refused as refused:
        for problem in refused.problems:
            print(f"cok merge: {problem}", file=sys.stderr)
        return 1
    ours.write_text(merged.text, encoding="utf-8")
    if merged.clean:
        return 0
    print(f"cok merge: {shown}: the merged log breaks the rules; the events that clash:", file=sys.stderr)
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
