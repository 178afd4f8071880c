"""The due bar (issue 48, templates/due.html): on every page of a campaign with deadlines, what
the ledger waits for and by when, in the campaign's zone — the player's own first — with a
player's "ask for more time" while `extensions:` allows and an organiser's extend and bring
back, each an event recorded through the forms' one door. On the shipped Mighty Kingdoms
campaign (month 2's orders opened 2026-11-23 06:37:52 UTC), `orders: 48h`, at the test's time."""

from __future__ import annotations

import datetime as dt
import re
import shutil
import warnings
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml

from cok.links import invites
from cok.serve.alarm import Held, until_woken
from cok.serve.app import create_app
from tests.conftest import ROOT

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

OPENED = dt.datetime(2026, 11, 23, 6, 37, 52, tzinfo=dt.UTC)
DUE = OPENED + dt.timedelta(hours=48)


@dataclass
class Kingdoms:
    folder: Path
    client: TestClient
    clock: Held
    app: object

    def as_(self, name: str, organiser: bool = False) -> str:
        """Signed in with a new link of `name`'s; the CSRF token of the page it leads to."""
        self.client.cookies.clear()
        self.client.get(f"/join/{invites.invite(self.folder, name, organiser=organiser)}")
        found = re.search(r'name="csrf" value="([^"]+)"', self.client.get("/").text)
        assert found
        return found[1]

    def bar(self, path: str = "/") -> str:
        found = re.search(r'<section class="cok-due".*?</section>', self.client.get(path).text, re.S)
        return found[0] if found else ""

    def events(self) -> list[dict[str, object]]:
        return list(yaml.safe_load((self.folder / "events.yaml").read_text(encoding="utf-8")))


def kingdoms(tmp_path: Path, *settings: str) -> Iterator[Kingdoms]:
    folder = tmp_path / "mighty-kingdoms"
    shutil.copytree(ROOT / "campaigns" / "mighty-kingdoms", folder)
    with (folder / "campaign.yaml").open("a", encoding="utf-8") as written:
        written.write("".join(f"{line}\n" for line in settings))
    clock = Held(OPENED + dt.timedelta(minutes=10))
    app = create_app(folder, clock=clock, sleep=until_woken)
    with TestClient(app) as client:
        yield Kingdoms(folder, client, clock, app)


@pytest.fixture
def mk(tmp_path: Path) -> Iterator[Kingdoms]:
    yield from kingdoms(tmp_path, "deadlines:", "  orders: 48h", "extensions: 2", "extension: 12h")


def test_a_players_page_shows_their_own_due_time_first(mk: Kingdoms) -> None:
    mk.as_("dag")
    bar = mk.bar()
    assert (
        "<strong>You: orders for dag-1, dag-2 and dag-3</strong>, due <time>Wed 25 Nov 06:37 — in 2 days</time>" in bar
    )
    assert bar.index("You:") < bar.index("Waiting for")


def test_every_page_has_the_bar_the_sites_and_the_servers(mk: Kingdoms) -> None:
    mk.as_("dag")
    for path in ("/", "/log.html", "/activity", "/play/kingdom"):
        assert "You: orders for dag-1" in mk.bar(path), path


def test_a_reader_sees_whom_the_ledger_waits_for_and_by_when(mk: Kingdoms) -> None:
    mk.client.cookies.clear()
    bar = mk.bar()
    assert "You:" not in bar and bar.count("Waiting for") == 3 and "due <time>Wed 25 Nov 06:37" in bar
    assert "<form" not in bar  # a reader moves no deadline


def test_the_due_time_is_said_in_the_campaigns_zone(tmp_path: Path) -> None:
    for mk in kingdoms(tmp_path, "timezone: America/New_York", "deadlines:", "  orders: 48h"):
        mk.client.cookies.clear()
        assert "due <time>Wed 25 Nov 01:37 — in 2 days</time>" in mk.bar()


def test_no_bar_without_deadlines(tmp_path: Path) -> None:
    for mk in kingdoms(tmp_path):
        assert mk.bar() == ""


def test_a_player_asks_for_more_time_from_their_page_and_sees_how_many_asks_are_left(mk: Kingdoms) -> None:
    csrf = mk.as_("dag")
    assert "2 asks left" in mk.bar()
    answer = mk.client.post("/deadline", data={"csrf": csrf, "kind": "ask"}, follow_redirects=False)
    assert answer.status_code == 303, answer.text
    asked = [e for e in mk.events() if e["type"] == "extend"]
    assert len(asked) == 1 and asked[0]["asked"] is True and asked[0]["length"] == "12h"
    bar = mk.bar()
    assert "1 ask left" in bar and "due <time>Wed 25 Nov 18:37" in bar  # dag's own, 12 hours later


def test_a_player_out_of_asks_is_not_offered_one(tmp_path: Path) -> None:
    for mk in kingdoms(tmp_path, "deadlines:", "  orders: 48h"):  # extensions: 0, the default
        mk.as_("dag")
        assert "Ask for more time" not in mk.bar()


def test_an_ask_without_the_pages_token_is_refused(mk: Kingdoms) -> None:
    mk.as_("dag")
    assert mk.client.post("/deadline", data={"kind": "ask"}).status_code == 403
    assert not any(e["type"] == "extend" for e in mk.events())


