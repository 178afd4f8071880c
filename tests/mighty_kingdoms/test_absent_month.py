"""A whole Mighty Kingdoms month played with one kingdom absent (issue 48): three kingdoms, cy
never acts. Its orders are defaulted at the deadline by `cok tick` (the ledger's clock set with
COK_NOW: never a sleep), the month completes, after `absent_after` misses cy is marked absent
and defaulted as soon as a phase opens, then it acts again and is no longer absent; `cok
check` passes on the log."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest

from ..conftest import Cok, Run
from .game import MAP_TEXT

T0 = dt.datetime(2026, 11, 30, 10, 0, tzinfo=dt.UTC)  # a Monday: the campaign begins
HOUR = dt.timedelta(hours=1)
SETTINGS = (
    "name: Marches\nruleset: mighty-kingdoms\nmap: map.yaml\n"
    "deadlines: {orders: 48h, resolution: 24h}\nabsent_after: 2\n"
)
KINGDOMS = {
    "ana": ("West", "-1,0", "-2,-1", ["-1,-1", "-2,1"]),
    "bo": ("East", "1,0", "2,-1", ["3,-1", "2,1"]),
    "cy": ("North", "0,-2", "1,-4", ["-1,-3", "1,-3"]),
}


def iso(moment: dt.datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


@pytest.fixture
def marches(tmp_path: Path) -> Path:
    """ana, bo and cy founded, the campaign begun at T0 (month 1's orders open then)."""
    folder = tmp_path / "marches"
    folder.mkdir()
    (folder / "map.yaml").write_text(MAP_TEXT)
    (folder / "campaign.yaml").write_text(SETTINGS)
    log = ""
    for n, (player, (capital, city, fortress, villages)) in enumerate(KINGDOMS.items(), 1):
        log += (
            f"- type: kingdom\n  player: {player}\n  race: elves\n  capital: {capital}\n  city: '{city}'\n"
            f"  fortress: '{fortress}'\n  villages: ['{villages[0]}', '{villages[1]}']\n  army: '{city}'\n"
            f"  id: k{n}\n  at: {iso(T0)}\n"
        )
    (folder / "events.yaml").write_text(log + f"- type: begin\n  id: b1\n  at: {iso(T0)}\n")
    return folder


def at(folder: Path, moment: dt.datetime, who: str, *args: str) -> Run:
    """The real command line at `moment` (COK_NOW), recorded by `who` (COK_BY)."""
    run = Cok(folder)(*args, env={"COK_NOW": iso(moment), "COK_BY": who})
    assert run.exit_code == 0, run.stdout + run.stderr
    return run


def ticked(folder: Path, moment: dt.datetime) -> list[dict[str, object]]:
    """`cok tick --json` at `moment`: the defaults it recorded."""
    found = json.loads(at(folder, moment, "cron", "tick", "--json").stdout)
    assert found["refused"] == []
    return list(found["defaults"])


def status(folder: Path, moment: dt.datetime) -> dict[str, object]:
    return dict(json.loads(at(folder, moment, "ana", "mk", "status", "--json").stdout))


def test_a_whole_month_with_one_kingdom_absent(marches: Path) -> None:
    at(marches, T0 + HOUR, "ana", "mk", "order", "ana-1", "defend")
    at(marches, T0 + HOUR, "bo", "mk", "order", "bo-1", "defend")
    doc = status(marches, T0 + 2 * HOUR)
    assert doc["due"] == [
        {
            "step": "orders",
            "player": "cy",
            "what": "orders for cy-1",
            "due": "2026-12-02T10:00:00+00:00",
            "absent": False,
        }
    ]
    shown = at(marches, T0 + 2 * HOUR, "ana", "mk", "status").stdout
    assert "orders for cy-1" in shown and "Wed 2 Dec 10:00 — in 2 days" in shown
    assert ticked(marches, T0 + 47 * HOUR) == []  # not due yet: nothing recorded

    # the deadline passes while nothing runs; the next tick applies it, saying when it was due
    (orders,) = ticked(marches, T0 + 49 * HOUR)
    assert (orders["step"], orders["player"], orders["default"]) == ("orders", "cy", "deadline")
    assert orders["due"] == "2026-12-02T10:00:00+00:00"
    assert orders["events"] == [
        {
            "type": "order",
            "army": "cy-1",
            "order": "defend",
            **{"id": orders["events"][0]["id"], "at": "2026-12-02T11:00:00Z", "by": "ledger"},  # type: ignore[index]
            **{"default": "deadline", "due": "2026-12-02T10:00:00Z"},
        }
    ]
    assert ticked(marches, T0 + 49 * HOUR) == []  # a second tick records it no more

    # resolution: ana, bo, then cy's turn, which opens when bo resolves and is missed too
    at(marches, T0 + 50 * HOUR, "ana", "mk", "resolve", "ana-1")
    at(marches, T0 + 51 * HOUR, "bo", "mk", "resolve", "bo-1")
    (turn,) = status(marches, T0 + 52 * HOUR)["due"]  # type: ignore[misc]
    assert turn == {
        "step": "resolution",
        "player": "cy",
        "what": "to resolve one of cy-1",
        "due": "2026-12-03T13:00:00+00:00",
        "absent": False,
    }
    (resolved,) = ticked(marches, T0 + 76 * HOUR)
    assert (resolved["player"], resolved["default"]) == ("cy", "deadline")
    doc = status(marches, T0 + 76 * HOUR)
    assert (doc["phase"], doc["absent"]) == ("reform", ["cy"])  # 2 deadlines missed in a row

    # the organiser closes the month; month 2's orders open, and absent cy is defaulted at once
    at(marches, T0 + 77 * HOUR, "org", "mk", "reform", "--order", "ana", "bo", "cy")
    doc = status(marches, T0 + 77 * HOUR)
    assert (doc["month"], doc["phase"]) == (2, "orders")
    cys = next(d for d in doc["due"] if d["player"] == "cy")  # type: ignore[union-attr]
    assert cys == {
        "step": "orders",
        "player": "cy",
        "what": "orders for cy-1",
        "due": "2026-12-03T15:00:00+00:00",
        "absent": True,
    }
    (absent,) = ticked(marches, T0 + 77 * HOUR)
    assert (absent["player"], absent["default"]) == ("cy", "absent")
    text = at(marches, T0 + 78 * HOUR, "ana", "standings").stdout
    assert "cy (absent)" in text

    # cy comes back: it resolves its own order on its turn, and is no longer absent
    at(marches, T0 + 78 * HOUR, "ana", "mk", "order", "ana-1", "defend")
    at(marches, T0 + 78 * HOUR, "bo", "mk", "order", "bo-1", "defend")
    at(marches, T0 + 79 * HOUR, "ana", "mk", "resolve", "ana-1")
    at(marches, T0 + 79 * HOUR, "bo", "mk", "resolve", "bo-1")
    at(marches, T0 + 80 * HOUR, "cy", "mk", "resolve", "cy-1")
    doc = status(marches, T0 + 80 * HOUR)
    assert (doc["phase"], doc["absent"]) == ("reform", [])
    assert "cy (absent)" not in at(marches, T0 + 80 * HOUR, "ana", "standings").stdout

    log = (marches / "events.yaml").read_text()
    assert log.count("default: deadline") == 2 and log.count("default: absent") == 1
    check = at(marches, T0 + 81 * HOUR, "ana", "check")
    assert check.exit_code == 0


def test_the_log_tells_each_default_in_the_games_words(marches: Path) -> None:
    at(marches, T0 + HOUR, "ana", "mk", "order", "ana-1", "defend")
    at(marches, T0 + HOUR, "bo", "mk", "order", "bo-1", "defend")
    ticked(marches, T0 + 49 * HOUR)
    told = at(marches, T0 + 50 * HOUR, "ana", "log").stdout
    assert "no orders from cy by Wed 2 Dec 10:00 (applied Wed 2 Dec 11:00): cy-1 is ordered to defend" in told


def test_a_missed_exploration_and_a_missed_reform_roll_the_campaigns_fair_dice(marches: Path) -> None:
    """Nobody comes back after ana's move into the unexplored: its resolution is defaulted with
    the 2D6 rolled by the ledger, and the organisers' reform with the tied kingdoms' roll-off,
    each die from the committed seed; `cok check` recomputes every one from the log."""
    settings = (marches / "campaign.yaml").read_text().replace("resolution: 24h", "resolution: 24h, reform: 24h")
    (marches / "campaign.yaml").write_text(settings)
    at(marches, T0 + HOUR, "ana", "mk", "order", "ana-1", "move", "0,-1")
    assert [d["player"] for d in ticked(marches, T0 + 49 * HOUR)] == ["bo", "cy"]
    (explored,) = ticked(marches, T0 + 74 * HOUR)
    (event,) = explored["events"]  # type: ignore[misc]
    assert event["army"] == "ana-1" and len(event["roll"]) == 2 and event["rolled"]["dice"] == event["roll"]
    assert "dice rolled by cok" in explored["told"][0]  # type: ignore[index]
    ticked(marches, T0 + 99 * HOUR)  # bo's turn
    ticked(marches, T0 + 124 * HOUR)  # cy's turn
    reform, *absent = ticked(marches, T0 + 149 * HOUR)  # then month 2's orders of absent bo and cy, at once
    assert sorted((d["player"], d["default"]) for d in absent) == [
        ("bo", "absent"),
        ("cy", "absent"),
    ]  # the roll-off's order
    (event,) = reform["events"][:1]  # type: ignore[index]
    assert event["type"] == "reform" and sorted(event["order"]) == ["ana", "bo", "cy"] and event["rolled"]
    assert status(marches, T0 + 149 * HOUR)["month"] == 2
    at(marches, T0 + 150 * HOUR, "ana", "check")


def quiet_summer(folder: Path) -> None:
    """Six months in which every army defends, written as the log would hold them, at T0: the
    year is at winter's door (the `winter` event not yet recorded)."""
    log = (folder / "events.yaml").read_text()
    n = 0
    for _ in range(6):
        month = [("order", p, f"  army: {p}-1\n  order: defend\n") for p in KINGDOMS]
        month += [("resolve", p, f"  army: {p}-1\n") for p in KINGDOMS]
        month += [("reform", None, "  order: [ana, bo, cy]\n")]
        for kind, _, fields in month:
            n += 1
            log += f"- type: {kind}\n{fields}  id: s{n}\n  at: {iso(T0)}\n"
    (folder / "events.yaml").write_text(log)


def test_a_winter_with_one_kingdom_absent_and_no_organiser_either(marches: Path) -> None:
    """Winter with `deadlines: {winter: 3d}`: the organisers' winter event is recorded at its
    deadline, ana and bo feed and deploy, cy's feeding and deployment are defaulted (fed, at
    home in its capital), then the organisers' spring with the tied kingdoms' roll-off; the next
    year begins with absent cy's orders recorded at once, and `cok check` passes."""
    (marches / "campaign.yaml").write_text(SETTINGS.replace("resolution: 24h", "winter: 3d"))
    quiet_summer(marches)
    day = 24 * HOUR
    assert status(marches, T0 + HOUR)["due"] == [
        {"step": "winter", "player": None, "what": "the winter event (recall and gather)",
         "due": "2026-12-03T10:00:00+00:00", "absent": False}
    ]  # fmt: skip
    (winter,) = ticked(marches, T0 + 3 * day)
    assert (winter["player"], winter["events"][0]["type"]) == (None, "winter")  # type: ignore[index]
    for player in ("ana", "bo"):
        at(marches, T0 + 4 * day, player, "mk", "feed", player)
    (fed,) = ticked(marches, T0 + 6 * day)
    assert fed["events"][0] == {  # type: ignore[index]
        **fed["events"][0],  # type: ignore[index]
        "type": "feed",
        "player": "cy",
        "unfed": [],
        "default": "deadline",
    }
    at(marches, T0 + 6 * day, "ana", "mk", "deploy", "ana-1", "West")
    at(marches, T0 + 6 * day, "bo", "mk", "deploy", "bo-1", "East")
    (deployed,) = ticked(marches, T0 + 9 * day)
    assert [(e["army"], e["tile"]) for e in deployed["events"]] == [("cy-1", "0,-3")]  # type: ignore[union-attr]
    spring, orders = ticked(marches, T0 + 12 * day)  # cy missed two in a row: absent, its orders at once
    assert spring["events"][0]["type"] == "spring" and spring["events"][0]["rolled"]  # type: ignore[index]
    assert (orders["step"], orders["player"], orders["default"]) == ("orders", "cy", "absent")
    doc = status(marches, T0 + 12 * day)
    assert (doc["year"], doc["month"], doc["phase"], doc["absent"]) == (2, 1, "orders", ["cy"])
    at(marches, T0 + 12 * day, "ana", "check")


def test_every_army_of_a_kingdom_that_missed_its_orders_is_defaulted_in_one_change(tmp_path: Path) -> None:
    """A table played by chance into a month where kingdoms have two armies, one on its side;
    nobody gives an order: at the deadline each kingdom's armies defend, the one on its side
    regroups, each kingdom's as one change, and `cok check` passes on the log."""
    import shutil

    import yaml

    from cok.rulesets.mighty_kingdoms.rules.phase import phase
    from cok.rulesets.mighty_kingdoms.rules.state import Settings

    from .play import SHIPPED, Table, new_state

    table = Table(new_state(Settings()), 0)
    while not (phase(table.state) == "orders" and len(table.log) > 100 and not table.state.armies["ana-2"].upright):
        table.step()
    folder = tmp_path / "chance"
    folder.mkdir()
    shutil.copyfile(SHIPPED, folder / "map.yaml")
    (folder / "campaign.yaml").write_text(
        "name: Chance\nruleset: mighty-kingdoms\nmap: map.yaml\ndeadlines: {orders: 48h}\n"
    )
    log = [{**event, "at": iso(T0)} for event in table.log]
    (folder / "events.yaml").write_text(yaml.safe_dump(log, sort_keys=False))
    done = ticked(folder, T0 + 49 * HOUR)
    said = {d["player"]: [(e["army"], e["order"]) for e in d["events"]] for d in done}  # type: ignore[union-attr]
    assert said == {
        "bo": [("bo-1", "defend"), ("bo-2", "defend")],
        "ana": [("ana-1", "defend"), ("ana-2", "regroup")],
        "cy": [("cy-2", "defend")],
    }
    assert status(folder, T0 + 49 * HOUR)["phase"] == "resolution"
    at(folder, T0 + 50 * HOUR, "ana", "check")


def test_cok_check_refuses_at_its_line_a_mighty_kingdoms_default_recorded_before_its_deadline(marches: Path) -> None:
    log = (marches / "events.yaml").read_text()
    early = (
        f"- type: order\n  army: cy-1\n  order: defend\n  id: d1\n  at: {iso(T0 + HOUR)}\n  by: ledger\n"
        f"  default: deadline\n  due: {iso(T0 + 48 * HOUR)}\n"
    )
    (marches / "events.yaml").write_text(log + early)
    line = log.count("\n") + 1
    run = Cok(marches)("check", env={"COK_NOW": iso(T0 + 2 * HOUR)})
    assert run.exit_code == 1
    assert f"events.yaml:{line}" in run.stdout + run.stderr and "before its deadline" in run.stdout + run.stderr


def test_cok_check_refuses_a_default_for_a_kingdom_that_had_given_its_orders(marches: Path) -> None:
    at(marches, T0 + HOUR, "cy", "mk", "order", "cy-1", "defend")
    log = (marches / "events.yaml").read_text()
    late = (
        f"- type: order\n  army: cy-1\n  order: defend\n  id: d1\n  at: {iso(T0 + 49 * HOUR)}\n  by: ledger\n"
        f"  default: deadline\n  due: {iso(T0 + 48 * HOUR)}\n"
    )
    (marches / "events.yaml").write_text(log + late)
    run = Cok(marches)("check", env={"COK_NOW": iso(T0 + 50 * HOUR)})
    assert run.exit_code == 1 and "had acted" in run.stdout + run.stderr
