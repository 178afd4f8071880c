"""Issue 34, "a write happens once, as it was previewed": a recording redirects to a page that a
reload only reads; a form's one-time token makes a form sent again (Back and send) ask before
it records again; the week form carries the week it starts; the JSON API's Idempotency-Key
answers the first answer again; a void's confirmation voids only what its preview showed."""

from __future__ import annotations

import html
import json
import re
import warnings
from collections.abc import Iterator
from importlib import resources
from pathlib import Path

import pytest
import yaml

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from cok.core.campaign import open_campaign
from cok.links import invites
from cok.serve.app import create_app
from tests.games import GAMES, played
from tests.serve.conftest import Table


def form_of(page: str, action: str) -> dict[str, str]:
    """The hidden fields of the page's POST form to `action`, as a browser sends them."""
    found = re.search(rf'<form method="post" action="{re.escape(action)}"[^>]*>(.*?)</form>', page, re.S)
    assert found, page
    hidden = re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', found[1])
    return {name: html.unescape(value) for name, value in hidden}


def events_in(folder: Path) -> int:
    return len(open_campaign(folder, use_cache=False).ids())


# ------------------------------------------------------------------ every form, every game


def test_every_post_form_of_every_game_carries_a_one_time_token() -> None:
    """The token is what makes a form record at most once: every form that records has one."""
    import cok.rulesets

    folders = [Path(str(resources.files("cok.serve").joinpath("templates")))]
    folders += sorted(Path(cok.rulesets.__file__).parent.glob("*/table/templates"))
    assert len(folders) == 1 + len(GAMES)  # the server's own, and each game's
    for folder in folders:
        for template in folder.glob("*.html"):
            for form in re.findall(
                r'<form method="post" action="([^"]+)"[^>]*>(.*?)</form>', template.read_text(), re.S
            ):
                if form[0].endswith(("/signout", "/links")) or "/join/" in form[0]:  # these record no event
                    continue
                assert 'name="once"' in form[1], f"{template.name}: {form[0]}"


# ------------------------------------------------------------------ redirect after a recording


def test_a_recording_redirects_to_a_page_that_a_reload_only_reads(table: Table) -> None:
    table.sign_in(table.tim)
    form = {**form_of(table.client.get("/play/paint").text, "/play/paint"), "units": "1"}
    answer = table.client.post("/play/paint", data=form, follow_redirects=False)
    assert answer.status_code == 303 and answer.headers["location"].startswith("/recorded/")
    after = table.log()
    for _ in range(2):  # a reload
        page = table.client.get(answer.headers["location"])
        assert page.status_code == 200 and "Recorded" in page.text and "painting" in page.text
    assert table.log() == after


def test_the_recorded_page_is_the_recorders_own(table: Table) -> None:
    table.sign_in(table.tim)
    form = {**form_of(table.client.get("/play/paint").text, "/play/paint"), "units": "1"}
    where = table.client.post("/play/paint", data=form, follow_redirects=False).headers["location"]
    table.sign_in(table.matt)
    assert table.client.get(where).status_code == 404


# ------------------------------------------------------------------ a form sent again


@pytest.mark.parametrize(
    ("path", "fields", "who"),
    [
        ("/play/paint", {"units": "1"}, "tim"),
        ("/play/adjust", {"player": "sara", "cp": "2", "reason": "hosted"}, "organiser"),
        ("/play/join", {"player": "ned", "faction": "stark", "castle": "Pyke"}, "organiser"),
    ],
)
def test_a_form_sent_again_is_asked_and_records_nothing(
    table: Table, path: str, fields: dict[str, str], who: str
) -> None:
    table.sign_in(getattr(table, who))
    form = {**form_of(table.client.get(path).text, path), **fields}
    assert table.client.post(path, data=form, follow_redirects=False).status_code == 303
    after = table.log()
    again = table.client.post(path, data=form)  # Back, and send again
    assert again.status_code == 409 and "sent already" in again.text
    assert table.log() == after
    confirmed = table.client.post("/record", data=form_of(again.text, "/record"), follow_redirects=False)
    assert confirmed.status_code in (303, 409, 422)  # recorded again only when asked, as the rules say
    if confirmed.status_code == 303:
        assert len(table.log()) > len(after)


def test_the_same_form_from_a_page_fetched_again_on_back_is_asked(table: Table) -> None:
    """Back may fetch the form's page anew (a new token) and put back the fields as typed: the
    same form, with nothing recorded since, is asked before it records again."""
    table.sign_in(table.tim)
    first = {**form_of(table.client.get("/play/paint").text, "/play/paint"), "units": "1"}
    assert table.client.post("/play/paint", data=first, follow_redirects=False).status_code == 303
    after = table.log()
    fetched = {**form_of(table.client.get("/play/paint").text, "/play/paint"), "units": "1"}
    assert fetched["once"] != first["once"]
    again = table.client.post("/play/paint", data=fetched)
    assert again.status_code == 409 and "sent already" in again.text
    assert table.log() == after


