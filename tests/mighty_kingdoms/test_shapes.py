"""Mighty Kingdoms' reads fit their published shapes (`rulesets/mighty_kingdoms/shapes.py`) in
the states the shared test (tests/test_every_read_has_its_shape.py: the first summer month of
its scenarios, and the shipped campaigns' reads without an option) does not reach: every phase
of summer and winter, setup, deadlines and absent kingdoms, Kings of War's lists and units,
wizard's towers and artefacts, terrain recruits, and each read's options (a kingdom, an army).

Campaigns are played by chance, legally (`play.Table`), and every read is asked after every
event; each test also checks that the states it means to cover were reached, so that a shape
is never checked only against the documents that happen to be easy."""

from __future__ import annotations

import dataclasses
import datetime as dt
import shutil
import warnings
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from pydantic import ValidationError

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from cok.core.campaign import open_campaign
from cok.core.deadlines import follow, set_up
from cok.core.shapes import fits
from cok.links import invites
from cok.rulesets.mighty_kingdoms import queries
from cok.rulesets.mighty_kingdoms.deadlines import waits
from cok.rulesets.mighty_kingdoms.documents import status_doc
from cok.rulesets.mighty_kingdoms.offers import offers
from cok.rulesets.mighty_kingdoms.reports import standings_report
from cok.rulesets.mighty_kingdoms.rules.state import PHASES, Settings, State
from cok.rulesets.mighty_kingdoms.shapes import SHAPES
from cok.serve.app import create_app
from tests.conftest import ROOT

from .play import Table, new_state

#: Every step with a deadline, so that every wait has its due time and every offer its default.
DEADLINES = {"orders": "48h", "resolution": "24h", "battles": "24h", "reform": "24h", "winter": "48h"}
START = dt.datetime(2026, 11, 30, 10, tzinfo=dt.UTC)
#: What the ledger may wait for (`waiting_for`), and the lists a kingdom's page may offer.
WAITS = ("kingdom", "begin", "order", "resolve", "battle", "reform", "winter", "feed", "deploy", "spring")
OFFERED = ("orders", "resolve", "fights", "tithe_to", "builds", "recruit_at", "disband", "feed", "deploy")


