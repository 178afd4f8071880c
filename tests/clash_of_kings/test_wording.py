"""What players read: counts in the singular, every battle's draws, every adjustment's week,
voided events told in words, the organiser's rulings, and no empty bonus column."""

from __future__ import annotations

import json
from pathlib import Path

from cok.rulesets.clash_of_kings.rules.apply import apply, initial_state
from cok.rulesets.clash_of_kings.rules.state import Settings

from ..conftest import Cok, event, tiny_map


def test_one_territory_is_said_in_the_singular() -> None:
    geo = tiny_map("A:castle B:fort C:castle D:fort", "A-B B-C C-D")
    state = initial_state(geo, Settings())
    for player, castle in (("tim", "A"), ("matt", "C")):
        apply(state, event({"type": "join", "player": player, "faction": "neutral", "castle": castle}))
    try:
        apply(state, event({"type": "battle", "players": ["tim", "matt"], "location": "B", "winner": "tim"}))
    except Exception as refused:
        assert "hold 1 territory each" in str(refused)
    else:  # pragma: no cover
        raise AssertionError("a roll-off must be asked for")


def test_a_players_page_counts_draws(cok: Cok, tmp_path: Path) -> None:
    cok("join", "tim", "--faction", "martell")
    cok("join", "matt", "--faction", "baratheon")
    battle = ("--brotherhood", "tim", "--brotherhood", "matt", "--vp", "tim=3", "--vp", "matt=3")
    assert cok("battle", "tim", "matt", "--at", "Mistwood", *battle).exit_code == 0
    assert cok("site", str(tmp_path / "site")).exit_code == 0
    assert "1 battle: 0 won, 0 lost, 1 drawn." in (tmp_path / "site" / "players" / "tim.html").read_text()


def test_an_adjustment_is_told_with_its_week(cok: Cok) -> None:
    cok("join", "tim", "--faction", "martell")
    cok("week", "--next")
    run = cok("adjust", "tim", "2", "--reason", "hosted")
    assert "week 2 — tim +2 CP by the organiser: hosted" in run.stdout


def test_a_voided_event_is_told_in_words_not_fields(cok: Cok) -> None:
    cok("join", "tim", "--faction", "martell")
    adjusted = json.loads(cok("adjust", "tim", "2", "--reason", "hosted", "--json").stdout)
    cok("void", adjusted["event"]["id"], "--reason", "wrong player")
    rows = json.loads(cok("log", "--json").stdout)["events"]
    assert rows[1]["voided"] and rows[1]["summary"] == "tim +2 CP by the organiser: hosted"


def test_an_organisers_ruling_is_shown_in_the_log(cok: Cok) -> None:
    cok("join", "tim", "--faction", "martell")
    cok("join", "matt", "--faction", "baratheon")
    args = ("battle", "tim", "matt", "--at", "Winterfell", "--attacker", "tim", "--winner", "tim")
    args += ("--override", "played at the club")
    assert cok(*args).exit_code == 0
    assert "(organiser's ruling: played at the club)" in cok("log").stdout


def test_the_bonus_column_shows_only_when_a_castle_has_a_bonus(cok: Cok) -> None:
    out = cok("locations").stdout
    assert "bonus" not in out.splitlines()[2]
    assert "an organiser adds one as `bonus: …` on a castle in the map file" in out


def test_both_brotherhood_where_is_said_once(cok: Cok) -> None:
    cok("join", "tim", "--faction", "martell")
    cok("join", "matt", "--faction", "baratheon")
    out = cok("where", "tim", "matt", "--brotherhood", "tim", "--brotherhood", "matt").stdout
    assert "Any location: nobody chooses" in out
    assert out.lower().count("any location") == 1


def test_a_winner_with_fewer_victory_points_is_refused_without_a_ruling(cok: Cok, campaign: Path) -> None:
    cok("join", "tim", "--faction", "martell")
    cok("join", "matt", "--faction", "baratheon")
    before = (campaign / "events.yaml").read_bytes()
    args = ("battle", "tim", "matt", "--at", "Tarth", "--attacker", "tim", "--winner", "tim")
    run = cok(*args, "--vp", "tim=3", "--vp", "matt=7")
    assert run.exit_code == 1
    assert "tim is given as the winner with 3 victory points against matt's 7" in run.stderr
    assert (campaign / "events.yaml").read_bytes() == before
    run = cok(*args, "--vp", "tim=3", "--vp", "matt=7", "--override", "matt conceded")
    assert run.exit_code == 0, run.stderr
    assert "(victory points 3–7) (organiser's ruling: matt conceded)" in run.stdout
