"""Mighty Kingdoms read again (issue #27): who can rout at the table, a hero's points, why an
artefact changes hands, the order before deploying — each test named after the source's
sentence, with the refusal at `file:line` where a log breaks it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from cok.core.log import event_types, parse_event
from cok.core.write import to_yaml
from cok.core.yamlfile import parse
from cok.rulesets.mighty_kingdoms import RULESET
from cok.rulesets.mighty_kingdoms.documents import status_doc
from cok.rulesets.mighty_kingdoms.events import EVENT_TYPES
from cok.rulesets.mighty_kingdoms.rules.phase import waiting_for
from cok.rulesets.mighty_kingdoms.rules.state import Army, ArtefactHeld
from cok.rulesets.mighty_kingdoms.words import tell

from ..conftest import Cok
from .game import EAST, MAP_TEXT, NORTH, WEST, Game, to_winter

UNITS = {"Spearmen": 2, "Archers": 1}


class Logged(Game):
    """A game that also keeps its events as a log a campaign folder can hold."""

    def __init__(self, **settings: Any) -> None:
        super().__init__(**settings)
        self.log: list[dict[str, Any]] = []

    def __call__(self, kind: str, **fields: Any) -> Any:
        outcome = super().__call__(kind, **fields)
        self.log.append({"type": kind, **{k: v for k, v in fields.items() if v is not None}})
        return outcome

    def folder(self, where: Path, *extra: str) -> Path:
        """The campaign folder of this log, with more events written by hand after it."""
        where.mkdir()
        settings = self.state.settings
        (where / "campaign.yaml").write_text(
            f"name: Read again\nruleset: mighty-kingdoms\nmap: map.yaml\nbattles: {settings.battles}\n"
            f"advanced: [{', '.join(settings.advanced)}]\n"
        )
        (where / "map.yaml").write_text(MAP_TEXT)
        written = "".join(to_yaml(EVENT_TYPES[e["type"]].model_validate(e)) for e in self.log)
        (where / "events.yaml").write_text(written + "".join(extra))
        return where


def line_of(folder: Path, text: str) -> int:
    """The line an event written by hand starts on (its `- type:` line)."""
    lines = (folder / "events.yaml").read_text().splitlines()
    return max(i for i, line in enumerate(lines, start=1) if line == text)


def checked(folder: Path) -> tuple[int, str]:
    run = Cok(folder)("check")
    return run.exit_code, run.stdout + run.stderr


# ---------------------------------------------------- "Armies on their side do not participate"


def kings_of_war_meeting(game: Game | None = None) -> Game:
    """ana-1 and bo-1 meet on the Ford in a Kings of War campaign, with units: battles phase."""
    return (game or Game(battles="kings-of-war")).meeting(units=UNITS)


def battle(game: Game, **fields: Any) -> Any:
    return game("battle", tile="0,0", attacker="ana", defender="bo", **fields)


def battle_refused(game: Game, **fields: Any) -> str:
    return game.refused("battle", tile="0,0", attacker="ana", defender="bo", **fields)


def on_its_side(game: Game, army_id: str) -> None:
    """A second army of the kingdom on the Ford, laid on its side (it lost a battle earlier)."""
    army = Army(army_id, army_id.rsplit("-", 1)[0], "0,0", upright=False, units=dict(UNITS))
    army.order, army.resolved = "regroup", True
    game.state.add_army(army)


def test_armies_on_their_side_do_not_participate_so_their_units_neither_rout_nor_are_routed() -> None:
    game = kings_of_war_meeting()
    on_its_side(game, "bo-2")
    retreat = {"bo-1": "1,0", "bo-2": "1,0"}
    message = battle_refused(game, result="ana", retreat=retreat, strength={"bo-2": {"Spearmen": -1}})
    assert "bo-2 is on its side" in message and "drop bo-2 from `strength`" in message
    assert "the armies that fought: ana-1, bo-1" in message
    battle(game, result="ana", retreat=retreat, strength={"bo-1": {"Spearmen": -1}})
    assert game.army("bo-2").changes == {} and game.army("bo-1").strength("Spearmen") == 1


def test_armies_on_their_side_are_affected_by_the_results() -> None:
    game = kings_of_war_meeting()
    on_its_side(game, "bo-2")
    battle(game, result="ana", retreat={"bo-1": "1,0", "bo-2": "1,0"})
    assert game.army("bo-2").tile == "1,0" and not game.army("bo-2").upright


# ------------------------------------- "The first time a unit damages and routs an enemy it gains +1"


def test_a_plus_one_needs_an_enemy_unit_it_routed() -> None:
    game = kings_of_war_meeting()
    retreat = {"bo-1": "1,0"}
    message = battle_refused(game, result="ana", retreat=retreat, strength={"ana-1": {"Spearmen": 1}})
    assert "+1 Unit Strength to 1 of ana's units but −1 to none of bo's" in message
    assert "give each routed unit of bo's its −1 in `strength`, or drop the extra +1" in message
    two_for_one = {"ana-1": {"Spearmen": 1, "Archers": 1}, "bo-1": {"Archers": -1}}
    assert "−1 to only 1 of bo's" in battle_refused(game, result="ana", retreat=retreat, strength=two_for_one)
    battle(game, result="ana", retreat=retreat, strength={"ana-1": {"Spearmen": 1}, "bo-1": {"Archers": -1}})
    assert game.army("ana-1").strength("Spearmen") == 3


def test_a_plus_one_is_counted_for_each_side_against_the_other() -> None:
    game = kings_of_war_meeting()
    routed_own = {"bo-1": {"Spearmen": 1, "Archers": -1}}  # bo's −1 pays for no +1 of bo's
    message = battle_refused(game, result="ana", retreat={"bo-1": "1,0"}, strength=routed_own)
    assert "+1 Unit Strength to 1 of bo's units but −1 to none of ana's" in message


def test_a_unit_routed_without_any_enemy_gaining_is_recorded() -> None:
    """Only the first rout a unit causes gains it +1: a −1 alone is lawful."""
    game = kings_of_war_meeting()
    battle(game, result="ana", retreat={"bo-1": "1,0"}, strength={"bo-1": {"Spearmen": -1, "Archers": -1}})
    assert game.army("bo-1").strength("Spearmen") == 1 and game.army("bo-1").strength("Archers") == 0


def test_a_lone_plus_one_in_a_log_is_refused_at_its_line(tmp_path: Path) -> None:
    game = kings_of_war_meeting(Logged(battles="kings-of-war"))
    assert isinstance(game, Logged)
    bad = (
        '- type: battle\n  tile: "0,0"\n  attacker: ana\n  defender: bo\n  result: ana\n'
        '  retreat: {bo-1: "1,0"}\n  strength: {ana-1: {Spearmen: 1}}\n'
    )
    folder = game.folder(tmp_path / "c", bad)
    code, said = checked(folder)
    assert code == 1
    assert f"events.yaml:{line_of(folder, '- type: battle')}" in said
    assert "a +1 needs an enemy unit it routed" in said


# ---------------------------------------- "Add 1 to the roll for every full 100 points the hero costs"


def towers_winter(game: Game | None = None) -> Game:
    """A wizard's tower on the Ford (month 1 of year 1, ana's roll), then winter, played month
    by month so that a log of it replays."""
    game = game or Game(advanced=["wizards-towers"])
    game.two_kingdoms()
    for month in range(1, 7):
        game.orders(**{"ana-1": "move 0,0" if month == 1 else "defend", "bo-1": "defend"})
        if month == 1:
            game("resolve", army="ana-1", roll=[2, 2], reroll=[3, 3])
        else:
            game("resolve", army="ana-1")
        game("resolve", army="bo-1")
        game("reform", order=["ana", "bo"])
    game("winter")
    assert "0,0" in game.state.towers
    return game


def test_add_1_to_the_roll_for_every_full_100_points_the_hero_costs() -> None:
    game = towers_winter()
    game.state.towers.update({"-1,1"})  # a second tower next to ana: a second quest this winter
    below = game("quest", player="ana", tower="0,0", hero="Captain", roll=3, points=99)
    assert (below.bonus, below.total, below.result) == (0, 3, "nothing")
    full = game("quest", player="ana", tower="-1,1", hero="Prince", roll=3, points=199)
    assert (full.bonus, full.total, full.result, full.points) == (1, 4, "artefact", "5-15")
    assert "; roll 3 + 1 for 199 points = 4: " in tell(game.state, full)


def test_an_old_bonus_reads_as_points_of_100_each() -> None:
    types = event_types(RULESET)
    (item,) = parse('- {type: quest, player: ana, tower: "0,0", hero: Prince, roll: 1, bonus: 2}\n', "events.yaml")
    event, errors = parse_event(item, types, RULESET)
    assert errors == [] and event is not None and event.points == 200  # type: ignore[attr-defined]


def test_points_and_bonus_are_never_both() -> None:
    types = event_types(RULESET)
    text = '- {type: quest, player: ana, tower: "0,0", hero: Prince, roll: 1, bonus: 2, points: 200}\n'
    event, errors = parse_event(parse(text, "events.yaml")[0], types, RULESET)
    assert event is None and any("never both: drop `bonus`" in e for e in errors)


def test_the_schema_reads_points_or_an_old_bonus_never_both() -> None:
    import jsonschema

    from cok.core.schemas import schema

    validator = jsonschema.Draft202012Validator(schema("events", RULESET))
    quest = {"type": "quest", "player": "ana", "tower": "0,0", "hero": "Prince", "roll": 1}
    assert validator.is_valid([{**quest, "points": 150}]) and validator.is_valid([{**quest, "bonus": 1}])
    assert not validator.is_valid([{**quest, "points": 150, "bonus": 1}])
    assert validator.is_valid([{"type": "artefact", "artefact": "art-1", "to": "bo", "override": "a ransom"}])


def test_an_old_log_with_bonus_replays_and_is_never_rewritten(tmp_path: Path) -> None:
    game = towers_winter(Logged(advanced=["wizards-towers"]))
    assert isinstance(game, Logged)
    old = '- type: quest\n  player: ana\n  tower: "0,0"\n  hero: Prince\n  roll: 3\n  bonus: 1\n'
    folder = game.folder(tmp_path / "c", old)
    before = (folder / "events.yaml").read_bytes()
    assert checked(folder)[0] == 0
    told = Cok(folder)("log").stdout
    assert "; roll 3 + 1 for 100 points = 4: " in told and "brings back an artefact of 5-15 points" in told
    assert (folder / "events.yaml").read_bytes() == before


def test_a_quest_with_both_is_refused_at_its_line(tmp_path: Path) -> None:
    game = towers_winter(Logged(advanced=["wizards-towers"]))
    assert isinstance(game, Logged)
    both = '- type: quest\n  player: ana\n  tower: "0,0"\n  hero: Prince\n  roll: 3\n  bonus: 1\n  points: 100\n'
    folder = game.folder(tmp_path / "c", both)
    code, said = checked(folder)
    assert code == 1 and f"events.yaml:{line_of(folder, '- type: quest')}" in said and "never both" in said


def test_cok_mk_quest_records_the_heros_points_and_shows_the_bonus(tmp_path: Path) -> None:
    game = towers_winter(Logged(advanced=["wizards-towers"]))
    assert isinstance(game, Logged)
    folder = game.folder(tmp_path / "c")
    args = ["mk", "quest", "ana", "--tower", "0,0", "--hero", "Prince", "--roll", "4", "--points", "250"]
    run = Cok(folder)(*args, "--json")
    assert run.exit_code == 0, run.stderr
    doc = json.loads(run.stdout)
    assert doc["event"]["points"] == 250 and "bonus" not in doc["event"]
    assert (doc["outcome"]["bonus"], doc["outcome"]["total"], doc["outcome"]["points"]) == (2, 6, "rare")
    assert "points: 250" in (folder / "events.yaml").read_text()
    assert "--bonus" not in Cok(folder)("mk", "quest", "--help").stdout


# ------------------------------- "If a unit with an item is routed in a battle in which their army
# loses, give the item to the winning player" / "An item held by a Capital City that is taken over"


def held_by(game: Game, holder: str) -> None:
    """art-1, brought back by a hero of `holder`'s last winter (only for the test: by hand)."""
    game.state.artefacts["art-1"] = ArtefactHeld("art-1", "Blade of Ashes", "5-15", holder, holder, 1)


