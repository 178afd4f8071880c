"""The game modes catalogue (package data) and the campaign's allowed modes."""

from __future__ import annotations

from cok.rulesets.clash_of_kings.modes import catalogue
from cok.rulesets.clash_of_kings.rules.state import Settings


def test_both_source_modes_are_in_the_catalogue_with_set_up_rules_and_scoring() -> None:
    modes = catalogue()
    assert list(modes) == ["a-clash-of-kings", "a-game-of-thrones"]
    for mode in modes.values():
        assert mode.setup and mode.rules and mode.scoring and mode.deployment


def test_the_rules_default_to_every_known_mode() -> None:
    assert Settings().modes == tuple(catalogue())


def test_modes_with_a_campaign_lists_only_what_it_allows(campaign) -> None:  # type: ignore[no-untyped-def]
    import json

    from ..conftest import Cok

    (campaign / "campaign.yaml").write_text(
        "name: Test\nmap: ../../westeros.yaml\nmodes: [a-game-of-thrones, king-of-the-hill]\n"
    )
    doc = json.loads(Cok(campaign)("modes", "--json", "-C", ".").stdout)
    assert [m["id"] for m in doc["modes"]] == ["a-game-of-thrones"]
    assert doc["house_modes"] == ["king-of-the-hill"]
    Cok(campaign)("join", "tim", "--faction", "martell")
    Cok(campaign)("join", "matt", "--faction", "stark")
    run = Cok(campaign)(
        "battle",
        "tim",
        "matt",
        "--at",
        "Tarth",
        "--attacker",
        "tim",
        "--winner",
        "tim",
        "--mode",
        "King of the Hill",
        "--dry-run",
    )
    assert run.exit_code == 0, run.stderr
    refused = Cok(campaign)(
        "battle", "tim", "matt", "--at", "Tarth", "--attacker", "tim", "--winner", "tim", "--mode", "a-clash-of-kings"
    )
    assert refused.exit_code == 1 and "'a-clash-of-kings' is not a game mode this campaign allows" in refused.stderr


def test_cok_modes_finds_a_mode_with_the_spelling_steps_finder_and_its_words(campaign) -> None:  # type: ignore[no-untyped-def]
    """Issue #36: one mode finder. `cok modes MODE` reads a mode in any spelling as a battle's
    `mode` is read, and refuses an unknown one in the same sentence, naming what it shows."""
    from ..conftest import Cok

    cok = Cok(campaign)
    assert "Scoring" in cok("modes", "A CLASH OF KINGS").stdout
    refused = cok("modes", "clash of kingz")
    assert refused.exit_code == 1 and "Traceback" not in refused.stderr
    assert (
        "'clash of kingz' is not a game mode `cok modes` shows (did you mean 'a-clash-of-kings'?); "
        "it shows: a-clash-of-kings, a-game-of-thrones"
    ) in refused.stderr
    (campaign / "campaign.yaml").write_text("name: Test\nmap: ../../westeros.yaml\nmodes: [a-game-of-thrones]\n")
    only = cok("modes", "a clash of kings", "-C", ".")
    assert only.exit_code == 1 and "it shows: a-game-of-thrones" in only.stderr
