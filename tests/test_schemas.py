"""The JSON Schemas `cok schema` prints agree with `cok check`, by a real validator: every
shipped file passes, and each broken copy in the table is refused by both."""

from __future__ import annotations

import datetime as dt
import json
import shutil
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from cok.core.yamlfile import parse

from .conftest import EXAMPLE, Cok

FILES = {"map": "map.yaml", "campaign": "campaign.yaml", "events": "events.yaml"}


def as_json(text: str) -> Any:
    """A YAML file as an editor's YAML language server sees it: plain JSON values."""
    plain = json.dumps(parse(text, "x"), default=lambda v: v.isoformat() if isinstance(v, dt.date) else str(v))
    return json.loads(plain)


def validator(kind: str) -> jsonschema.Draft202012Validator:
    schema = json.loads(Cok(EXAMPLE)("schema", kind).stdout)
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


@pytest.fixture
def campaign_copy(tmp_path: Path) -> Path:
    folder = tmp_path / "c"
    shutil.copytree(EXAMPLE, folder)
    return folder


@pytest.mark.parametrize("kind", list(FILES))
def test_every_shipped_file_passes_its_schema(campaign_copy: Path, kind: str) -> None:
    text = (campaign_copy / FILES[kind]).read_text()
    assert list(validator(kind).iter_errors(as_json(text))) == []
    assert Cok(campaign_copy)("check").exit_code == 0


BATTLE = "- type: battle\n  players: [tim, matt]\n  location: Tarth\n  winner: tim\n"
BROKEN: list[tuple[str, str, str, str]] = [
    # (kind, what is wrong, text to find, text to put instead: "" appends to the file)
    ("events", "an event without type", "", "- player: tim\n  cp: 1\n  reason: x\n"),
    ("events", "an empty event", "", "- {}\n"),
    ("events", "an unknown event type", "", "- type: battel\n"),
    ("events", "an unknown field", "", BATTLE + "  winer: tim\n"),
    ("events", "a victory-point key that is no player id", "", BATTLE + "  vp: {Tim!: 7, matt: 5}\n"),
    ("events", "negative victory points", "", BATTLE + "  vp: {tim: -1, matt: 5}\n"),
    ("events", "three players in a battle", "", BATTLE.replace("[tim, matt]", "[tim, matt, dany]")),
    ("events", "a join without a faction", "", "- type: join\n  player: bran\n"),
    ("events", "a player id in capitals", "", "- type: join\n  player: Bran\n  faction: stark\n"),
    ("events", "CP as words", "", "- type: adjust\n  player: tim\n  cp: lots\n  reason: x\n"),
    ("events", "a points limit of 0", "", "- type: week\n  limit: 0\n"),
    ("events", "negative units painted", "", "- type: painting\n  player: tim\n  units: -2\n"),
    ("events", "a time as seconds since 1970", "", "- type: week\n  at: 1700000000\n"),
    ("events", "a time in words", "", "- type: week\n  at: yesterday\n"),
    ("events", "a void without a reason", "", "- type: void\n  target: 548f66a3f8ca\n"),
    ("map", "an unknown kind", "kind: fort, at: [330, 50]", "kind: keep, at: [330, 50]"),
    ("map", "a location without a name", "{name: Fist of the First Men, kind", "{kind"),
    ("map", "an unknown top-level key", "name: Westeros\n", "name: Westeros\nregions: []\n"),
    ("map", "a route of three places", "  land:\n", "  land:\n    - [Hardhome, Castle Black, Eastwatch]\n"),
    ("map", "a bonus on a fort", "kind: fort, at: [330, 50]", "kind: fort, bonus: x, at: [330, 50]"),
    ("map", "routes through the air", "  sea:\n", "  air:\n    - [Hardhome, Eastwatch]\n  sea:\n"),
    ("map", "a position with one number", "at: [330, 50]", "at: [330]"),
    ("campaign", "a starting limit of 0", "start: 20", "start: 0"),
    ("campaign", "an unknown key", "points:", "pionts:"),
    ("campaign", "no name", "name: The War of the Five Kings\n", ""),
    ("campaign", "another game", "name: The War", "ruleset: chess\nname: The War"),
]


@pytest.mark.parametrize(("kind", "wrong", "old", "new"), BROKEN, ids=[b[1] for b in BROKEN])
def test_a_broken_copy_is_refused_by_the_schema_and_by_check(
    campaign_copy: Path, kind: str, wrong: str, old: str, new: str
) -> None:
    path = campaign_copy / FILES[kind]
    text = path.read_text()
    if old:
        assert old in text, wrong
        text = text.replace(old, new, 1)
    else:
        text += new
    path.write_text(text)
    assert list(validator(kind).iter_errors(as_json(text))), f"the schema accepts {wrong}"
    assert Cok(campaign_copy)("check").exit_code == 1, f"cok check accepts {wrong}"
