"""Mighty Kingdoms at the table: every recording page of a kingdom and of the organiser, over
Starlette's test client; each offers only what the rules would accept, and a kingdom records
only what it takes part in (it orders only its own armies)."""

from __future__ import annotations

import re
import warnings
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from cok.core.dice import FixedDice
from cok.links import invites
from cok.rulesets.mighty_kingdoms.rules.phase import counts, resolver, ties
from cok.serve.app import create_app
from cok.service import Draft, record

from .kingdoms import ORGANISER, begun


@dataclass
class Table:
    folder: Path
    client: TestClient
    tokens: dict[str, str]

    def log(self) -> str:
        return (self.folder / "events.yaml").read_text()

    def sign_in(self, who: str) -> str:
        """Open the link; the session's CSRF token from the kingdom's page."""
        self.client.cookies.clear()  # a phone not signed in: the link signs it in without asking
        self.client.get(f"/join/{self.tokens[who]}")
        found = re.search(r'name="csrf" value="([^"]+)"', self.client.get("/play/kingdom").text)
        assert found
        return found[1]

    def post(self, path: str, csrf: str, **form: Any) -> Any:
        return self.client.post(path, data={"csrf": csrf, **form})

    def play(self, *drafts: Draft, dice: FixedDice | None = None) -> None:
        """Events recorded by the organiser, to bring the campaign where a test needs it."""
        for draft in drafts:
            record(self.folder, [draft], by=ORGANISER, dice=dice)

    def state(self) -> Any:
        from cok.core.campaign import open_campaign

        return open_campaign(self.folder, use_cache=False).state


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    """ana in the west, bo in the east, each army on its city next to the Ford: month 1 begun."""
    folder = tmp_path / "mk"
    tokens = begun(folder)
    with TestClient(create_app(folder)) as client:
        yield Table(folder, client, tokens)


class _kow:
    """A Kings of War campaign's table, as the `table` fixture's."""

    def __init__(self, folder: Path) -> None:
        self.tokens = begun(folder, kings_of_war=True)
        self.folder = folder

    def __enter__(self) -> Table:
        self.client = TestClient(create_app(self.folder)).__enter__()
        return Table(self.folder, self.client, self.tokens)

    def __exit__(self, *exc: object) -> None:
        self.client.__exit__(*exc)


def meeting(table: Table) -> None:
    """Both armies into the Ford: the battles phase, ana's choice."""
    table.play(
        Draft("order", {"army": "ana-1", "order": "move", "to": "0,0"}),
        Draft("order", {"army": "bo-1", "order": "move", "to": "0,0"}),
        Draft("resolve", {"army": "ana-1", "roll": [3, 4]}),
        Draft("resolve", {"army": "bo-1"}),
    )


def to_winter(table: Table) -> None:
    """Six quiet months (every army defends), then the winter event."""
    for _ in range(6):
        table.play(*(Draft("order", {"army": a, "order": "defend"}) for a in ("ana-1", "bo-1")))
        while (turn := resolver(table.state())) is not None:
            army = next(a.id for a in table.state().armies_of(turn) if not a.resolved)
            table.play(Draft("resolve", {"army": army}))
        state = table.state()
        order = sorted(state.order, key=lambda p: -counts(state)[p]) if ties(state) else None
        table.play(Draft("reform", {"order": order}))
    table.play(Draft("winter"))


# ---------------------------------------------------------------- a kingdom's page


def test_a_kingdoms_page_says_the_ledger_waits_for_it_and_offers_only_its_armies(table: Table) -> None:
    table.sign_in("ana")
    page = table.client.get("/play/kingdom").text
    assert "The ledger waits for you." in page
    assert 'data-offer="ana-1"' in page and 'data-offer="bo-1"' not in page


def test_the_order_page_draws_the_armys_legal_moves_on_the_map_as_links(table: Table) -> None:
    from cok.rulesets.mighty_kingdoms.intents import moves

    table.sign_in("ana")
    page = table.client.get("/play/order", params={"army": "ana-1"}).text
    state = table.state()
    drawn = set(re.findall(r'class="move-to" data-tile="([^"]+)"', page))
    assert drawn == set(moves(state, state.armies["ana-1"])) and "0,0" in drawn


def test_tapping_a_tile_asks_to_confirm_then_the_order_is_recorded(table: Table) -> None:
    csrf = table.sign_in("ana")
    page = table.client.get("/play/order", params={"army": "ana-1", "to": "0,0"}).text
    assert "Move ana-1 to Ford?" in page
    answer = table.post("/play/order", csrf, army="ana-1", order="move", to="0,0")
    assert answer.status_code == 200
    assert table.state().armies["ana-1"].to == "0,0"


