"""Replaying a campaign: its settings and map read into a starting state, and every event
of its log applied to it by the game's rules, in order. Pure of the cache: what it makes is
handed back (`Replayed`) for `core.campaign` to keep."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cok.core.errors import Problem, after_the_first, display_path, root_first
from cok.core.folders import EVENTS_FILE, SETTINGS_FILE
from cok.core.position import Position, digest
from cok.core.store import history_row

if TYPE_CHECKING:
    from cok.core import cache
    from cok.core.events import Void
    from cok.core.fold import Folded
    from cok.core.history import Told
    from cok.core.log import Log
    from cok.core.ruleset import Ruleset


@dataclass(frozen=True)
class Setup:
    """What a campaign's log is replayed on: its game, name, map file and starting state."""

    ruleset: Ruleset
    name: str
    map_file: Path
    digests: tuple[str, str]  # of campaign.yaml and of the map, as read
    state: Any


@dataclass(frozen=True)
class Files:
    """The campaign's three files as read, once, by this command."""

    settings: bytes
    map: bytes  # empty when the map's path was not known yet (it is named in the settings)
    events: bytes


def set_up(folder: Path, files: Files) -> Setup:
    """The campaign's settings and map, read from these bytes; Refused on any mistake."""
    from cok.core.maps import read_map
    from cok.core.settings import read_settings
    from cok.core.yamlfile import decode

    shown = display_path(folder / SETTINGS_FILE)
    ruleset, settings, lines = read_settings(decode(files.settings, shown, "campaign settings"), shown)
    map_file, map_bytes = read_map(folder, settings.map, ruleset, shown, lines.get("map"))
    map_shown = display_path(map_file)
    geo = ruleset.load_map(decode(map_bytes, map_shown, "map file"), map_shown)
    state = ruleset.initial_state(geo, settings)
    if getattr(settings, "deadlines", None) and hasattr(state, "clock"):  # the campaign keeps its own time
        from cok.core.schedule import clock

        state.clock = clock(settings)
    return Setup(ruleset, settings.name, map_file, (digest(files.settings), digest(map_bytes)), state)


def read_entries(folder: Path, files: Files, ruleset: Ruleset) -> Log:
    """The log from the bytes read (an empty one when there is no file)."""
    from cok.core.log import Log, read_log
    from cok.core.yamlfile import decode

    shown = display_path(folder / EVENTS_FILE)
    if not files.events:
        return Log(shown, position=Position.of(b""))
    return read_log(files.events, decode(files.events, shown, "event log"), shown, ruleset)


@dataclass(frozen=True)
class Replayed:
    """What a replay made: the starting point, the state after every event, how far the log
    was read, its problems, every event's id with its line, and the history in words (kept,
    or written to the cache's rows as it was made, or neither)."""

    setup: Setup
    state: Any
    position: Position
    problems: list[Problem]
    ids: dict[str, int]
    history: list[Told] | None
    history_rows: cache.RowsWriter | None


def replay(folder: Path, files: Files, *, telling: bool = True, history_to: cache.RowsWriter | None = None) -> Replayed:
    """Read and replay everything (problems in the log are kept, not raised). Without
    `telling`, no history in words is made (a command without the cache that does not
    show it: `cok check --no-cache`); with `history_to`, it is written to the cache's rows
    as it is made, not kept (the first command on a long campaign stays small)."""
    setup, log, done, history_to = streamed(folder, files, telling=telling, history_to=history_to)
    problems = [*log.problems, *done.problems]
    if setup.ruleset.sequential:  # every event waits for the ones before it
        problems = after_the_first(log.problems, done.problems)
    problems = root_first(problems)
    rows = history_to if telling else None
    history = None if rows is not None or not telling else done.history
    return Replayed(setup, done.state, log.position, problems, done.ids, history, rows)


def streamed(
    folder: Path,
    files: Files,
    *,
    telling: bool = True,
    history_to: cache.RowsWriter | None = None,
    voids: Sequence[Void] = (),
) -> tuple[Setup, Log, Folded, cache.RowsWriter | None]:
    """The log folded with each event applied as it is read, so the events are never held
    all at once; only a log whose voids cannot be found beforehand (or `voids` that void one
    another) is read whole first. `voids`: appended after the log, as a void is decided
    (`core.ledger`: a full pass, a void changes the past). Also `history_to` as it stands
    (dropped when the log had to be read whole)."""
    import math

    from cok.core.events import Entry
    from cok.core.fold import Replay, Unplanned, fold
    from cok.core.log import Log, planned_voids, read_log
    from cok.core.yamlfile import decode

    setup = set_up(folder, files)
    shown = display_path(folder / EVENTS_FILE)
    after = [Entry(v, None) for v in voids]
    if not files.events:
        log = Log(shown, position=Position.of(b""))
        return setup, log, fold(setup.ruleset, after, setup.state, shown, telling=telling), history_to
    text = decode(files.events, shown, "event log")
    plan = planned_voids(text, shown, setup.ruleset)
    new = {v.id for v in voids if v.id is not None}
    if plan is not None and not any(v.target in new for v in voids):
        for void in voids:  # after every line of the log (an entry without a line: math.inf)
            plan.add(void, math.inf)
        writer = history_to
        told_to = None if writer is None else (lambda t: writer.add(history_row(t)))
        replay = Replay(setup.ruleset, setup.state, shown, plan, by_line=True, telling=telling, told_to=told_to)
        try:
            log = read_log(files.events, text, shown, setup.ruleset, take=replay.take)
            for entry in after:
                replay.take(entry)
            return setup, log, replay.finish(), history_to
        except Unplanned:
            setup = set_up(folder, files)  # the state was changed in place: a fresh one
            if history_to is not None:
                history_to.discard()
                history_to = None
    log = read_log(files.events, text, shown, setup.ruleset)
    return setup, log, fold(setup.ruleset, [*log.entries, *after], setup.state, log.shown, telling=telling), history_to
