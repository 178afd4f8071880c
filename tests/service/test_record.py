"""`service.record`: a draft as a user gave it becomes the event the log holds, through
the game's intents and the very ledger the command line uses; a question or a refusal
writes nothing; a hook after the write never undoes it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from cok.core.dice import FixedDice
from cok.core.errors import Refused
from cok.core.log import read_log
from cok.core.yamlfile import decode
from cok.rulesets.clash_of_kings import RULESET
from cok.service import Asked, Draft, Refusal, Who, record

from ..games import GAMES, played
from .conftest import log_of


def events_of(folder: Path) -> list[Any]:
    raw = (folder / "events.yaml").read_bytes()
    return [e.event for e in read_log(raw, decode(raw, "events.yaml", "event log"), "events.yaml", RULESET).entries]


def battle(**fields: Any) -> Draft:
    return Draft("battle", {"players": ["Tim", "MATT"], "location": "tarth", **fields})


def test_names_are_found_in_any_spelling_and_by_is_who_records(two: Path) -> None:
    done = record(two, [battle(attacker="tim", vp=["tim=7", "matt=5"])], by=Who("tim"))
    event = events_of(two)[-1]
    assert (event.players, event.location, event.winner, event.by) == (["tim", "matt"], "Tarth", None, "tim")
    assert event.vp == {"tim": 7, "matt": 5}
    assert done.written and done.events[0].id == event.id
    assert done.told == [done.document["summary"]]


def test_scores_may_be_a_mapping_of_names_to_numbers(two: Path) -> None:
    record(two, [battle(attacker="tim", vp={"TIM": 3, "Matt": 9})], by="matt")
    assert events_of(two)[-1].vp == {"tim": 3, "matt": 9}
    assert events_of(two)[-1].by == "matt"


def test_without_by_the_recorder_is_cok_by(two: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COK_BY", "the-organiser")
    record(two, [Draft("week", {})], by=None)
    assert events_of(two)[-1].by == "the-organiser"


@pytest.mark.parametrize("field", ["id", "at", "by"])
def test_an_id_at_or_by_given_by_a_client_is_refused(two: Path, field: str) -> None:
    before = log_of(two)
    with pytest.raises(Refused) as caught:
        record(two, [battle(attacker="tim", winner="tim", **{field: "x"})], by="tim")
    assert f"{field}:" in caught.value.problems[0].message and "set by cok" in caught.value.problems[0].message
    assert log_of(two) == before


def test_a_field_the_event_does_not_have_is_refused_naming_it(two: Path) -> None:
    with pytest.raises(Refused) as caught:
        record(two, [battle(attacker="tim", winer="tim")], by="tim")
    assert "no winer:" in caught.value.problems[0].message
    assert "did you mean 'winner'" in caught.value.problems[0].message


def test_an_unknown_event_type_is_refused_naming_the_known_ones(two: Path) -> None:
    with pytest.raises(Refused) as caught:
        record(two, [Draft("batle", {})], by="tim")
    assert "unknown event type 'batle'" in caught.value.problems[0].message
    assert "battle" in caught.value.problems[0].message.split("known:")[1]


def test_a_refusal_is_in_the_words_of_cok_check_and_keeps_the_rules_own(two: Path) -> None:
    before = log_of(two)
    with pytest.raises(Refusal) as caught:
        record(two, [battle(attacker="tim", winner="nobody")], by="tim")
    assert "unknown player 'nobody'" in caught.value.problems[0].message
    with pytest.raises(Refusal) as caught:
        record(two, [battle(attacker="tim")], by="tim")
    assert caught.value.problems[0].message.startswith("give winner:, or")
    assert str(caught.value.rule).startswith("give `winner`, or")
    assert log_of(two) == before


def test_a_roll_off_is_asked_as_a_choice_of_the_two_players_and_nothing_is_written(two: Path) -> None:
    before = log_of(two)
    with pytest.raises(Asked) as caught:
        record(two, [battle(winner="tim")], by="tim")
    question = caught.value.question
    assert (question.kind, question.field, question.options) == ("choice", "attacker", ("tim", "matt"))
    assert "`attacker`" in question.words
    assert log_of(two) == before
    record(two, [battle(winner="tim")], by="tim", answers={"attacker": "TIM"})
    assert events_of(two)[-1].attacker == "tim"


def test_the_dice_settle_a_roll_off_when_asked_to_roll_it(two: Path) -> None:
    # the players' dice in the order of their ids, whoever is named first: matt's, then tim's
    record(two, [battle(winner="tim")], by="tim", answers={"roll_dice": True}, dice=FixedDice(2, 2, 1, 5))
    assert events_of(two)[-1].attacker == "tim"  # 2 v 2: again; then matt's 1 v tim's 5
    with pytest.raises(Refusal, match="not a legal location for matt"):  # the dice chose matt
        record(two, [battle(winner="tim")], by="tim", answers={"roll_dice": True, "again": True}, dice=FixedDice(5, 1))


def test_a_tie_asks_for_the_points_remaining_of_both_as_numbers(two: Path) -> None:
    with pytest.raises(Asked) as caught:
        record(two, [battle(attacker="tim", vp={"tim": 5, "matt": 5})], by="tim")
    question = caught.value.question
    assert (question.kind, question.field, set(question.keys)) == ("numbers", "remaining", {"tim", "matt"})
    record(
        two, [battle(attacker="tim", vp={"tim": 5, "matt": 5})], by="tim", answers={"remaining": {"tim": 3, "matt": 8}}
    )
    assert events_of(two)[-1].remaining == {"tim": 3, "matt": 8}


def test_the_same_battle_twice_is_asked_about_and_recorded_again_when_answered(two: Path) -> None:
    again = battle(location="Sunspear", attacker="tim", winner="tim", override="a friendly at home")
    record(two, [again], by="tim")
    before = log_of(two)
    with pytest.raises(Asked) as caught:
        record(two, [again], by="tim")
    assert (caught.value.question.kind, caught.value.question.field) == ("repeated", "again")
    assert log_of(two) == before
    record(two, [again], by="tim", answers={"again": True})
    assert len(events_of(two)) == 4


def test_a_points_limit_that_goes_down_is_asked_about_then_recorded(two: Path) -> None:
    record(two, [Draft("week", {"limit": 23})], by=Who("org", organiser=True))
    before = log_of(two)
    with pytest.raises(Asked) as caught:
        record(two, [Draft("week", {"limit": 10})], by=Who("org", organiser=True))
    question = caught.value.question
    assert question.kind == "confirm" and question.field == "lower_limit"
    assert "10 is lower than week 2's 23" in question.words
    assert log_of(two) == before
    record(two, [Draft("week", {"limit": 10})], by=Who("org", organiser=True), answers={"lower_limit": True})
    assert events_of(two)[-1].limit == 10


def test_a_points_limit_below_week_ones_is_asked_about(two: Path) -> None:
    with pytest.raises(Asked) as caught:
        record(two, [Draft("week", {"limit": 19})], by="org")
    assert "lower than week 1's 20" in caught.value.question.words


def test_a_dry_run_writes_nothing_and_says_what_it_would_record(two: Path) -> None:
    before = log_of(two)
    done = record(two, [battle(attacker="tim", winner="tim")], by="tim", dry_run=True)
    assert not done.written and done.document["written"] is False
    assert done.events[0].by == "tim" and done.events[0].id
    assert "Tim" in done.told[0]
    assert log_of(two) == before


def test_drafts_recorded_together_are_one_change(two: Path) -> None:
    drafts = [
        Draft("adjust", {"player": "tim", "cp": 1, "reason": "a"}),
        Draft("adjust", {"player": "Matt", "cp": 2, "reason": "b"}),
    ]
    done = record(two, drafts, by="org")
    assert [e.player for e in events_of(two)[-2:]] == ["tim", "matt"]
    assert len(done.told) == 2 and done.document["together_with"][0]["player"] == "matt"


def test_a_batch_refused_half_way_writes_none_of_it(two: Path) -> None:
    before = log_of(two)
    drafts = [Draft("adjust", {"player": "tim", "cp": 1, "reason": "a"}), battle(attacker="tim")]
    with pytest.raises(Refused, match="give winner:"):
        record(two, drafts, by="org")
    assert log_of(two) == before


def test_each_change_is_handed_to_its_followers_once_written(two: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 45: one write, its followers (the chat's outbox first), the same for every interface."""
    from cok.notify import outbox

    seen: list[tuple[list[str | None], str]] = []
    monkeypatch.setattr(
        outbox, "enqueue", lambda folder, change: seen.append(([e.id for e in change.events], log_of(two)))
    )
    done = record(two, [Draft("week", {})], by="org")
    assert seen == [([done.events[0].id], seen[0][1])]
    assert done.events[0].id is not None and done.events[0].id in seen[0][1]  # already in the log


