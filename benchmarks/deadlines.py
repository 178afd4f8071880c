"""Rows 65 and 66 of docs/performance.md (issue 48): the server's deadlines cost nothing while
nothing is due.

    python benchmarks/deadlines.py            # 10 campaigns over 30 simulated days; 100 recordings a side
    python benchmarks/deadlines.py --quick    # 3 campaigns over 7 days; 6 recordings: that it still runs
    python benchmarks/deadlines.py --check    # exit 1 when a target is missed

Row 65: a club of campaigns (copies of the shipped Clash of Kings example, each with its own
`deadlines: week:` of 1 to 10 days) served by one club application, its clock simulated: each
campaign's alarm sleeps until its next due time, the clock is moved straight to the soonest
one and that alarm's sleep ended, until the span is over. The alarms' wake-ups are counted
and compared with the distinct due times the logs say passed (each default's `due:`): the
target is equal — a wake per due time, not one more (no poll).

Row 66: a recording (POST /api/events, a battle) on a campaign with deadlines against the same
campaign without, interleaved, medians compared: the target is ≤ 1.1× (nothing is added to a
recording but the alarm's re-reading of the next due time, off the answer's path).
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import shutil
import statistics
import sys
import tempfile
import time
import warnings
from pathlib import Path

import yaml

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from run import EXAMPLE  # noqa: E402

LIMIT = 1.1
START = dt.datetime(2026, 10, 7, 21, 0, tzinfo=dt.UTC)  # after the example's last event


def with_deadlines(folder: Path, week: str) -> Path:
    with (folder / "campaign.yaml").open("a", encoding="utf-8") as settings:
        settings.write(f"deadlines:\n  week: {week}\n")
    return folder


def due_defaults(folder: Path) -> set[str]:
    """The distinct due times the log says passed (each default's `due:`)."""
    events = yaml.safe_load((folder / "events.yaml").read_text(encoding="utf-8"))
    return {str(e["due"]) for e in events if e.get("default") and e.get("due")}


def wakes(scratch: Path, count: int, days: int) -> tuple[int, int, int]:
    """Row 65: (the alarms' wake-ups, the distinct due times passed, the writes they heard)."""
    from starlette.testclient import TestClient

    from cok.serve.alarm import Held, until_woken
    from cok.serve.app import create_app
    from cok.serve.club import club_app, gathered

    club = scratch / "club"
    for n in range(count):
        shutil.copytree(EXAMPLE, club / f"c{n:02d}")
        with_deadlines(club / f"c{n:02d}", f"{n % 10 + 1}d")
    clock, end = Held(START), START + dt.timedelta(days=days)
    app = club_app(club, gathered(club), lambda folder: create_app(folder, clock=clock, sleep=until_woken))
    with TestClient(app):
        alarms = [made.state.server.alarm for made in app.state.club._made.values()]
        while True:
            if not all(a.quiet(120) for a in alarms):
                raise SystemExit("an alarm never went back to sleep")
            soonest = min((a.at for a in alarms if a.at is not None), default=None)
            if soonest is None or soonest > end:
                break
            clock.at = soonest
            for alarm in alarms:
                if alarm.at == soonest:
                    alarm.rearm()  # its sleep ends: its time came
        woke = sum(a.wakes for a in alarms)
        heard = sum(a.armed for a in alarms)
    passed = sum(len(due_defaults(club / f"c{n:02d}")) for n in range(count))
    return woke, passed, heard


def recordings(scratch: Path, rounds: int) -> tuple[float, float]:
    """Row 66: the median recording with deadlines and without (seconds)."""
    from starlette.testclient import TestClient

    from cok.links import invites
    from cok.serve.alarm import Held, until_woken
    from cok.serve.app import create_app

    clients, tokens, apps = {}, {}, []
    for side in ("deadlines", "none"):
        folder = scratch / side / "example"
        shutil.copytree(EXAMPLE, folder)
        if side == "deadlines":
            with_deadlines(folder, "3d")  # due long after the clock: nothing rings meanwhile
        tokens[side] = invites.invite(folder, "bench", organiser=True)
        app = create_app(folder, clock=Held(START), sleep=until_woken)
        apps.append(app)
        clients[side] = TestClient(app).__enter__()
    times: dict[str, list[float]] = {"deadlines": [], "none": []}
    try:
        for side in clients:
            clients[side].get("/")  # warm: the first read after a start makes the state
        for n in range(rounds):
            for side in ("deadlines", "none") if n % 2 else ("none", "deadlines"):
                battle = {"type": "battle", "players": ["tim", "matt"], "location": "Ghost Hill", "winner": "tim",
                          "attacker": "tim", "override": f"bench {n}"}  # fmt: skip
                began = time.perf_counter()
                answer = clients[side].post(
                    "/api/events?again=1", json=battle, headers={"authorization": f"Bearer {tokens[side]}"}
                )
                times[side].append(time.perf_counter() - began)
                if answer.status_code != 201:
                    raise SystemExit(f"the recording was refused: {answer.status_code} {answer.text}")
    finally:
        for client in clients.values():
            client.__exit__(None, None, None)
    return statistics.median(times["deadlines"]), statistics.median(times["none"])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args(argv)
    count, days, rounds = (3, 7, 6) if args.quick else (10, 30, 100)
    warnings.simplefilter("ignore")
    from cok.rulesets import install

    install()
    with tempfile.TemporaryDirectory() as scratch_name:
        scratch = Path(scratch_name)
        os.environ["COK_DATA_DIR"] = str(scratch / "data")
        os.environ.pop("COK_NOW", None)
        woke, passed, heard = wakes(scratch / "club", count, days)
        a, b = recordings(scratch / "one", rounds)
    good_wakes = woke == passed
    good_time = a / b <= LIMIT
    quick = "(quick: not judged)" if args.quick else None
    print(
        f"cok serve's deadlines (issue 48): a club of {count} campaigns over {days} simulated days; "
        f"{rounds} recordings a side"
    )
    print(
        f" 65  the alarms' wake-ups / the distinct due times passed: {woke} / {passed} "
        f"(= required) {'ok' if good_wakes else 'MISSED'}; told of a write: {heard}"
    )
    print(
        f" 66  a recording (a battle) with deadlines vs without: {a * 1000:6.2f} / {b * 1000:6.2f} ms = "
        f"{a / b:4.2f}x (≤ {LIMIT}x) {quick or ('ok' if good_time else 'MISSED')}"
    )
    return 1 if args.check and not (good_wakes and (args.quick or good_time)) else 0


if __name__ == "__main__":
    raise SystemExit(main())