def test_a_player_may_not_extend_a_deadline_nor_bring_a_player_back(mk: Kingdoms) -> None:
    csrf = mk.as_("dag")
    assert mk.client.post("/deadline", data={"csrf": csrf, "kind": "extend", "length": "3d"}).status_code == 403
    assert mk.client.post("/deadline", data={"csrf": csrf, "kind": "back", "player": "bo"}).status_code == 422
    assert not any(e["type"] in ("extend", "present") for e in mk.events())


def test_an_organiser_extends_a_deadline_for_one_player(mk: Kingdoms) -> None:
    csrf = mk.as_("Ann", organiser=True)
    assert "Extend a deadline" in mk.bar()
    data = {"csrf": csrf, "kind": "extend", "length": "1d", "player": "bo"}
    assert mk.client.post("/deadline", data=data, follow_redirects=False).status_code == 303
    made = [e for e in mk.events() if e["type"] == "extend"]
    assert len(made) == 1 and made[0]["player"] == "bo" and made[0]["length"] == "1d" and not made[0].get("asked")
    mk.client.cookies.clear()
    assert re.search(r"Waiting for <bdi>[^<]*</bdi>: orders for bo-4 and bo-5, due <time>Thu 26 Nov 06:37", mk.bar())


def test_an_absent_player_is_marked_and_an_organiser_brings_them_back(tmp_path: Path) -> None:
    for mk in kingdoms(tmp_path, "deadlines:", "  orders: 48h", "absent_after: 1"):
        alarm = mk.app.state.server.alarm  # type: ignore[attr-defined]
        mk.clock.at = DUE + dt.timedelta(minutes=1)  # every kingdom misses its orders
        alarm.rearm()
        assert alarm.quiet()
        csrf = mk.as_("Ann", organiser=True)
        bar = mk.bar()
        assert "(absent)" in bar or "is absent" in bar
        found = re.search(r'name="player" value="([^"]+)"><button class="go quiet">Bring', bar)
        assert found, bar
        data = {"csrf": csrf, "kind": "back", "player": found[1]}
        assert mk.client.post("/deadline", data=data, follow_redirects=False).status_code == 303
        assert [e["player"] for e in mk.events() if e["type"] == "present"] == [found[1]]


HOUSES = ["baratheon", "stark", "lannister", "greyjoy", "tyrell"]


def test_every_game_shows_the_bar_clash_of_kings_and_no_true_king_too(tmp_path: Path) -> None:
    """Clash of Kings waits for the organisers' next week; No True King for a conspiracy's turn."""
    import json

    from tests.conftest import EXAMPLE, Cok

    example = tmp_path / "example"
    shutil.copytree(EXAMPLE, example)
    with (example / "campaign.yaml").open("a", encoding="utf-8") as settings:
        settings.write("deadlines:\n  week: 3d\n")
    at = dt.datetime(2026, 10, 7, 21, 0, tzinfo=dt.UTC)  # the example's week 5 began 5 Oct 10:30
    with TestClient(create_app(example, clock=Held(at), sleep=until_woken)) as client:
        client.get(f"/join/{invites.invite(example, 'Ann', organiser=True)}")
        page = client.get("/").text
        assert "<strong>You: the start of week 6</strong>, due <time>Thu 8 Oct 10:30 — in 14 hours</time>" in page
    assert Cok(tmp_path)("init", "game", "--ruleset", "no-true-king").exit_code == 0
    ntk = Cok(tmp_path / "game")
    with (ntk.cwd / "campaign.yaml").open("a", encoding="utf-8") as settings:
        settings.write("deadlines:\n  turn: 24h\n")
    for player, symbol in (("ana", "crown"), ("bo", "torch")):
        made = json.loads(ntk("ntk", "seal", player, *HOUSES, "--json").stdout)
        assert ntk("ntk", "join", player, "--symbol", symbol, "--seal", made["seal"]).exit_code == 0
    assert ntk("ntk", "begin", "--seats", "ana", "bo", "--first", "bo").exit_code == 0
    begun = yaml.safe_load((ntk.cwd / "events.yaml").read_text(encoding="utf-8"))[-1]["at"]
    now = dt.datetime.fromisoformat(str(begun).replace("Z", "+00:00")) + dt.timedelta(hours=1)
    with TestClient(create_app(ntk.cwd, clock=Held(now), sleep=until_woken)) as client:
        client.get(f"/join/{invites.invite(ntk.cwd, 'bo')}")
        bar = re.search(r'<section class="cok-due".*?</section>', client.get("/").text, re.S)
        assert bar and "<strong>You: " in bar[0] and "— in 23 hours</time>" in bar[0], bar


def test_an_absent_player_says_they_are_back_from_their_own_page(tmp_path: Path) -> None:
    for mk in kingdoms(tmp_path, "deadlines:", "  orders: 48h", "absent_after: 1"):
        alarm = mk.app.state.server.alarm  # type: ignore[attr-defined]
        mk.clock.at = DUE + dt.timedelta(minutes=1)
        alarm.rearm()
        assert alarm.quiet()
        absent = [
            k for k in ("dag", "bo", "cy") if f'name="player" value="{k}"><button class="go quiet">Bring' in _org(mk)
        ]
        assert absent, "nobody was marked absent"
        csrf = mk.as_(absent[0])
        assert "I'm back" in mk.bar()
        data = {"csrf": csrf, "kind": "back", "player": absent[0]}
        assert mk.client.post("/deadline", data=data, follow_redirects=False).status_code == 303
        assert [e["player"] for e in mk.events() if e["type"] == "present"] == [absent[0]]
        assert "I'm back" not in mk.bar()


def _org(mk: Kingdoms) -> str:
    mk.as_("Ann", organiser=True)
    return mk.bar()
