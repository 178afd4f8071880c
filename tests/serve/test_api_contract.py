"""The API checked by machine against its own published document (issue 50): schemathesis reads
`/api/openapi.json` of a served example and sends every operation valid and invalid inputs, each
as an organiser and as a player; no answer is a 5xx, each matches the document (its status, its
body), and the campaign still passes `cok check` after the run.

Bounded and deterministic: MAX_EXAMPLES per operation and generation mode, derandomized."""

from __future__ import annotations

from pathlib import Path

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis import GenerationMode

from cok.core import ruleset as registry
from cok.links import invites
from cok.rulesets import install
from cok.serve.app import create_app
from cok.serve.openapi import document
from cok.service.queries import check

MAX_EXAMPLES = 15


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
        }
    )


install()
#: Every operation the example campaign's game publishes (the served document is this one).
OPERATIONS = [
    (path, method.upper())
    for path, item in document(registry.get("clash-of-kings"))["paths"].items()
    for method in item
]


@pytest.mark.parametrize(("path", "method"), OPERATIONS, ids=[f"{m} {p}" for p, m in OPERATIONS])
def test_every_operation_answers_as_its_document_says(example: Path, path: str, method: str) -> None:
    for name, organiser in (("Ann", True), ("tim", False)):  # an organiser, then a player
        token = invites.invite(example, name, organiser=organiser)
        schema = schemathesis.openapi.from_asgi("/api/openapi.json", create_app(example), config=config(token))
        operation = schema[path][method]
        cases = st.one_of(
            operation.as_strategy(generation_mode=GenerationMode.POSITIVE),
            operation.as_strategy(generation_mode=GenerationMode.NEGATIVE),
        )

        @settings(
            max_examples=MAX_EXAMPLES * 2, derandomize=True, deadline=None, suppress_health_check=list(HealthCheck)
        )
        @given(case=cases)
        def answered_as_documented(case: schemathesis.Case) -> None:
            case.call_and_validate()

        answered_as_documented()
    assert [str(p) for p in check(example, use_cache=False)] == []