@pytest.fixture(autouse=True)
def _own_data(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COK_DATA_DIR", str(tmp_path_factory.mktemp("data")))


def checked(name: str, document: Any, seen: set[str]) -> Any:
    """The document fits its read's shape; `seen` learns the read was asked."""
    fits(SHAPES[name], document)
    seen.add(name)
    return document


def every_read(state: State, seen: set[str]) -> None:
    """Every read of the campaign in this state, each with every option it takes (each
    kingdom, each army), fits its shape; `seen` learns what the documents held."""
    campaign: Any = SimpleNamespace(name="Shapes", state=state)  # what the reads ask of a campaign
    status = checked("status", status_doc("Shapes", state), seen)
    seen.add(f"phase {status['phase']}")
    seen.update(f"waiting for {wait['what']}" for wait in status["waiting_for"])
    if any(wait["due"] for wait in status["due"]):
        seen.add("a due time")
    standings = checked("standings", standings_report(campaign).document, seen)
    if any(row["absent"] for row in standings["kingdoms"]):
        seen.add("an absent kingdom")
    for kingdom in checked("kingdoms", queries.kingdoms(campaign), seen)["kingdoms"]:
        if "recruit_terrain" in kingdom:
            seen.add("a kingdom's recruit_terrain")
        if kingdom["artefacts"]:
            seen.add("an artefact held")
        if kingdom["capital"] is None:
            seen.add("a capital lost")
    for army in checked("armies", queries.armies(campaign), seen)["armies"]:
        seen.update(f"an army's {key}" for key in ("to", "deployed", "defending", "list", "units") if key in army)
    for battle in checked("battles", queries.battles(campaign), seen)["battles"]:
        if battle["benefit"] is not None:
            seen.add("a defended battle")
        if any("defence" in army for side in battle["sides"] for army in side["armies"]):
            seen.add("an army's defence")
    for read in ("phase", "rules", "artefacts", "picture"):
        checked(read, getattr(queries, read)(campaign), seen)
    if checked("recalls", queries.recalls(campaign), seen):
        seen.add("a recall")
    for player, kingdom in state.kingdoms.items():
        checked("armies", queries.armies(campaign, kingdom.name), seen)
        offered = checked("offers", dataclasses.asdict(offers(state, player)), seen)  # the read, but its defaults
        seen.update(f"offers {key}" for key in OFFERED if offered[key])
        if offered["due"] is not None:
            seen.add("offers a due time")
        if checked("towers", queries.towers(campaign, player), seen)["towers"]:
            seen.add("a tower")
        for army in [None, *state.armies]:
            if checked("targets", queries.targets(campaign, player, army), seen)["tiles"]:
                seen.add("a target")


def played(rules: Settings, seed: int, events: int, each: Callable[[State], None]) -> Table:
    """A campaign of three kingdoms played by chance with every deadline set: after each event
    its waits are dated an hour later, and `each` is asked of the state."""
    table = Table(new_state(rules), seed, kingdoms=3)
    table.state.clock = set_up(DEADLINES, "Europe/London", absent_after=0)
    each(table.state)
    while len(table.log) < events:
        table.step()
        follow(table.state.clock, START + dt.timedelta(hours=len(table.log)), waits(table.state))
        if len(table.log) == 40:  # a kingdom marked absent from here on (as missed deadlines would)
            table.state.clock.absent.add("bo")
        each(table.state)
    return table


#: What every campaign played below must have shown: each phase, each kind of wait, each list
#: a kingdom's page offers, deadlines and an absent kingdom, battles and moves.
EVERYWHERE = {
    *(f"phase {p}" for p in PHASES),
    *(f"waiting for {w}" for w in WAITS),
    *(f"offers {key}" for key in OFFERED),
    *("offers a due time", "a due time", "an absent kingdom", "a target"),
    *("an army's to", "an army's deployed", "an army's defending"),
    *SHAPES,
}
SIMPLE = Settings(army_limit=2, advanced=("wizards-towers", "terrain-recruits"))
KINGS_OF_WAR = Settings(battles="kings-of-war", army_limit=3, advanced=("wizards-towers",))


@pytest.mark.parametrize(
    ("rules", "seed", "also"),
    [
        (
            SIMPLE,
            2,
            {"a defended battle", "an army's defence", "a kingdom's recruit_terrain", "a capital lost", "a recall"},
        ),
        (SIMPLE, 3, {"an army's defence", "a kingdom's recruit_terrain", "a tower", "an artefact held"}),
        (KINGS_OF_WAR, 2, {"a defended battle", "an army's list", "an army's units", "a tower", "an artefact held"}),
    ],
    ids=["simple-a-capital-lost", "simple-a-quest", "kings-of-war-a-quest"],
)
def test_every_read_fits_its_shape_after_every_event_of_a_campaign_played_by_chance(
    rules: Settings, seed: int, also: set[str]
) -> None:
    """Setup, every phase of two years' summers and winters, with deadlines and an absent
    kingdom: after each event, each read with each of its options fits its shape."""
    seen: set[str] = set()
    played(rules, seed, 400, lambda state: every_read(state, seen))
    assert EVERYWHERE | also <= seen, sorted((EVERYWHERE | also) - seen)


@pytest.mark.parametrize("timed", [False, True], ids=["no-deadlines", "with-deadlines"])
@pytest.mark.parametrize("name", ["mighty-kingdoms", "mighty-kingdoms-kow"])
def test_each_read_of_a_shipped_campaign_fits_its_shape_for_each_kingdom_and_army(
    name: str, timed: bool, tmp_path: Path
) -> None:
    """The reads the shared test leaves out (those about a kingdom or an army) of the shipped
    campaigns, simple and Kings of War, asked of the API as a kingdom's page asks them; with
    every deadline set, the service's due times too (`status`'s `due`, `offers`' `due` and
    `if_missed`)."""
    folder = tmp_path / name
    shutil.copytree(ROOT / "campaigns" / name, folder)
    if timed:
        with (folder / "campaign.yaml").open("a", encoding="utf-8") as settings:
            settings.write("deadlines:\n" + "".join(f"  {step}: {spec}\n" for step, spec in DEADLINES.items()))
    state: State = open_campaign(folder).state
    asked = [f"/api/{read}" for read in SHAPES if read not in ("offers", "towers", "targets")]
    for player, kingdom in state.kingdoms.items():
        asked += [f"/api/{read}?player={kingdom.name}" for read in ("armies", "offers", "towers", "targets")]
        asked += [f"/api/targets?player={player}&army={army}" for army in state.armies]
    answers = {}
    token = invites.invite(folder, "Ann", organiser=True)
    with TestClient(create_app(folder)) as client:
        for path in asked:
            answer = client.get(path, headers={"authorization": f"Bearer {token}"})
            assert answer.status_code == 200, (path, answer.text)
            fits(SHAPES[path.removeprefix("/api/").split("?")[0]], answer.json())
            answers[path] = answer.json()
    assert len(asked) > len(SHAPES) + 4 * len(state.kingdoms)  # it had kingdoms and armies to ask about
    offered = [answers[path] for path in asked if path.startswith("/api/offers")]
    assert any(wait["due"] for wait in answers["/api/status"]["due"]) is timed
    assert any(offer["due"] and offer["if_missed"] for offer in offered) is timed


def test_a_document_with_a_field_its_shape_does_not_name_does_not_fit() -> None:
    """The check can fail: a field added to a read without its shape, or a number where the
    shape says text, is refused."""
    seen: set[str] = set()
    table = played(SIMPLE, 2, 12, lambda state: None)
    campaign: Any = SimpleNamespace(name="Shapes", state=table.state)
    document = queries.armies(campaign)
    fits(SHAPES["armies"], document)
    army = document["armies"][0]
    for wrong in ({**army, "morale": 3}, {**army, "points": str(army["points"])}, {**army, "order": "charge"}):
        with pytest.raises(ValidationError):
            checked("armies", {"armies": [wrong]}, seen)
    assert "armies" not in seen
