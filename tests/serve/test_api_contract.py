"""The API checked by machine against its own published document (issue 50): schemathesis reads
`/api/openapi.json` of a served example and sends every operation valid and invalid inputs, each
as an organiser and as a player; no answer is a 5xx, each matches the document (its status, its
body), and the campaign still passes `cok check` after the run.

Bounded and deterministic: MAX_EXAMPLES per operation and generation mode, derandomized."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis import GenerationMode

from cok.contract.openapi import document
from cok.core import ruleset as registry
from cok.links import invites
from cok.rulesets import install
from cok.serve.app import create_app
from cok.service.queries import check
from tests.conftest import ROOT

CAMPAIGNS = ROOT / "campaigns"

MAX_EXAMPLES = 10
#: No True King's pages' reads whose options are the page's actions as JSON text (`before`,
#: `actions`), which the document can only call a string: any other string is refused (400),
#: and only that check, whether a string valid by the document is taken, is left out for them.
JSON_TEXT_OPTIONS = ("/api/combat", "/api/opening")


def config(token: str) -> schemathesis.Config:
    """Every check schemathesis has, as it has them, with the link's token as the document's
    Bearer scheme; only a request valid by the document that the rules refuse (an unknown
    player, a battle where no one may fight) is not a failure: the document says what a
    request may look like, the campaign's state decides the rest."""
    return schemathesis.Config.from_dict(
        {
            "auth": {"openapi": {"link": {"bearer": token}}},
            "checks": {
                "positive_data_acceptance": {"expected-statuses": ["2xx", "401", "403", "404", "409", "422", "429"]}
            },
            "operations": [
                {"include-path": path, "checks": {"positive_data_acceptance": {"enabled": False}}}
                for path in JSON_TEXT_OPTIONS
            ],
        }
    )


install()
#: Each game's example campaign, a player of it, and how many examples per operation and mode:
#: Clash of Kings' (the served example of issue 50) the most, the others' fewer (CI's time).
GAMES = {
    "clash-of-kings": ("example", "tim", MAX_EXAMPLES),
    "mighty-kingdoms": ("mighty-kingdoms", "ana", 3),
    "no-true-king": ("no-true-king-example", "ana", 3),
}
#: Every operation each game's example publishes (the served document is this one).
OPERATIONS = [
    (game, path, method.upper())
    for game in GAMES
    for path, item in document(registry.get(game))["paths"].items()
    for method in item
]


@pytest.mark.parametrize(("game", "path", "method"), OPERATIONS, ids=[f"{g} {m} {p}" for g, p, m in OPERATIONS])
def test_every_operation_answers_as_its_document_says(tmp_path: Path, game: str, path: str, method: str) -> None:
    folder, player, examples = GAMES[game]
    served = tmp_path / folder
    shutil.copytree(CAMPAIGNS / folder, served)
    for name, organiser in (("Ann", True), (player, False)):  # an organiser, then a player
        token = invites.invite(served, name, organiser=organiser)
        schema = schemathesis.openapi.from_asgi("/api/openapi.json", create_app(served), config=config(token))
        operation = schema[path][method]
        cases = st.one_of(
            operation.as_strategy(generation_mode=GenerationMode.POSITIVE),
            operation.as_strategy(generation_mode=GenerationMode.NEGATIVE),
        )

        @settings(max_examples=examples * 2, derandomize=True, deadline=None, suppress_health_check=list(HealthCheck))
        @given(case=cases)
        def answered_as_documented(case: schemathesis.Case) -> None:
            case.call_and_validate()

        answered_as_documented()
    assert [str(p) for p in check(served, use_cache=False)] == []
