"""Issue 39, "The opponent confirms or disputes", at the terminal and in the service, for every
game: each test names the sentence it checks (docs/confirm.md)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cok.core.campaign import open_campaign
from cok.main import app
from cok.service import confirming
from tests.conftest import EXAMPLE, ROOT

runner = CliRunner()
SUNSPEAR = "fee98cd77237"  # Matt beat Tim at Sunspear (recorded by the organiser: made Matt's below)
HORNWOOD = "280fd34ff729"  # Sara beat Dany at Hornwood (made Sara's below)


def cok(folder: Path, *args: str, by: str = "organiser") -> tuple[int, str]:
    done = runner.invoke(app, [*args, "-C", str(folder)], env={"COK_BY": by})
    return done.exit_code, done.output


def recorded_by(log: Path, event_id: str, player: str) -> None:
    """The event's `by:` made a player's, as if they had recorded it from their phone."""
    text = log.read_text()
    at = text.index(f"id: {event_id}")
    by = text.index("  by: ", at)
    end = text.index("\n", by)
    log.write_text(text[:by] + f"  by: {player}" + text[end:])


@pytest.fixture
def example(tmp_path: Path) -> Path:
    copy = tmp_path / "example"
    shutil.copytree(EXAMPLE, copy)
    recorded_by(copy / "events.yaml", SUNSPEAR, "matt")
    recorded_by(copy / "events.yaml", HORNWOOD, "sara")
    return copy


def battle_by(folder: Path, recorder: str) -> str:
    """Tim and Matt's battle at Ghost Hill recorded by `recorder`: its id."""
    code, out = cok(
        folder, "battle", "tim", "matt", "--at", "Ghost Hill", "--vp", "tim=7", "--vp", "matt=5", by=recorder
    )
    assert code == 0, out
    return str(json.loads(cok(folder, "log", "--json")[1])["events"][-1]["id"])


def test_confirm_and_dispute_are_events_in_the_log_attributed_and_told_in_words(example: Path) -> None:
    code, out = cok(example, "confirm", SUNSPEAR[:6], by="tim")
    assert code == 0, out
    code, out = cok(example, "dispute", HORNWOOD[:5], "--reason", "over points", by="dany")
    assert code == 0, out
    log = (example / "events.yaml").read_text()
    assert f"type: confirm\n  target: {SUNSPEAR}" in log and "by: tim" in log
    assert f"type: dispute\n  target: {HORNWOOD}" in log and "by: dany" in log
    told = cok(example, "log")[1]
    assert f"tim confirms the result {SUNSPEAR}" in told
    assert f"dany disputes the result {HORNWOOD}: over points" in told


def test_the_recorder_of_a_battle_cannot_confirm_their_own_and_is_told_who_may(example: Path) -> None:
    ours = battle_by(example, "tim")
    before = (example / "events.yaml").read_bytes()
    code, out = cok(example, "confirm", ours, by="tim")
    assert code == 1
    assert "only matt (the other side) or an organiser may confirm it" in out
    assert (example / "events.yaml").read_bytes() == before
    assert cok(example, "confirm", ours, by="matt")[0] == 0


def test_only_the_other_side_or_an_organiser_may_confirm_a_player_of_the_recorders_side_may_not(example: Path) -> None:
    campaign = open_campaign(example)
    ours = battle_by(example, "tim")
    campaign = open_campaign(example)
    from cok.service import Who

    assert confirming.refusal(campaign, "confirm", ours, Who("matt")) is None
    assert confirming.refusal(campaign, "confirm", ours, Who("Ann", organiser=True)) is None
    assert "only matt" in str(confirming.refusal(campaign, "confirm", ours, Who("sara")))
    assert "tim recorded this result" in str(confirming.refusal(campaign, "dispute", ours, Who("tim")))


def test_a_disputed_result_is_marked_in_the_log_the_standings_and_json_until_an_organiser_keeps_it(
    example: Path,
) -> None:
    assert cok(example, "dispute", HORNWOOD, "--reason", "over points", by="dany")[0] == 0
    assert f"{HORNWOOD}" in cok(example, "log")[1].split("disputed by dany")[0].splitlines()[-1]
    standings = cok(example, "standings")[1]
    assert f"disputed: {HORNWOOD}" in standings
    document = json.loads(cok(example, "standings", "--json")[1])
    assert document["results"]["disputed"][0]["id"] == HORNWOOD
    events = json.loads(cok(example, "log", "--json")[1])["events"]
    row = next(e for e in events if e["id"] == HORNWOOD)
    assert row["confirmation"]["status"] == "disputed" and row["confirmation"]["reason"] == "over points"
    check = cok(example, "check")[1]
    assert f"disputed: {HORNWOOD}" in check
    assert cok(example, "settle", HORNWOOD, "--reason", "the lists were checked")[0] == 0
    assert "disputed" not in cok(example, "standings")[1]
    events = json.loads(cok(example, "log", "--json")[1])["events"]
    kept = next(e for e in events if e["id"] == HORNWOOD)["confirmation"]
    assert kept["status"] == "kept" and kept["ruling"] == "the lists were checked"
    assert "settles the dispute" in cok(example, "log")[1]