def test_a_follower_that_fails_is_a_warning_and_the_event_stays(two: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from cok.notify import outbox

    def full(folder: Path, change: object) -> int:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(outbox, "enqueue", full)
    done = record(two, [Draft("week", {})], by="org")
    assert done.written and done.events[0].id in log_of(two)
    assert done.warnings == [f"recorded as {done.events[0].id}, but the chat's outbox failed: No space left on device"]


def test_no_follower_runs_for_a_dry_run(two: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from cok.notify import outbox

    ran: list[object] = []
    monkeypatch.setattr(outbox, "enqueue", lambda folder, change: ran.append(change))
    record(two, [Draft("week", {})], by="org", dry_run=True)
    assert ran == []


def test_an_organiser_ruling_is_offered_when_a_location_is_illegal(two: Path) -> None:
    with pytest.raises(Refusal) as caught:
        record(two, [battle(location="Winterfell", attacker="tim", winner="tim")], by="org")
    message = caught.value.problems[0].message
    assert "Winterfell is not a legal location for tim" in message
    assert message.endswith("an organiser may rule otherwise: override: REASON")


def test_a_void_is_given_in_the_logs_own_shape(two: Path) -> None:
    done = record(two, [Draft("adjust", {"player": "tim", "cp": 1, "reason": "a"})], by="org")
    record(two, [Draft("void", {"target": done.events[0].id, "reason": "wrong week"})], by="org")
    assert events_of(two)[-1].target == done.events[0].id


@pytest.mark.parametrize("game", GAMES)
def test_every_games_event_in_the_logs_own_shape_records_through_its_event_model(tmp_path: Path, game: str) -> None:
    import yaml

    folder = played(tmp_path, game)
    text = log_of(folder)
    cut = text.rindex("\n- ") + 1
    last = yaml.safe_load(text[cut:])[0]
    (folder / "events.yaml").write_text(text[:cut])
    fields = {k: v for k, v in last.items() if k not in ("type", "id", "at", "by")}
    done = record(folder, [Draft(last["type"], fields)], by="someone")
    assert done.written
    assert log_of(folder).startswith(text[:cut]) and "by: someone" in log_of(folder)[cut:]


@pytest.mark.parametrize(
    "draft",
    [
        Draft("battle", ["tim", "matt"]),  # type: ignore[arg-type]
        Draft(None, {}),  # type: ignore[arg-type]
        Draft("battle", {1: "tim"}),
        Draft("battle", {"players": 5, "location": "Tarth"}),
        Draft("battle", {"players": ["tim", "matt"], "location": 5, "winner": "tim"}),
        Draft("battle", {"players": ["tim", "matt"], "location": "Tarth", "vp": 7}),
        Draft("battle", {"players": ["tim", "matt"], "location": "Tarth", "vp": {"tim": "7"}}),
        Draft("battle", {"players": ["tim", "matt"], "location": "Tarth", "vp": [7]}),
        Draft("battle", {"players": ["tim", "matt"], "location": "Tarth", "week": "soon"}),
        Draft("painting", {"player": ["tim"]}),
        Draft("adjust", {"player": "tim", "cp": "lots", "reason": "x"}),
        Draft("week", {"limit": -3}),
        Draft("join", {"player": "Sara", "faction": "stark"}),
        Draft("join", {"player": "sara", "faction": {"a": 1}}),
        Draft("void", {"target": ["x"]}),
    ],
)
def test_a_draft_of_any_shape_is_refused_in_words_never_a_crash(two: Path, draft: Draft) -> None:
    before = log_of(two)
    with pytest.raises(Refused) as caught:
        record(two, [draft], by="org", answers={"attacker": 5} if draft.type == "battle" else {})
    assert caught.value.problems and all(p.message for p in caught.value.problems)
    assert log_of(two) == before
