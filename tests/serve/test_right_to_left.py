"""Issue 34: a right-to-left override in a note reversed the rest of the line on the Activity
page: each entry and its recorder are isolated (`<bdi>`), the override closed at its end."""

from __future__ import annotations

import re

from .conftest import Table


def test_the_activity_page_isolates_what_a_player_wrote(table: Table) -> None:
    claim = {"type": "adjust", "player": "tim", "cp": 1, "reason": "late\u202elist"}
    answer = table.client.post("/api/events", json=claim, headers=table.bearer(table.organiser))
    assert answer.status_code == 201, answer.text
    table.client.get(f"/join/{table.organiser}")
    page = table.client.get("/activity").text
    isolated = re.findall(r"<bdi[^>]*>([^<]*)</bdi>", page)
    assert any("\u202e" in text and text.endswith("\u202c") for text in isolated), isolated
    assert "by <bdi>Ann</bdi>" in page
