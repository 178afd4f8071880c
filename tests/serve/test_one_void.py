"""Issue #36, one way for voids: `service.void` serves `cok void`, the organiser's void page
and the API alike: the event named by a unique start of its id or `@LINE` everywhere, a void
that later events stand on refused the same way, and a cascade that records the same events."""

from __future__ import annotations

import html
import re
import shutil
from pathlib import Path
from typing import Any

import yaml

from tests.conftest import Cok
from tests.serve.conftest import Table
from tests.serve.test_pages import main_of

FIRST_BATTLE = "154a6eaf8039"  # Tim beats Matt at Tarth, week 1: fifteen later events stand on it
IDS = re.compile(r"\b[0-9a-f]{12}\b")


def _line_of(table: Table, event_id: str) -> int:
    """The line of events.yaml the event starts on (its `- type:` line)."""
    lines = table.log().decode().splitlines()
    at = next(i for i, line in enumerate(lines) if line.strip() == f"id: {event_id}")
    while not lines[at].startswith("- "):
        at -= 1
    return at + 1


def _confirmed(table: Table, csrf: str, target: str, reason: str) -> Any:
    """The void page's preview, then its confirmation as the preview's hidden fields say."""
    preview = table.client.post("/void", data={"csrf": csrf, "target": target, "reason": reason})
    assert preview.status_code == 200, main_of(preview.text)
    hidden = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', preview.text))
    return table.client.post(
        "/void", data={**{k: html.unescape(v) for k, v in hidden.items()}, "target": target, "reason": reason}
    )


def _adjust(table: Table) -> str:
    bonus = {"type": "adjust", "player": "tim", "cp": 3, "reason": "hosted"}
    answer = table.client.post("/api/events", json=bonus, headers=table.bearer(table.organiser))
    assert answer.status_code == 201, answer.text
    return str(answer.json()["id"])


def _voids(log: bytes) -> list[dict[str, Any]]:
    return [e for e in yaml.safe_load(log) if e["type"] == "void"]


def test_the_void_page_takes_a_unique_start_of_an_id(table: Table) -> None:
    csrf = table.sign_in(table.organiser)
    adjust = _adjust(table)
    done = _confirmed(table, csrf, adjust[:6], "wrong player")
    assert done.status_code == 200, main_of(done.text)
    assert _voids(table.log())[-1]["target"] == adjust


def test_the_void_page_takes_the_line_an_event_starts_on(table: Table) -> None:
    csrf = table.sign_in(table.organiser)
    adjust = _adjust(table)
    preview = table.client.post("/void", data={"csrf": csrf, "target": f"@{_line_of(table, adjust)}", "reason": "x"})
    assert preview.status_code == 200 and "hosted" in main_of(preview.text)  # the event, in words
    done = _confirmed(table, csrf, f"@{_line_of(table, adjust)}", "wrong player")
    assert done.status_code == 200, main_of(done.text)
    assert _voids(table.log())[-1]["target"] == adjust


def test_the_api_void_takes_a_unique_start_of_an_id(table: Table) -> None:
    adjust = _adjust(table)
    void = {"type": "void", "target": adjust[:5], "reason": "wrong player"}
    answer = table.client.post("/api/events", json=void, headers=table.bearer(table.organiser))
    assert answer.status_code == 201, answer.text
    assert _voids(table.log())[-1]["target"] == adjust


def test_a_void_with_dependants_without_cascade_is_refused_alike_at_the_terminal_and_the_server(
    table: Table,
) -> None:
    before = table.log()
    run = Cok(table.folder)("void", FIRST_BATTLE[:6], "--reason", "wrong table")
    assert run.exit_code == 1
    void = {"type": "void", "target": FIRST_BATTLE[:6], "reason": "wrong table"}
    answer = table.client.post("/api/events", json=void, headers=table.bearer(table.organiser))
    assert answer.status_code == 422, answer.text
    said = answer.json()["problems"][0]["message"]
    csrf = table.sign_in(table.organiser)
    page = main_of(table.client.post("/void", data={"csrf": csrf, "target": FIRST_BATTLE[:6], "reason": "x"}).text)
    listed = set(IDS.findall(run.stderr)) - {FIRST_BATTLE}
    assert len(listed) == 15
    assert set(IDS.findall(said)) - {FIRST_BATTLE} == listed  # the same events, the core's words
    assert "15 later events depend on it" in said and "15 later events depend on it" in run.stderr
    assert set(IDS.findall(page)) - {FIRST_BATTLE} == listed  # the page's preview lists them to confirm
    assert table.log() == before


def test_a_cascade_records_the_same_events_from_the_terminal_and_the_server(table: Table, tmp_path: Path) -> None:
    twin = tmp_path / "twin"
    shutil.copytree(table.folder, twin)
    run = Cok(twin)("void", FIRST_BATTLE[:6], "--reason", "wrong table", "--cascade", env={"COK_BY": "Ann"})
    assert run.exit_code == 0, run.stderr
    csrf = table.sign_in(table.organiser)
    done = _confirmed(table, csrf, FIRST_BATTLE[:6], "wrong table")
    assert done.status_code == 200, main_of(done.text)

    def tail(log: bytes) -> list[dict[str, Any]]:
        return [{k: v for k, v in e.items() if k not in ("id", "at")} for e in _voids(log)]

    served = tail(table.log())
    assert sum(1 for v in served if v["reason"].startswith("wrong table")) == 16
    assert served == tail((twin / "events.yaml").read_bytes())