def ana_wins(game: Game, dice: dict[str, int] | None = None) -> Any:
    """The battle on the Ford: ana-1's 6 hits bo-1 (Defence 5), bo-1's 1 misses; bo-1 retreats."""
    return game(
        "battle",
        tile="0,0",
        attacker="ana",
        defender="bo",
        dice=dice or {"ana-1": 6, "bo-1": 1},
        allocate=[["ana-1", "bo-1"], ["bo-1", "ana-1"]],
        retreat={"bo-1": "1,0"},
    )


def test_an_artefact_passes_to_the_kingdom_that_won_a_battle_against_its_holder() -> None:
    game = Game(advanced=["wizards-towers"]).meeting()
    held_by(game, "bo")
    message = game.refused("artefact", artefact="art-1", to="ana")
    assert "no cause for art-1 to pass from bo to ana" in message
    assert "override" not in message  # an organiser's ruling is the hint, offered only to an organiser
    ana_wins(game)
    outcome = game("artefact", artefact="art-1", to="ana")
    assert game.state.artefacts["art-1"].holder == "ana"
    assert "passes from bo to ana (ana won the battle at Ford (0,0))" in tell(game.state, outcome)


def test_an_artefact_passes_to_the_kingdom_that_took_its_holders_capital() -> None:
    game = Game(advanced=["wizards-towers"]).two_kingdoms()
    held_by(game, "bo")
    game.move("ana-1", "1,1")
    game.move("bo-1", "3,-1")
    game.orders(**{"ana-1": "move East", "bo-1": "defend"})
    game("resolve", army="ana-1")
    assert game.state.control["2,0"] == "ana"
    outcome = game("artefact", artefact="art-1", to="ana")
    assert "(ana took bo's capital at East (2,0))" in tell(game.state, outcome)


