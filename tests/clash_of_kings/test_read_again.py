"""Clash of Kings read again: tied games, the Brotherhood as a faction, late joiners, and
castle bonuses — each test named after the source's sentence."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cok.cli import options
from cok.core.errors import ChoiceNeeded, NumbersNeeded
from cok.rulesets.clash_of_kings.rules.apply import apply, commit, decide, initial_state
from cok.rulesets.clash_of_kings.rules.outcomes import Fought, Joined
from cok.rulesets.clash_of_kings.rules.state import Settings, State
from cok.rulesets.clash_of_kings.rules.where import where

from ..conftest import Cok, event, tiny_map

LINE = tiny_map(
    "A:castle B:fort C:village D:castle E:fort F:castle G:castle H:castle",
    "A-B B-C C-D D-E E-F F-G G-H",
)


def players(held: dict[str, list[str]], factions: dict[str, str] | None = None) -> State:
    state = initial_state(LINE, Settings())
    for pid, locations in held.items():
        faction = (factions or {}).get(pid, "neutral")
        commit(Joined(pid, pid.title(), faction, 1, tuple(locations), "test"), state)
    return state


# --- Tied games ------------------------------------------------------------------------------

TIED = {"tim": 5, "matt": 5}


def test_same_victory_points_the_tied_player_with_the_most_points_remaining_wins() -> None:
    state = players({"tim": ["A"], "matt": ["D", "E"]})
    battle = {"type": "battle", "players": ["tim", "matt"], "location": "B", "vp": {"tim": 5, "matt": 5}}
    result = apply(state, event({**battle, "remaining": {"tim": 12, "matt": 20}}))
    assert isinstance(result, Fought)
    assert (result.winner, result.won_by) == ("matt", "points remaining")


def test_same_victory_points_and_no_points_remaining_given_is_refused_never_guessed() -> None:
    state = players({"tim": ["A"], "matt": ["D", "E"]})
    with pytest.raises(NumbersNeeded) as caught:
        decide(
            state, event({"type": "battle", "players": ["matt", "tim"], "location": "B", "vp": {"tim": 5, "matt": 5}})
        )
    assert caught.value.field == "remaining"
    assert caught.value.keys == ["matt", "tim"]
    assert "`remaining`" in str(caught.value) and "`winner`" in str(caught.value)


def test_if_the_game_is_still_tied_the_attacking_player_is_declared_the_winner() -> None:
    state = players({"tim": ["A"], "matt": ["D", "E"]})
    tie = {"tim": 5, "matt": 5}
    result = apply(
        state, event({"type": "battle", "players": ["matt", "tim"], "location": "B", "vp": tie, "remaining": tie})
    )
    assert isinstance(result, Fought)
    assert (result.winner, result.won_by) == ("tim", "attacker")


def test_both_fighting_as_the_brotherhood_a_tie_is_still_a_draw() -> None:
    state = players({"tim": ["A"], "matt": ["D", "E"]})
    battle = {"type": "battle", "players": ["tim", "matt"], "location": "C", "brotherhood": ["tim", "matt"]}
    result = apply(state, event({**battle, "vp": {"tim": 2, "matt": 2}}))
    assert isinstance(result, Fought)
    assert (result.winner, result.won_by) == (None, "draw")


def test_a_tie_without_points_remaining_on_the_command_line_asks_for_them(cok: Cok, campaign: Path) -> None:
    cok("join", "tim", "--faction", "martell")
    cok("join", "matt", "--faction", "baratheon")
    before = (campaign / "events.yaml").read_bytes()
    run = cok("battle", "matt", "tim", "--at", "Mistwood", "--attacker", "matt", "--vp", "matt=5", "--vp", "tim=5")
    assert run.exit_code == 1
    assert "--remaining matt=N --remaining tim=N" in run.stderr
    assert (campaign / "events.yaml").read_bytes() == before


def test_a_tie_at_a_terminal_asks_for_the_points_remaining(
    cok: Cok, campaign: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cok("join", "tim", "--faction", "martell")
    cok("join", "matt", "--faction", "baratheon")
    monkeypatch.setattr(options, "interactive", lambda: True)
    args = ("battle", "matt", "tim", "--at", "Mistwood", "--attacker", "matt", "--vp", "matt=5", "--vp", "tim=5")
    run = cok(*args, input="many\n12\n15\n")
    assert run.exit_code == 0, run.stderr
    assert "a whole number" in run.stderr
    assert "tim (defender) beat matt at Mistwood on victory points 5–5, then points remaining 15–12" in run.stdout


def test_a_tie_the_attacker_won_in_a_log_written_before_is_reported_with_the_fix(campaign: Path) -> None:
    (campaign / "events.yaml").write_text(
        "- type: join\n  player: tim\n  faction: martell\n- type: join\n  player: matt\n  faction: baratheon\n"
        "- type: battle\n  players: [matt, tim]\n  location: Mistwood\n  attacker: matt\n  vp: {matt: 5, tim: 5}\n"
    )
    run = Cok(campaign)("check")
    assert run.exit_code == 1
    assert "events.yaml:7: battle at Mistwood: matt and tim tied on victory points (5–5)" in run.stderr
    assert "A battle recorded before cok decided ties this way: void it (`cok void =" in run.stderr
    assert "record it again with both players' points remaining or the winner" in run.stderr


def test_a_new_tied_battle_is_refused_without_the_advice_for_one_recorded_before(cok: Cok) -> None:
    cok("join", "tim", "--faction", "martell")
    cok("join", "matt", "--faction", "baratheon")
    run = cok("battle", "matt", "tim", "--at", "Mistwood", "--attacker", "matt", "--vp", "matt=5", "--vp", "tim=5")
    assert run.exit_code == 1
    assert "tied on victory points" in run.stderr and "--remaining" in run.stderr
    assert "recorded before" not in run.stderr and "void" not in run.stderr


# --- The Brotherhood Without Banners as a faction --------------------------------------------


def test_this_faction_never_chooses_the_territory_for_a_battle() -> None:
    state = players({"bwb": ["A"], "d": ["D", "E"]}, {"bwb": "brotherhood"})
    found = where(state, "bwb", "d")  # not named as the Brotherhood: the faction is enough
    assert (found.attacker, found.defender, found.decided_by) == ("d", "bwb", "brotherhood")


def test_this_faction_cannot_occupy_territories_even_if_they_win() -> None:
    state = players({"bwb": ["A"], "d": ["D", "E"]}, {"bwb": "brotherhood"})
    result = apply(state, event({"type": "battle", "players": ["bwb", "d"], "location": "C", "winner": "bwb"}))
    assert isinstance(result, Fought)
    assert result.brotherhood == ("bwb",)
    assert result.occupation.unchanged == "brotherhood"
    assert "C" not in state.holder


def test_a_player_of_the_brotherhood_faction_can_still_lose_a_territory() -> None:
    state = players({"bwb": ["A", "C"], "d": ["D", "E"]}, {"bwb": "brotherhood"})
    apply(state, event({"type": "battle", "players": ["bwb", "d"], "location": "C", "winner": "d"}))
    assert state.holder["C"] == "d"


def test_where_and_battle_say_the_brotherhood_faction_never_chooses(cok: Cok) -> None:
    cok("join", "bwb", "--faction", "brotherhood", "--castle", "Highgarden")
    cok("join", "d", "--faction", "neutral", "--castle", "Winterfell")
    found = json.loads(cok("where", "bwb", "d", "--json").stdout)
    assert (found["attacker"], found["decided_by"]) == ("d", "brotherhood")
    assert "d attacks (the Brotherhood never chooses) and chooses where to fight bwb" in cok("where", "bwb", "d").stdout
    run = cok("battle", "bwb", "d", "--at", found["locations"][0]["name"], "--winner", "bwb", "--json")
    assert run.exit_code == 0, run.stderr
    outcome = json.loads(run.stdout)["outcome"]
    assert outcome["brotherhood"] == ["bwb"]
    assert outcome["occupation"]["occupied"] is False
    assert "Brotherhood Without Banners, who never occupy" in json.loads(run.stdout)["summary"]


# --- Late joiners ----------------------------------------------------------------------------


def test_players_joining_at_the_very_beginning_are_given_their_home_castle() -> None:
    state = initial_state(tiny_map("A:castle B:castle"), Settings())
    state.geo.locations["A"] = state.geo.locations["A"].__class__("A", "castle", home=("stark",))
    joined = decide(state, event({"type": "join", "player": "sara", "faction": "stark"}))
    assert isinstance(joined, Joined)
    assert joined.locations == ("A",)


def test_players_joining_after_it_has_begun_are_given_options_from_the_organiser() -> None:
    state = initial_state(tiny_map("A:castle B:castle"), Settings())
    state.geo.locations["A"] = state.geo.locations["A"].__class__("A", "castle", home=("stark",))
    apply(state, event({"type": "week"}))
    with pytest.raises(ChoiceNeeded) as caught:
        decide(state, event({"type": "join", "player": "sara", "faction": "stark"}))
    assert (caught.value.field, caught.value.options) == ("castle", ["A", "B"])
    assert "joins in week 2" in str(caught.value)


def test_a_late_joiner_on_the_command_line_is_shown_the_free_castles(cok: Cok, campaign: Path) -> None:
    cok("week", "--next")
    run = cok("join", "sara", "--faction", "stark")
    assert run.exit_code == 1
    assert "choose one with --castle NAME: " in run.stderr and "Winterfell" in run.stderr and "Highgarden" in run.stderr
    assert "sara" not in (campaign / "events.yaml").read_text()


def test_a_late_joiner_at_a_terminal_chooses_among_the_free_castles(cok: Cok, monkeypatch: pytest.MonkeyPatch) -> None:
    cok("week", "--next")
    monkeypatch.setattr(options, "interactive", lambda: True)
    run = cok("join", "sara", "--faction", "stark", input="Atlantis\nhighgarden\n")
    assert run.exit_code == 0, run.stderr
    assert "joins, holding Highgarden" in run.stdout


def test_a_late_join_with_the_home_castle_in_a_log_written_before_is_reported_with_the_fix(campaign: Path) -> None:
    (campaign / "events.yaml").write_text("- type: week\n- type: join\n  player: sara\n  faction: stark\n")
    run = Cok(campaign)("check")
    assert run.exit_code == 1
    assert "events.yaml:2: join sara: sara joins in week 2" in run.stderr
    assert "record it again with a castle" in run.stderr


# --- Castle bonuses --------------------------------------------------------------------------


def test_a_castle_bonus_is_shown_to_its_holder_and_never_applied(cok: Cok, campaign: Path, tmp_path: Path) -> None:
    westeros = campaign.parent.parent / "westeros.yaml"
    text = westeros.read_text()
    sunspear = "{name: Sunspear, kind: castle, home: martell,"
    westeros.write_text(text.replace(sunspear, sunspear[:-1] + ", bonus: Re-roll one die a game,", 1))
    assert "Re-roll one die a game" in westeros.read_text()
    cok("join", "tim", "--faction", "martell", "--castle", "Sunspear")
    assert json.loads(cok("standings", "--json").stdout)["players"][0]["cp"] == 10  # shown, not applied
    held = json.loads(cok("locations", "--player", "tim", "--json").stdout)["locations"]
    assert [(h["name"], h["bonus"]) for h in held] == [("Sunspear", "Re-roll one die a game")]
    assert "tim: Sunspear — Re-roll one die a game" in cok("standings").stdout
    assert "Re-roll one die a game" in cok("locations", "--player", "tim").stdout
    assert cok("site", str(tmp_path / "site")).exit_code == 0
    assert "Re-roll one die a game" in (tmp_path / "site" / "players" / "tim.html").read_text()