def test_a_kingdom_orders_only_its_own_armies(table: Table) -> None:
    csrf = table.sign_in("bo")
    before = table.log()
    answer = table.post("/play/order", csrf, army="ana-1", order="defend")
    assert answer.status_code == 403 and table.log() == before


def test_a_move_without_a_tile_becomes_the_rules_question_as_a_form(table: Table) -> None:
    csrf = table.sign_in("ana")
    before = table.log()
    answer = table.post("/play/order", csrf, army="ana-1", order="move")
    assert answer.status_code == 409 and "into which adjacent tile" in answer.text
    assert 'value="Ford"' in answer.text and table.log() == before


def test_resolve_roll_for_me_records_the_dice_the_server_rolled(table: Table) -> None:
    table.play(
        Draft("order", {"army": "ana-1", "order": "move", "to": "0,0"}),
        Draft("order", {"army": "bo-1", "order": "defend"}),
    )
    csrf = table.sign_in("ana")
    assert "Roll for me" in table.client.get("/play/kingdom").text
    answer = table.post("/play/resolve", csrf, army="ana-1", roll="server")
    assert answer.status_code == 200
    assert re.search(r"roll: \[[1-6], [1-6]\]", table.log())


def test_resolve_with_the_dice_rolled_at_the_table(table: Table) -> None:
    table.play(
        Draft("order", {"army": "ana-1", "order": "move", "to": "0,0"}),
        Draft("order", {"army": "bo-1", "order": "defend"}),
    )
    csrf = table.sign_in("ana")
    assert table.post("/play/resolve", csrf, army="ana-1", die1="6", die2="5").status_code == 200
    assert "roll: [6, 5]" in table.log()


def test_only_the_kingdom_whose_turn_it_is_is_offered_a_resolve(table: Table) -> None:
    table.play(*(Draft("order", {"army": a, "order": "defend"}) for a in ("ana-1", "bo-1")))
    table.sign_in("bo")
    page = table.client.get("/play/kingdom").text
    assert "Nothing waits for you now." in page and "/play/resolve" not in page


# ---------------------------------------------------------------- battles


def test_the_attacker_is_offered_the_battle_and_records_it_with_the_dice_rolled_at_the_table(table: Table) -> None:
    meeting(table)
    csrf = table.sign_in("ana")
    assert "Fight in Ford" in table.client.get("/play/kingdom").text
    form = table.client.get("/play/battle", params={"tile": "0,0"}).text
    assert 'name="die:ana-1"' in form and 'name="die:bo-1"' in form
    answer = table.post(
        "/play/battle",
        csrf,
        **{"tile": "0,0", "attacker": "ana", "defender": "bo", "die:ana-1": "6", "die:bo-1": "1"},
        **{"alloc:0:die": "ana-1", "alloc:0:target": "bo-1", "alloc:1:die": "bo-1", "alloc:1:target": "ana-1"},
        **{"retreat:bo-1": "1,0"},
    )
    assert answer.status_code == 200, answer.text
    assert "type: battle" in table.log() and "ana-1: 6" in table.log()


def answer_all(table: Table, csrf: str, page: Any, answers: dict[str, str]) -> Any:
    """Answer the rules' questions (a 409 form each) from `answers` by field, until recorded."""
    import html

    while page.status_code == 409:
        field = re.search(r'name="answer:([^"]+)"', page.text)
        assert field, page.text
        carried = {k: html.unescape(v) for k, v in re.findall(r'name="(drafts|answers)" value="([^"]*)"', page.text)}
        page = table.post("/record", csrf, **carried, **{f"answer:{field[1]}": answers[field[1]]})
    return page