def test_a_draw_is_no_cause_for_an_artefact_to_pass() -> None:
    game = Game(advanced=["wizards-towers"]).meeting()
    held_by(game, "bo")
    assert ana_wins(game, {"ana-1": 1, "bo-1": 1}).winner is None
    assert "no cause" in game.refused("artefact", artefact="art-1", to="ana")


def test_every_cause_is_cleared_when_deploying_begins() -> None:
    game = Game(advanced=["wizards-towers"]).meeting()
    held_by(game, "bo")
    ana_wins(game)
    game("reform", order=["ana", "bo"])
    to_winter(game)
    game("feed", player="ana", unfed=[])
    assert ("ana", "bo") in game.state.causes  # winter, before deploying: it still counts
    game("feed", player="bo", unfed=[])
    assert game.state.causes == {}
    assert "no cause" in game.refused("artefact", artefact="art-1", to="ana")


def test_without_a_cause_the_organisers_override_reason_hands_it_over() -> None:
    game = Game(advanced=["wizards-towers"]).two_kingdoms()
    held_by(game, "bo")
    outcome = game("artefact", artefact="art-1", to="ana", override="carried off in the rout at the ford")
    assert game.state.artefacts["art-1"].holder == "ana"
    assert "; the organiser: carried off in the rout at the ford" in tell(game.state, outcome)
    game("artefact", artefact="art-1", to="pool")  # lost on the field: no cause needed


