"""Issue #35: a mistaken void is undone by voiding it, at the terminal and on the organiser's
page; the preview names the event in words."""

from __future__ import annotations

import html
import re
from typing import Any

from tests.conftest import Cok
from tests.serve.conftest import Table
from tests.serve.test_pages import main_of


def _cp(table: Table, player: str) -> int:
    standings = table.client.get("/api/standings").json()
    return int(next(p for p in standings["players"] if p["id"] == player)["cp"])


def test_a_void_is_undone_at_the_terminal_and_the_event_counts_again(table: Table) -> None:
    cok = Cok(table.folder)
    bonus = {"type": "adjust", "player": "tim", "cp": 3, "reason": "hosted"}
    adjust = table.client.post("/api/events", json=bonus, headers=table.bearer(table.organiser)).json()["id"]
    before = _cp(table, "tim")
    assert cok("void", adjust, "--reason", "wrong player").exit_code == 0
    assert _cp(table, "tim") == before - 3
    void = re.findall(r"id: '?([0-9a-f]+)", table.log().decode())[-1]
    undone = cok("void", void, "--reason", "it was right")
    assert undone.exit_code == 0, undone.stderr
    assert _cp(table, "tim") == before
    assert cok("check").exit_code == 0


def _void_as_previewed(table: Table, csrf: str, target: str, reason: str) -> Any:
    """The void confirmed as its preview showed it (the preview's own hidden fields, #34)."""
    preview = table.client.post("/void", data={"csrf": csrf, "target": target, "reason": reason})
    hidden = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', preview.text))
    return table.client.post(
        "/void", data={**{k: html.unescape(v) for k, v in hidden.items()}, "reason": reason, "target": target}
    )


def test_the_organiser_undoes_a_void_from_activity_seeing_it_in_words(table: Table) -> None:
    csrf = table.sign_in(table.organiser)
    bonus = {"type": "adjust", "player": "tim", "cp": 3, "reason": "hosted"}
    adjust = table.client.post("/api/events", json=bonus, headers=table.bearer(table.organiser)).json()["id"]
    before = _cp(table, "tim")
    voided = _void_as_previewed(table, csrf, adjust, "wrong")
    assert voided.status_code == 200, main_of(voided.text)
    void = re.findall(r"id: '?([0-9a-f]+)", table.log().decode())[-1]
    assert f"/void?target={void}" in table.client.get("/activity").text  # offered: undo this void
    preview = table.client.post("/void", data={"csrf": csrf, "target": void, "reason": "it was right"})
    assert preview.status_code == 200, main_of(preview.text)
    assert f"voided {adjust}: wrong" in main_of(preview.text)  # the void in the log's words
    done = _void_as_previewed(table, csrf, void, "it was right")
    assert done.status_code == 200, main_of(done.text)
    assert _cp(table, "tim") == before


def test_the_void_preview_names_the_event_in_words(table: Table) -> None:
    csrf = table.sign_in(table.organiser)
    bonus = {"type": "adjust", "player": "tim", "cp": 2, "reason": "a late list"}
    adjust = table.client.post("/api/events", json=bonus, headers=table.bearer(table.organiser)).json()["id"]
    preview = table.client.post("/void", data={"csrf": csrf, "target": adjust, "reason": "x"})
    assert "a late list" in main_of(preview.text)
