"""Issue 34: bo took ana's artefact (`{"type": "artefact", "artefact": "art-1", "to": "bo",
"override": "finders keepers"}` answered 201). The kingdom that holds an artefact is a party
to its hand-over, and the override is the organiser's."""

from __future__ import annotations

from pathlib import Path

from cok.rulesets.mighty_kingdoms import RULESET
from cok.service import Draft, Who, may_record

from .game import Game
from .test_intents import month  # noqa: F401  (the fixture)
from .test_read_again import held_by


def test_the_kingdom_that_holds_an_artefact_is_a_party_to_its_hand_over() -> None:
    game = Game(advanced=["wizards-towers"]).two_kingdoms()
    held_by(game, "ana")
    assert RULESET.named(game.state, "artefact", {"artefact": "art-1", "to": "bo"}) == {"ana", "bo"}
    assert RULESET.named(game.state, "artefact", {"artefact": "ART-1", "to": "pool"}) == {"ana"}


def test_an_artefacts_override_is_the_organisers(month: Path) -> None:  # noqa: F811
    taken = Draft("artefact", {"artefact": "art-1", "to": "bo", "override": "finders keepers"})
    assert not may_record(month, taken, Who("bo"))
    assert not may_record(month, Draft("artefact", {"artefact": "art-1", "to": "bo"}), Who("bo"), {"override": "x"})
    assert may_record(month, taken, Who("x", organiser=True))
