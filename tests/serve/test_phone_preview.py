"""Issue #35: a preview before recording (what `--dry-run` shows), then "Record it"."""

from __future__ import annotations

import html
import json
import re

from tests.conftest import Cok
from tests.serve.conftest import Table
from tests.serve.test_pages import main_of


def test_preview_shows_the_change_and_writes_nothing_then_record_it_records(table: Table) -> None:
    csrf = table.sign_in(table.tim)
    page = table.client.get("/play/battle?opponent=matt").text
    assert 'name="preview" value="1"' in page
    before = table.log()
    form = {"csrf": csrf, "a": "tim", "b": "matt", "location": "Ghost Hill", "vp:tim": "7", "vp:matt": "5"}
    shown = table.client.post("/play/battle", data={**form, "preview": "1"})
    assert shown.status_code == 200, main_of(shown.text)
    assert "Tim (attacker) beat Matt at Ghost Hill" in main_of(shown.text)
    assert table.log() == before
    hidden = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', shown.text))
    done = table.client.post("/record", data={k: html.unescape(v) for k, v in hidden.items()})
    assert done.status_code == 200 and "<h1>Recorded</h1>" in done.text, main_of(done.text)
    assert "location: Ghost Hill" in table.log().decode().rsplit("- type:", 1)[1]


def test_every_recording_form_of_clash_of_kings_offers_a_preview(table: Table) -> None:
    table.sign_in(table.organiser)
    for path in ("/play/paint", "/play/week", "/play/adjust", "/play/join"):
        assert 'name="preview" value="1"' in table.client.get(path).text, path


def test_the_game_modes_and_the_free_locations_are_on_the_phone(table: Table) -> None:
    table.sign_in(table.tim)
    from cok.rulesets.clash_of_kings.modes import catalogue

    modes = main_of(table.client.get("/play/modes").text)
    assert all(m.name in modes for m in catalogue().values())
    where = Cok(table.folder)("locations", "--free", "--json")
    free = [loc["name"] for loc in json.loads(where.stdout)["locations"]]
    page = main_of(table.client.get("/play/locations?free=1").text)
    assert free and [html.unescape(n) for n in re.findall(r"<li><strong>([^<]+)</strong>", page)] == free
    assert "held by" not in page


def test_a_battle_of_an_earlier_week_and_the_brotherhood_from_the_phone(table: Table) -> None:
    csrf = table.sign_in(table.tim)
    plan = table.client.get("/play/battle?opponent=matt&bwb_me=1").text
    assert 'name="bwb:tim" value="1"' in plan and 'name="week"' in plan
    location = re.findall(r'name="location" value="([^"]+)"', plan)[0]
    form = {"csrf": csrf, "a": "tim", "b": "matt", "location": html.unescape(location), "vp:tim": "7", "vp:matt": "5"}
    done = table.client.post("/play/battle", data={**form, "bwb:tim": "1", "week": "4"})
    assert done.status_code == 200, main_of(done.text)
    last = table.log().decode().rsplit("- type:", 1)[1]
    assert "week: 4" in last and "brotherhood: [tim]" in last
