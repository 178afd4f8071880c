"""Issue 39 at the table: the other side sees a recorded battle first on their page and
confirms or disputes it there; only they or an organiser may; an organiser settles."""

from __future__ import annotations

import re

import yaml

from tests.serve.conftest import Table, battle


def recorded_by_tim(table: Table) -> str:
    answer = table.client.post("/api/events", json=battle(), headers=table.bearer(table.tim))
    assert answer.status_code == 201, answer.text
    return str(answer.json()["id"])


def box(page: str) -> str:
    found = re.search(r'<section class="cok-confirm".*?</section>', page, re.S)
    return found[0] if found else ""


def test_when_a_player_records_a_battle_the_other_side_sees_it_first_on_their_page(table: Table) -> None:
    ours = recorded_by_tim(table)
    table.sign_in(table.matt)
    shown = box(table.client.get("/").text)
    assert f'name="target" value="{ours}"' in shown and "Tim</bdi> recorded" in shown  # by name (issue #49)
    assert 'value="confirm"' in shown and 'value="dispute"' in shown
    table.sign_in(table.tim)
    assert ours not in box(table.client.get("/").text)  # the recorder is not asked


def test_the_other_side_confirms_from_their_page_an_event_in_the_log_attributed_to_them(table: Table) -> None:
    ours = recorded_by_tim(table)
    csrf = table.sign_in(table.matt)
    done = table.client.post("/verdict", data={"csrf": csrf, "kind": "confirm", "target": ours})
    assert done.status_code == 200, done.text
    assert f"type: confirm\n  target: {ours}" in table.log().decode()
    assert ours not in box(table.client.get("/").text)
    assert f"matt confirms the result {ours}" in table.client.get("/activity").text


def test_the_recorder_of_a_battle_cannot_confirm_their_own_403(table: Table) -> None:
    ours = recorded_by_tim(table)
    csrf = table.sign_in(table.tim)
    before = table.log()
    done = table.client.post("/verdict", data={"csrf": csrf, "kind": "confirm", "target": ours})
    assert done.status_code == 403
    api = table.client.post("/api/events", json={"type": "confirm", "target": ours}, headers=table.bearer(table.tim))
    assert api.status_code == 403
    assert table.log() == before


def test_a_dispute_is_marked_on_the_activity_page_and_an_organiser_keeps_it(table: Table) -> None:
    ours = recorded_by_tim(table)
    csrf = table.sign_in(table.matt)
    disputed = table.client.post(
        "/verdict", data={"csrf": csrf, "kind": "dispute", "target": ours, "reason": "7 was 5"}
    )
    assert disputed.status_code == 200, disputed.text
    assert "disputed by matt: 7 was 5" in table.client.get("/activity").text
    refused = table.client.post("/verdict", data={"csrf": csrf, "kind": "settle", "target": ours, "reason": "mine"})
    assert refused.status_code == 403
    csrf = table.sign_in(table.organiser)
    shown = box(table.client.get("/").text)
    assert "Disputed" in shown and "7 was 5" in shown and f"/void?target={ours}" in shown
    kept = table.client.post("/verdict", data={"csrf": csrf, "kind": "settle", "target": ours, "reason": "photo"})
    assert kept.status_code == 200, kept.text
    assert f"type: settle\n  target: {ours}" in table.log().decode()
    assert "disputed by matt" not in table.client.get("/activity").text
    assert not box(table.client.get("/").text)


def test_the_organiser_may_also_confirm_a_result(table: Table) -> None:
    ours = recorded_by_tim(table)
    csrf = table.sign_in(table.organiser)
    done = table.client.post("/verdict", data={"csrf": csrf, "kind": "confirm", "target": ours})
    assert done.status_code == 200, done.text
    # read as YAML: an id of digits alone is written quoted
    verdicts = [e for e in yaml.safe_load(table.log()) if e.get("type") == "confirm" and e.get("target") == ours]
    assert [e.get("by") for e in verdicts] == ["Ann"]


def test_a_dispute_without_a_reason_is_refused_and_nothing_written(table: Table) -> None:
    ours = recorded_by_tim(table)
    csrf = table.sign_in(table.matt)
    before = table.log()
    done = table.client.post("/verdict", data={"csrf": csrf, "kind": "dispute", "target": ours, "reason": " "})
    assert done.status_code == 422
    assert table.log() == before