def test_roll_the_dice_for_me_asks_the_allocations_with_the_dice_shown(table: Table) -> None:
    """#35: "Roll the dice for me" battles can be recorded, the dice shown where asked; #40:
    the month's dice are committed first (the phone sends again, with new random bytes)."""
    meeting(table)
    csrf = table.sign_in("ana")
    fields = {"tile": "0,0", "attacker": "ana", "defender": "bo", "roll": "server", "entropy": "ab" * 16}
    first = table.post("/play/battle", csrf, **fields)  # the page says what was written, and sends again
    assert first.status_code == 409 and "committed now" in first.text and "data-send-again" in first.text
    assert "Nothing was written" not in first.text
    assert "type: dice-commit" in table.log() and "type: battle" not in table.log()
    asked = table.post("/play/battle", csrf, **{**fields, "entropy": "cd" * 16})
    assert asked.status_code == 409 and "the dice: ana-1 " in asked.text and "bo-1 " in asked.text
    dice = {a: int(n) for a, n in re.findall(r"(ana-1|bo-1) ([1-6])", asked.text.split("the dice: ")[1])[:2]}
    again = table.post("/play/battle", csrf, **{**fields, "entropy": "ef" * 16})  # another tap: the same dice
    assert f"the dice: ana-1 {dice['ana-1']}, bo-1 {dice['bo-1']}" in again.text
    answers = {"allocate-1": "ana-1:bo-1", "allocate-2": "bo-1:ana-1", "retreat-bo-1": "1,0", "retreat-ana-1": "-1,0"}
    done = answer_all(table, csrf, asked, answers)
    assert done.status_code == 200, done.text
    battle = [e for e in yaml.safe_load(table.log()) if e["type"] == "battle"][-1]
    assert battle["dice"] == dice and battle["allocate"] == [["ana-1", "bo-1"], ["bo-1", "ana-1"]]
    assert battle["rolled"]["entropy"] == "cd" * 16 and battle["rolled"]["dice"] == list(dice.values())
    activity = table.client.get("/activity").text  # each die cok rolled, and whether it is verified yet
    assert f"dice rolled by cok: {dice['ana-1']} {dice['bo-1']} (not verified yet" in activity