def test_an_organiser_settles_a_dispute_by_voiding_the_result_with_what_depends_on_it(example: Path) -> None:
    assert cok(example, "dispute", SUNSPEAR, "--reason", "I held it", by="tim")[0] == 0
    code, out = cok(example, "void", SUNSPEAR, "--reason", "replayed next week", "--cascade")
    assert code == 0, out
    assert confirming.disputes(open_campaign(example)) == []
    assert "disputed" not in cok(example, "check")[1]


def test_a_dispute_is_settled_only_while_open_and_a_result_is_not_confirmed_while_disputed(example: Path) -> None:
    code, out = cok(example, "settle", SUNSPEAR, "--reason", "nothing to settle")
    assert code == 1 and "awaiting" in out
    assert cok(example, "dispute", SUNSPEAR, "--reason", "no", by="tim")[0] == 0
    code, out = cok(example, "confirm", SUNSPEAR, by="matt")
    assert code == 1 and "disputed" in out


def test_confirm_or_dispute_names_a_result_a_painting_is_none(example: Path) -> None:
    code, out = cok(example, "confirm", "bdc56447555a", by="tim")
    assert code == 1 and "not a result the other side confirms" in out


def test_campaign_yaml_may_ask_that_results_wait_for_confirmation(example: Path) -> None:
    settings = example / "campaign.yaml"
    ours = battle_by(example, "tim")
    assert "awaiting confirmation" not in cok(example, "log")[1]
    settings.write_text(settings.read_text() + "confirm: required\n")
    told = cok(example, "log")[1]
    assert "awaiting confirmation by matt" in told
    assert f"awaiting confirmation by matt: {ours}" in cok(example, "check")[1]
    assert json.loads(cok(example, "standings", "--json")[1])["results"]["awaiting"][-1]["id"] == ours
    assert cok(example, "confirm", ours, by="matt")[0] == 0
    assert f"awaiting confirmation by matt: {ours}" not in cok(example, "check")[1]


def test_a_misspelt_confirm_setting_is_refused_with_its_line(example: Path) -> None:
    settings = example / "campaign.yaml"
    written = settings.read_text()
    settings.write_text(written + "confirm: optional\n")
    assert cok(example, "standings")[0] == 0
    settings.write_text(written + "confirm: requird\n")
    code, out = cok(example, "standings")
    assert code == 1 and "campaign.yaml:" in out and "confirm" in out


def test_who_the_ledger_waits_on_for_a_confirmation(example: Path) -> None:
    ours = battle_by(example, "tim")
    waiting = confirming.waiting(open_campaign(example))
    assert [r.id for r in waiting["matt"]][-1] == ours
    assert ours not in [r.id for r in waiting.get("tim", [])]


@pytest.mark.parametrize(
    ("example_folder", "kind"),
    [("campaigns/mighty-kingdoms", "battle"), ("campaigns/no-true-king-example", "resolve")],
)
def test_every_games_battles_are_results_the_other_side_confirms(
    tmp_path: Path, example_folder: str, kind: str
) -> None:
    copy = tmp_path / "copy"
    shutil.copytree(ROOT / example_folder, copy)
    assert not confirming.standing(open_campaign(copy))  # recorded by the organiser: nobody is asked
    events = json.loads(cok(copy, "log", "--json")[1])["events"]
    fought = next(e for e in events if e["type"] == kind and len(e["event"].get("by", "")) and _fights(e))
    recorded_by(copy / "events.yaml", fought["id"], fought["event"].get("attacker") or fought["event"]["player"])
    found = confirming.standing(open_campaign(copy))
    assert found and {r.type for r in found.values()} == {kind}
    first = next(iter(found.values()))
    assert first.other and first.by not in first.other
    code, out = cok(copy, "dispute", first.id, "--reason", "wrong dice", by=first.other[0])
    assert code == 0, out
    assert "disputed by" in cok(copy, "log")[1]


def _fights(told: dict[str, object]) -> bool:
    event = told["event"]
    assert isinstance(event, dict)
    return "attacker" in event or "combat" in event


def test_a_disputed_result_is_marked_on_the_sites_pages_latest_battles_log_and_player_pages(
    example: Path, tmp_path: Path
) -> None:
    assert cok(example, "dispute", HORNWOOD, "--reason", "over points", by="dany")[0] == 0
    code, out = cok(example, "site", str(tmp_path / "site"))
    assert code == 0, out
    marked = [p.name for p in (tmp_path / "site").rglob("*.html") if "disputed by dany: over points" in p.read_text()]
    assert "index.html" in marked and len(marked) >= 3, marked


def test_a_confirmation_naming_no_earlier_event_is_a_problem_at_its_line(example: Path) -> None:
    log = example / "events.yaml"
    log.write_text(log.read_text() + "- type: confirm\n  target: 0123456789ab\n  by: tim\n")
    code, out = cok(example, "check")
    assert code == 1 and "events.yaml:" in out and "confirm: no earlier event has the id" in out
