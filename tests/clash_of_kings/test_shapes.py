"""Clash of Kings' `where` fits its published shape in each way the attacker is decided
(docs/clash-of-kings.md: `decided_by` is `fewer-territories`, `given`, `brotherhood` or
`roll-needed`, whose `options` hold one outcome per attacker); the shared test
(tests/test_every_read_has_its_shape.py) covers the game's other reads."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cok.core.shapes import fits
from cok.rulesets.clash_of_kings.shapes import WhereDocument
from tests.conftest import Cok
from tests.games import played


@pytest.mark.parametrize(
    ("asked", "decided_by"),
    [
        (("tim", "sara"), "roll-needed"),
        (("tim", "sara", "--attacker", "sara"), "given"),
        (("tim", "sara", "--brotherhood", "tim", "--brotherhood", "sara"), "brotherhood"),
    ],
)
def test_where_fits_its_shape_however_the_attacker_is_decided(
    tmp_path: Path, asked: tuple[str, ...], decided_by: str
) -> None:
    shown = Cok(played(tmp_path, "clash-of-kings"))("where", *asked, "--json")
    assert shown.exit_code == 0, shown.stderr
    document = json.loads(shown.stdout)
    assert document["decided_by"] == decided_by
    fits(WhereDocument, document)


def test_where_by_fewer_territories_fits_its_shape(example: Path) -> None:
    document = json.loads(Cok(example)("where", "tim", "matt", "--json").stdout)
    assert document["decided_by"] == "fewer-territories"
    fits(WhereDocument, document)