def test_a_blank_override_is_refused() -> None:
    game = Game(advanced=["wizards-towers"]).two_kingdoms()
    held_by(game, "bo")
    with pytest.raises(ValueError, match="override"):
        game("artefact", artefact="art-1", to="ana", override="   ")


def test_an_artefact_hand_over_without_a_cause_is_refused_at_its_line(tmp_path: Path) -> None:
    game = towers_winter(Logged(advanced=["wizards-towers"]))
    assert isinstance(game, Logged)
    game("quest", player="ana", tower="0,0", hero="Prince", roll=4)
    folder = game.folder(tmp_path / "c", "- type: artefact\n  artefact: art-1\n  to: bo\n")
    code, said = checked(folder)
    assert code == 1 and f"events.yaml:{line_of(folder, '- type: artefact')}" in said
    assert "give the organiser's reason with override:" in said
    (folder / "events.yaml").write_text("".join(to_yaml(EVENT_TYPES[e["type"]].model_validate(e)) for e in game.log))
    run = Cok(folder)("mk", "artefact", "art-1", "--to", "bo", "--override", "a ransom paid at the table")
    assert run.exit_code == 0, run.stderr
    assert "override: a ransom paid at the table" in (folder / "events.yaml").read_text()


# ------- "Redetermine player order as normal based on the current number of armies each player has"