def test_the_same_form_after_another_recording_is_a_new_one(table: Table) -> None:
    table.sign_in(table.tim)
    first = {**form_of(table.client.get("/play/paint").text, "/play/paint"), "units": "1"}
    assert table.client.post("/play/paint", data=first, follow_redirects=False).status_code == 303
    table.client.post(
        "/api/events", json={"type": "painting", "player": "matt", "units": 1}, headers=table.bearer(table.matt)
    )
    fetched = {**form_of(table.client.get("/play/paint").text, "/play/paint"), "units": "1"}
    assert table.client.post("/play/paint", data=fetched, follow_redirects=False).status_code != 409


def test_recording_it_again_when_asked_records_once_more(table: Table) -> None:
    table.sign_in(table.organiser)
    path = "/play/adjust"
    form = {**form_of(table.client.get(path).text, path), "player": "sara", "cp": "2", "reason": "hosted"}
    table.client.post(path, data=form)
    asked = table.client.post(path, data=form)
    confirm = form_of(asked.text, "/record")
    assert table.client.post("/record", data=confirm, follow_redirects=False).status_code == 303
    assert table.log().decode().count("reason: hosted") == 2
    assert table.client.post("/record", data=confirm).status_code == 409  # that form too, once
    assert table.log().decode().count("reason: hosted") == 2


def test_a_question_answered_then_the_first_form_sent_again_records_nothing(table: Table) -> None:
    """The rules' question carries the form's token: answering it spends it."""
    table.sign_in(table.tim)
    plan = table.client.get("/play/battle?opponent=matt").text
    location = re.findall(r'name="location" value="([^"]+)"', plan)[0]
    form = {
        **form_of(plan, "/play/battle"),
        "location": location,
        "vp:tim": "5",
        "vp:matt": "5",
    }
    asked = table.client.post("/play/battle", data=form)
    assert asked.status_code == 409, asked.text
    answer = form_of(asked.text, "/record")
    numbers = re.findall(r'name="(number:[^"]+)"', asked.text)
    choice = re.search(r'name="(answer:[a-z_]+)" value="([^"]+)"', asked.text)
    answer.update({n: "1" for n in numbers})
    if choice:
        answer[choice[1]] = html.unescape(choice[2])
    assert table.client.post("/record", data=answer, follow_redirects=False).status_code == 303
    after = table.log()
    again = table.client.post("/play/battle", data=form)
    assert again.status_code == 409 and "sent already" in again.text
    assert table.client.post("/record", data=answer).status_code == 409
    assert table.log() == after


# ------------------------------------------------------------------ the week


def test_new_week_sent_again_starts_no_second_week(table: Table) -> None:
    table.sign_in(table.organiser)
    page = table.client.get("/play/week").text
    first = form_of(page, "/play/week")
    second = form_of(table.client.get("/play/week").text, "/play/week")  # another tab, opened before
    week = open_campaign(table.folder, use_cache=False).state.week
    assert first["week"] == str(week + 1)
    assert table.client.post("/play/week", data=first, follow_redirects=False).status_code == 303
    after = table.log()
    assert table.client.post("/play/week", data=first).status_code == 409  # Back and send
    answer = table.client.post("/play/week", data=second)  # a fresh token, but the same week
    assert answer.status_code == 409 and f"week {week + 1} was started already" in answer.text
    assert table.log() == after
    assert open_campaign(table.folder, use_cache=False).state.week == week + 1


# ------------------------------------------------------------------ Mighty Kingdoms' forms


def test_a_kingdoms_order_sent_again_records_nothing(tmp_path: Path) -> None:
    from tests.mighty_kingdoms.pages.kingdoms import begun

    folder = tmp_path / "mk"
    tokens = begun(folder)
    with TestClient(create_app(folder)) as client:
        client.get(f"/join/{tokens['ana']}")
        page = client.get("/play/order", params={"army": "ana-1", "to": "0,0"}).text
        form = form_of(page, "/play/order")
        assert client.post("/play/order", data=form, follow_redirects=False).status_code == 303
        after = (folder / "events.yaml").read_bytes()
        again = client.post("/play/order", data=form)
        assert again.status_code == 409 and "sent already" in again.text
    assert (folder / "events.yaml").read_bytes() == after


# ------------------------------------------------------------------ the JSON API


@pytest.fixture(params=GAMES)
def game(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[Path, TestClient, str]]:
    folder = played(tmp_path, request.param)
    organiser = invites.invite(folder, "Ann", organiser=True)
    with TestClient(create_app(folder)) as client:
        yield folder, client, organiser


