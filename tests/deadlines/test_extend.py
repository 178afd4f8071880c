"""Extensions (docs/deadlines.md): an organiser gives more time to every wait, a player's or
a step's; a player asks for their own, `extension:` long, at most `extensions:` times, and
never for anyone else's. Each is an `extend` event in the log."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from cok.core.campaign import open_campaign
from cok.service.access import may_record
from cok.service.deadlines import extend, pending, tick
from cok.service.drafts import Draft, Who
from cok.service.recording import Refusal

from .conftest import T0, WEEK_DUE, cok_at, log

DUE = T0 + dt.timedelta(hours=48)


def dues(folder: Path) -> dict[str | None, dt.datetime | None]:
    return {d.wait.who: d.due for d in pending(open_campaign(folder))}


def test_an_organiser_extends_one_players_deadline(turns: Path) -> None:
    run = cok_at(turns, T0, "deadline", "extend", "24h", "--for", "bo")
    assert run.exit_code == 0, run.stderr
    assert "ann extends by 24h: bo's score in round 1" in run.stdout
    assert dues(turns) == {"al": DUE, "bo": DUE + dt.timedelta(hours=24)}
    assert [d.wait.who for d in tick(turns, DUE).defaults] == ["al"]  # bo's is not due yet


def test_an_organiser_extends_every_open_deadline(week: Path) -> None:
    run = cok_at(week, WEEK_DUE, "deadline", "extend", "2d", "--step", "week")
    assert run.exit_code == 0, run.stderr
    assert dues(week) == {None: WEEK_DUE + dt.timedelta(days=2)}
    assert tick(week, WEEK_DUE).defaults == []


def test_an_extension_of_nothing_waited_for_is_refused(turns: Path) -> None:
    run = cok_at(turns, T0, "deadline", "extend", "24h", "--step", "orders")
    assert run.exit_code == 1
    assert "nothing orders is waited for with a deadline now" in run.stderr
    assert "extend" not in log(turns)


def test_a_player_asks_for_their_own_extension_within_the_limit(turns: Path) -> None:
    done = extend(turns, by=Who("bo"))
    assert done.events[0].model_dump(exclude_none=True, include={"length", "player", "asked"}) == {
        "length": "12h",
        "player": "bo",
        "asked": True,
    }
    assert dues(turns)["bo"] == DUE + dt.timedelta(hours=12)


def test_a_players_ask_beyond_the_limit_is_refused(turns: Path) -> None:
    extend(turns, by=Who("bo"))
    with pytest.raises(Refusal) as refused:
        extend(turns, by=Who("bo"))
    assert "bo has asked for more time 1 time: campaign.yaml's `extensions:` allows 1 time" in str(refused.value)
    assert log(turns).count("type: extend") == 1


def test_a_player_may_not_extend_another_players_deadline(turns: Path) -> None:
    with pytest.raises(Refusal) as refused:
        extend(turns, player="al", by=Who("bo"))
    assert "bo may extend only their own deadlines" in str(refused.value)
    assert not may_record(turns, Draft("extend", {"length": "24h", "player": "bo"}), Who("bo"))


def test_a_player_asks_only_for_the_organisers_length(turns: Path) -> None:
    with pytest.raises(Refusal) as refused:
        extend(turns, "3d", by=Who("bo"))
    assert "a player's own ask lasts 12h" in str(refused.value)
