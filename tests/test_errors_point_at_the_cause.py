"""Errors that point at the cause (#14): a typo in campaign.yaml is blamed on its own line,
unknown values list what is allowed, and "did you mean" names close matches only."""

from __future__ import annotations

from pathlib import Path

from cok.core.names import suggest

from .conftest import Cok


def test_a_mode_typo_in_campaign_yaml_is_blamed_on_its_line_with_the_known_modes(example: Path) -> None:
    settings = example / "campaign.yaml"
    settings.write_text(settings.read_text().replace("[a-clash-of-kings,", "[a-clash-of-king,"))
    run = Cok(example)("check")
    assert run.exit_code == 1
    assert run.stderr.splitlines() == [
        "campaign.yaml:5: modes: 'a-clash-of-king' is not a known game mode (did you mean 'a-clash-of-kings'?); "
        "known modes: a-clash-of-kings, a-game-of-thrones (a house mode of the campaign's own needs a name "
        "unlike them)"
    ]


def test_a_house_mode_with_a_name_of_its_own_is_still_allowed(example: Path) -> None:
    settings = example / "campaign.yaml"
    settings.write_text(settings.read_text().replace("[a-clash-of-kings,", "[king-of-the-hill, a-clash-of-kings,"))
    assert Cok(example)("check").exit_code == 0


def test_did_you_mean_names_only_the_close_matches() -> None:
    locations = ["Last Hearth", "Ashemark", "Karhold", "Hornwood"]
    assert suggest("last hearh", locations) == ["Last Hearth"]
    assert suggest("Last Heart", locations) == ["Last Hearth"]
    assert suggest("Zzyzx", locations) == []


def test_an_unknown_faction_lists_the_factions_allowed(example: Path) -> None:
    run = Cok(example)("join", "bob", "--faction", "dornish")
    assert run.exit_code == 1
    assert "unknown faction 'dornish'" in run.stderr
    assert "known factions: " in run.stderr and "stark" in run.stderr and "nights-watch" in run.stderr


def test_an_unknown_game_mode_lists_the_modes_the_campaign_allows(example: Path) -> None:
    run = Cok(example)("battle", "tim", "aaron", "--at", "Ghost Hill", "--winner", "tim", "--mode", "siege")
    assert run.exit_code == 1
    assert "it allows: a-clash-of-kings, a-game-of-thrones" in run.stderr
    assert "did you mean" not in run.stderr


def test_an_unknown_player_lists_the_players(example: Path) -> None:
    run = Cok(example)("paint", "bobby", "--fully-painted")
    assert run.exit_code == 1
    assert "unknown player 'bobby'; known players: tim, matt, aaron, sara, jon, dany" in run.stderr


def test_a_campaign_may_allow_factions_of_its_own(example: Path) -> None:
    settings = example / "campaign.yaml"
    settings.write_text(settings.read_text() + "factions: [tully, arryn]\n")
    cok = Cok(example)
    assert cok("join", "cat", "--faction", "Tully", "--castle", "Riverrun").exit_code == 0
    run = cok("join", "lysa", "--faction", "tulli", "--castle", "The Eyrie")
    assert run.exit_code == 1
    assert "unknown faction 'tulli' (did you mean 'tully'?)" in run.stderr
    assert "tully, arryn" in run.stderr


def test_a_faction_outside_the_known_ones_is_refused_listing_them(example: Path) -> None:
    run = Cok(example)("join", "cat", "--faction", "tully", "--castle", "Riverrun")
    assert run.exit_code == 1
    assert "unknown faction 'tully'; known factions: stark, lannister" in run.stderr


def test_a_campaign_faction_that_is_no_id_is_blamed_on_campaign_yaml(example: Path) -> None:
    settings = example / "campaign.yaml"
    settings.write_text(settings.read_text() + "factions: [House Tully]\n")
    run = Cok(example)("check")
    assert run.exit_code == 1
    assert run.stderr.startswith("campaign.yaml:6: factions")


def test_a_mistake_on_the_command_line_is_told_in_options(example: Path) -> None:
    cok = Cok(example)
    run = cok("battle", "tim", "aaron", "--at", "Ghost Hill")
    assert "give --winner, or both players' victory points with --vp, to decide it" in run.stderr
    run = cok("battle", "tim", "aaron", "--at", "Ghost Hill", "--winner", "tim", "--no-occupy")
    assert "--no-occupy is only for a winner under supply lines" in run.stderr
    run = cok("battle", "tim", "jon", "--at", "Lemonwood", "--winner", "tim")
    assert "must name the roll's winner as --attacker" in run.stderr and "`" not in run.stderr


def test_a_mistake_in_the_file_is_told_in_its_keys(example: Path) -> None:
    events = example / "events.yaml"
    events.write_text(events.read_text().replace("  attacker: tim\n", "", 1))
    run = Cok(example)("check")
    first = run.stderr.splitlines()[0]
    assert first.startswith("events.yaml:45: battle at Tarth:")
    assert first.endswith("the battle must name the roll's winner as attacker:")


def test_field_names_in_rule_messages_read_as_options_or_as_keys() -> None:
    from cok.core.text import in_command_line_words, in_file_words

    said = "give `winner` or `occupy: false`, `fully_painted`, see `cok void ID` (campaign.yaml's modes: list)"
    assert in_command_line_words(said) == (
        "give --winner or --no-occupy, --fully-painted, see `cok void ID` (campaign.yaml's modes: list)"
    )
    assert in_file_words(said) == (
        "give winner: or occupy: false, fully_painted:, see `cok void ID` (campaign.yaml's modes: list)"
    )