def test_the_same_idempotency_key_answers_the_first_answer_and_records_nothing(
    game: tuple[Path, TestClient, str],
) -> None:
    folder, client, token = game
    target = list(open_campaign(folder, use_cache=False).ids())[-1]
    body = json.dumps({"type": "void", "target": target, "reason": "a retry on flaky Wi-Fi"})
    headers = {"authorization": f"Bearer {token}", "idempotency-key": "k-1", "content-type": "application/json"}
    first = client.post("/api/events", content=body, headers=headers)
    assert first.status_code == 201, first.text
    count = events_in(folder)
    again = client.post("/api/events", content=body, headers=headers)
    assert (again.status_code, again.json()) == (201, first.json())
    assert events_in(folder) == count
    other = client.post("/api/events", content=body.replace("flaky", "bad"), headers=headers)
    assert other.status_code == 422 and "Idempotency-Key" in other.json()["problems"][0]["message"]
    assert events_in(folder) == count


def test_a_refused_request_does_not_spend_its_idempotency_key(table: Table) -> None:
    headers = {**table.bearer(table.organiser), "idempotency-key": "k-2"}
    refused = table.client.post("/api/events", json={"type": "adjust", "player": "nobody", "cp": 1}, headers=headers)
    assert refused.status_code == 422
    fixed = {"type": "adjust", "player": "sara", "cp": 1, "reason": "hosted"}
    assert table.client.post("/api/events", json=fixed, headers=headers).status_code == 201


def test_an_idempotency_key_is_each_persons_own(table: Table) -> None:
    painting = {"type": "painting", "player": "tim", "units": 1}
    tim = table.client.post(
        "/api/events", json=painting, headers={**table.bearer(table.tim), "idempotency-key": "same"}
    )
    assert tim.status_code == 201
    matt = {"type": "painting", "player": "matt", "units": 1}
    answer = table.client.post(
        "/api/events", json=matt, headers={**table.bearer(table.matt), "idempotency-key": "same"}
    )
    assert answer.status_code == 201 and answer.json()["id"] != tim.json()["id"]


# ------------------------------------------------------------------ the void


def previewed(table: Table, target: str) -> str:
    csrf = table.sign_in(table.organiser)
    page = table.client.post("/void", data={"csrf": csrf, "target": target, "reason": "mistake"})
    assert page.status_code == 200, page.text
    return page.text


def test_a_void_confirmed_with_another_id_shows_the_new_preview_and_voids_nothing(table: Table) -> None:
    """The issue's: an adjustment previewed, the id edited to a join, "Void it" pressed."""
    adjust = {"type": "adjust", "player": "sara", "cp": 1, "reason": "hosted"}
    adjusted = table.client.post("/api/events", json=adjust, headers=table.bearer(table.organiser)).json()["id"]
    page = previewed(table, adjusted)
    assert "Nothing else depends on" in page
    join = re.search(r"- type: join\n  player: matt\n(?:  .*\n)*?  id: '?([0-9a-f]+)", table.log().decode())
    assert join
    before = table.log()
    edited = {**form_of(page, "/void"), "target": join[1], "reason": "mistake"}
    answer = table.client.post("/void", data=edited)
    assert answer.status_code == 409 and "changed since it was shown" in answer.text
    assert join[1] in answer.text and "later event" in answer.text  # the new preview, its list
    assert table.log() == before


def test_a_void_whose_cascade_changed_since_its_preview_voids_nothing(table: Table) -> None:
    csrf = table.sign_in(table.organiser)
    joined = table.client.post(
        "/api/events",
        json={"type": "join", "player": "ned", "faction": "stark", "castle": "Pyke"},
        headers=table.bearer(table.organiser),
    )
    assert joined.status_code == 201, joined.text
    page = table.client.post("/void", data={"csrf": csrf, "target": joined.json()["id"], "reason": "never came"}).text
    assert "Nothing else depends on" in page
    adjust = {"type": "adjust", "player": "ned", "cp": 1, "reason": "welcome"}
    assert table.client.post("/api/events", json=adjust, headers=table.bearer(table.organiser)).status_code == 201
    before = table.log()
    shown = {**form_of(page, "/void"), "target": joined.json()["id"], "reason": "never came"}
    answer = table.client.post("/void", data=shown)
    assert answer.status_code == 409 and "1 later event" in answer.text
    assert table.log() == before


def test_a_void_confirmed_as_previewed_is_voided_once(table: Table) -> None:
    adjust = {"type": "adjust", "player": "sara", "cp": 1, "reason": "hosted"}
    adjusted = table.client.post("/api/events", json=adjust, headers=table.bearer(table.organiser)).json()["id"]
    form = {**form_of(previewed(table, adjusted), "/void"), "target": adjusted, "reason": "mistake"}
    assert table.client.post("/void", data=form, follow_redirects=False).status_code == 303
    # read as YAML: an id of digits alone is written quoted
    assert [event.get("target") for event in yaml.safe_load(table.log())].count(adjusted) == 1
    assert table.client.post("/void", data=form).status_code in (409, 422)  # sent already, or voided already
    assert [event.get("target") for event in yaml.safe_load(table.log())].count(adjusted) == 1