def three_kingdoms_in_winter() -> Game:
    """ana, bo and cy, one army each, summer order ana, bo, cy; winter begun; bo recruits."""
    game = Game()
    game.kingdom("ana", WEST)
    game.kingdom("bo", EAST)
    game.kingdom("cy", NORTH)
    game("begin")
    to_winter(game)
    assert game.state.order == ["ana", "bo", "cy"]
    game("recruit", player="bo", tile="2,-1")
    return game


def test_deploying_redetermines_player_order_by_the_armies_each_player_has() -> None:
    game = three_kingdoms_in_winter()
    game("feed", player="ana", unfed=[])
    game("feed", player="bo", unfed=[])
    assert status_doc("x", game.state)["player_order"] == ["ana", "bo", "cy"]  # still winter
    outcome = game("feed", player="cy", unfed=[])
    assert status_doc("x", game.state)["player_order"] == ["bo", "ana", "cy"]
    assert "deploying begins, player order bo, ana, cy" in tell(game.state, outcome)
    # "In player order, each player places an army": bo's armies first
    assert [w["army"] for w in waiting_for(game.state)] == ["bo-1", "bo-2", "ana-1", "cy-1"]


def test_players_tied_on_armies_stay_in_the_summers_order_until_springs_order() -> None:
    game = three_kingdoms_in_winter()
    for player in ("ana", "bo", "cy"):
        game("feed", player=player, unfed=[])
    for army, tile in (("bo-1", "2,0"), ("bo-2", "2,0"), ("ana-1", "-2,0"), ("cy-1", "0,-3")):
        game("deploy", army=army, tile=tile)
    assert game.state.order == ["bo", "ana", "cy"]
    assert "tied" in game.refused("spring")
    game("spring", order=["bo", "cy", "ana"])
    assert game.state.order == ["bo", "cy", "ana"]


def test_status_shows_the_redetermined_order_while_deploying(tmp_path: Path) -> None:
    game = towers_winter(Logged(advanced=["wizards-towers"]))
    assert isinstance(game, Logged)
    game("recruit", player="bo", tile="2,-1")
    game("feed", player="ana", unfed=[])
    game("feed", player="bo", unfed=[])
    folder = game.folder(tmp_path / "c")
    doc = json.loads(Cok(folder)("mk", "status", "--json").stdout)
    assert (doc["phase"], doc["player_order"]) == ("deploy", ["bo", "ana"])
    assert "player order: bo, ana" in Cok(folder)("mk", "status").stdout