def test_the_phones_roll_and_the_terminals_record_equal_battles(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """#36: one path for "roll it for me": with the same seed and entropy, the page and `cok
    mk battle --roll-dice` record the same battle (dice, allocations, retreat, rolled)."""
    from cok.core import fairdice
    from tests.conftest import Cok

    monkeypatch.setattr(fairdice, "new_seed", lambda: "5e" * 32)
    monkeypatch.setattr(fairdice, "new_entropy", lambda: "0f" * 16)
    monkeypatch.setattr("cok.service.dice.new_seed", lambda: "5e" * 32)
    monkeypatch.setattr("cok.service.dice.new_entropy", lambda: "0f" * 16)
    battles = []
    for name in ("phone", "terminal"):
        folder = tmp_path / name
        tokens = begun(folder)
        with TestClient(create_app(folder)) as client:
            table = Table(folder, client, tokens)
            meeting(table)
            answers = {"allocate-1": "ana-1:bo-1", "allocate-2": "bo-1:ana-1", "retreat-bo-1": "1,0"}
            answers |= {"retreat-ana-1": "-1,0"}
            if name == "phone":
                csrf = table.sign_in("ana")
                fields = {"tile": "0,0", "attacker": "ana", "defender": "bo", "roll": "server", "entropy": "0f" * 16}
                table.post("/play/battle", csrf, **fields)  # commits the month's dice
                assert answer_all(table, csrf, table.post("/play/battle", csrf, **fields), answers).status_code == 200
            else:
                args = ["mk", "battle", "0,0", "--attacker", "ana", "--defender", "bo", "--roll-dice"]
                shown = Cok(folder)(*args)  # commits, rolls, and asks the first allocation with the dice
                assert shown.exit_code == 1 and "the dice: ana-1 " in shown.stderr and "--allocate A:B" in shown.stderr
                args += ["--allocate", "ana-1:bo-1", "--allocate", "bo-1:ana-1"]
                done = Cok(folder)(*args)  # the same dice (pinned), and the retreat asked once the result is known
                leaving = re.search(r"--retreat ([\w-]+)=TILE", done.stderr)
                if leaving:
                    done = Cok(folder)(*args, "--retreat", f"{leaving[1]}={answers['retreat-' + leaving[1]]}")
                assert done.exit_code == 0, done.stderr
        battle = [e for e in yaml.safe_load(table.log()) if e["type"] == "battle"][-1]
        battle["rolled"].pop("commit")
        battles.append({k: v for k, v in battle.items() if k not in ("id", "at", "by")})
    assert battles[0] == battles[1] and battles[0]["rolled"]["dice"] == list(battles[0]["dice"].values())


def test_the_battle_page_shows_board_terrain_benefit_points_and_defence_as_cok_mk_battles(table: Table) -> None:
    """#35: the battle's Defence, board size, terrain benefit and each army's points on the
    page, as `cok mk battles` shows them; retreats asked once the result is known."""
    import html

    from cok.rulesets.mighty_kingdoms.documents import battles_doc

    meeting(table)
    table.sign_in("ana")
    page = table.client.get("/play/battle", params={"tile": "0,0"}).text
    (shown,) = [b for b in battles_doc(table.state())["battles"] if b["tile"] == "0,0"]
    assert f"<dt>Board</dt><dd>{shown['board']}</dd>" in html.unescape(page)
    assert "Terrain benefit" in page
    for side in shown["sides"]:
        for army in side["armies"]:
            assert f"<td>{army['id']}</td>" in page
            assert f"<td>{army['points']}</td><td>{army['defence']}" in page
    assert "Leaving armies" not in page and 'name="retreat:' not in page


def test_the_organiser_has_the_reform_roll_off_rolled_by_cok(table: Table) -> None:
    """Every die cok rolls through one path: the reform's roll-off from the organiser's page."""
    meeting(table)
    fight = {"tile": "0,0", "attacker": "ana", "defender": "bo", "dice": {"ana-1": 1, "bo-1": 1}}
    table.play(
        Draft("battle", {**fight, "allocate": [["ana-1", "bo-1"], ["bo-1", "ana-1"]], "retreat": {"bo-1": "1,0"}})
    )
    csrf = table.sign_in("Ann")
    assert "Roll the roll-off for me" in table.client.get("/play/organiser").text  # one army each: tied
    fields = {"event": "reform", "roll": "server", "entropy": "ab" * 16}
    assert "committed now" in table.post("/play/organiser", csrf, **fields).text
    done = table.post("/play/organiser", csrf, **{**fields, "entropy": "cd" * 16})
    assert done.status_code == 200, done.text
    reform = [e for e in yaml.safe_load(table.log()) if e["type"] == "reform"][-1]
    assert reform["rolled"]["entropy"] == "cd" * 16 and "dice rolled by cok" in done.text


def test_a_kingdom_not_in_the_battle_may_not_record_it(table: Table) -> None:
    meeting(table)
    table.tokens["cy"] = invites.invite(table.folder, "cy")
    table.client.cookies.clear()
    table.client.get(f"/join/{table.tokens['cy']}")
    csrf = re.search(r'name="csrf" value="([^"]+)"', table.client.get("/play/kingdom").text)
    assert csrf
    before = table.log()
    fields = {"tile": "0,0", "attacker": "ana", "defender": "bo", "die:ana-1": "6", "die:bo-1": "1"}
    assert table.post("/play/battle", csrf[1], **fields).status_code == 403 and table.log() == before


def test_a_kings_of_war_battle_records_the_result_and_the_unit_strength_changes(tmp_path: Path) -> None:
    with _kow(tmp_path / "kow") as table:
        meeting(table)
        csrf = table.sign_in("ana")
        form = table.client.get("/play/battle", params={"tile": "0,0"}).text
        assert 'name="result"' in form and 'name="die:' not in form
        assert 'name="strength:bo-1:Spearmen"' in form
        fields = {"tile": "0,0", "attacker": "ana", "defender": "bo", "result": "ana", "strength:ana-1:Spearmen": "1"}
        answer = table.post("/play/battle", csrf, **fields, **{"strength:bo-1:Spearmen": "-1", "retreat:bo-1": "1,0"})
        assert answer.status_code == 200, answer.text
        assert table.state().armies["bo-1"].tile == "1,0"


# ---------------------------------------------------------------- winter


def test_winter_offers_tithe_build_recruit_and_feed_and_records_the_feed(table: Table) -> None:
    to_winter(table)
    csrf = table.sign_in("bo")
    page = table.client.get("/play/kingdom").text
    for step in ("/play/tithe", "/play/build", "/play/recruit", "/play/feed"):
        assert step in page, step
    assert table.post("/play/feed", csrf, player="bo").status_code == 200
    assert "bo" in table.state().fed


def test_a_build_offered_is_one_the_kingdom_can_afford_and_is_recorded(table: Table) -> None:
    to_winter(table)
    state = table.state()
    csrf = table.sign_in("ana")
    offered = re.findall(r'name="build" value="([^"]+)"', table.client.get("/play/kingdom").text)
    assert offered
    gold = state.kingdoms["ana"].gold
    assert table.post("/play/build", csrf, player="ana", build=offered[0]).status_code == 200
    assert table.state().kingdoms["ana"].gold < gold


def test_a_kingdom_tithes_only_from_itself(table: Table) -> None:
    to_winter(table)
    csrf = table.sign_in("bo")
    before = table.log()
    assert table.post("/play/tithe", csrf, player="ana", to="bo", gold="1").status_code == 403
    assert table.log() == before


def test_deploy_offers_only_settlements_with_room(table: Table) -> None:
    to_winter(table)
    table.play(Draft("feed", {"player": "ana"}), Draft("feed", {"player": "bo"}))
    csrf = table.sign_in("ana")
    page = table.client.get("/play/kingdom").text
    tiles = re.findall(r'<option value="([^"]+)">[^<]*\(room for [1-3]\)', page)
    assert tiles and "-1,0" in tiles  # the city: room for 2
    assert table.post("/play/deploy", csrf, army="ana-1", tile=tiles[0]).status_code == 200
    assert table.state().armies["ana-1"].deployed


# ---------------------------------------------------------------- the organiser


def test_the_organiser_records_the_event_the_ledger_waits_for(table: Table) -> None:
    table.play(*(Draft("order", {"army": a, "order": "defend"}) for a in ("ana-1", "bo-1")))
    table.play(Draft("resolve", {"army": "ana-1"}), Draft("resolve", {"army": "bo-1"}))
    csrf = table.sign_in("Ann")
    page = table.client.get("/play/organiser").text
    assert 'name="event" value="reform"' in page and 'name="order"' in page  # tied on armies: the roll-off
    assert table.post("/play/organiser", csrf, event="reform", order="bo ana").status_code == 200
    assert table.state().order == ["bo", "ana"]


def test_a_kingdom_may_not_open_the_organisers_page_nor_record_its_events(table: Table) -> None:
    csrf = table.sign_in("ana")
    assert table.client.get("/play/organiser").status_code == 403
    assert table.post("/play/organiser", csrf, event="reform").status_code == 403


def test_the_organiser_acts_for_a_kingdom_from_its_page(table: Table) -> None:
    csrf = table.sign_in("Ann")
    assert "ana-1" in table.client.get("/play/kingdom", params={"player": "ana"}).text
    assert table.post("/play/order", csrf, army="bo-1", order="defend").status_code == 200
    assert table.state().armies["bo-1"].order == "defend"


def test_the_organisers_winter_form_offers_each_recall_tile_the_recalls_read_gives() -> None:
    """5.8 Recall on the organiser's page: the tiles come from the `recalls` read (each tile with
    its name), never from the state, and reach the form as the choice's value and label."""
    import asyncio
    from types import SimpleNamespace

    from cok.rulesets.mighty_kingdoms.table import organiser

    reads = {
        "status": {"waiting_for": [{"what": "winter"}], "player_order": ["ana", "bo"]},
        "recalls": {"bo": [{"tile": "1,0", "name": "Ford"}, {"tile": "3,-1", "name": "3,-1"}]},
        "phase": {"words": "the winter of year 1", "waiting": "the organiser's winter event"},
        "kingdoms": {"kingdoms": [{"id": "ana", "name": "Ana"}, {"id": "bo", "name": "Bo"}]},
    }
    shown: dict[str, Any] = {}

    async def read(name: str, **args: Any) -> dict[str, Any]:
        return reads[name]

    def render(template: str, status: int = 200, **values: Any) -> dict[str, Any]:
        shown.update(values, template=template)
        return shown

    visit = SimpleNamespace(request=SimpleNamespace(method="GET"), read=read, render=render)
    asyncio.run(organiser(visit))  # type: ignore[arg-type]
    assert shown["what"] == "winter"
    assert shown["recall"] == {"bo": [{"key": "1,0", "label": "Ford"}, {"key": "3,-1", "label": "3,-1"}]}


def test_a_kingdoms_page_says_what_the_ledger_records_if_it_misses_its_deadline(table: Table) -> None:
    """Issue 48: with a deadline on orders, the page says what the default will be, under the
    organisers' choice in campaign.yaml (`defaults:`)."""
    settings = table.folder / "campaign.yaml"
    settings.write_text(settings.read_text() + "deadlines: {orders: 48h}\n")
    table.sign_in("ana")
    assert "If you record nothing by the deadline: ana-1 defends." in table.client.get("/play/kingdom").text
    settings.write_text(settings.read_text() + "defaults: {orders: none}\n")
    assert (
        "If you record nothing by the deadline: the organisers are told (nothing is recorded)."
        in table.client.get("/play/kingdom").text
    )


def test_a_kingdoms_page_says_nothing_of_defaults_without_a_deadline(table: Table) -> None:
    table.sign_in("ana")
    assert "mk-default" not in table.client.get("/play/kingdom").text
