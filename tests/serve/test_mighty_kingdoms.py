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
from cok.rulesets.mighty_kingdoms.rules.phase import counts, resolver, ties
from cok.serve import invites
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


def rolled_on(page: str) -> dict[str, int]:
    return {army: int(die) for army, die in re.findall(r'<p class="die">([\w-]+): <b>([1-6])</b></p>', page)}


def test_roll_the_dice_for_me_rolls_each_upright_armys_die(table: Table) -> None:
    meeting(table)
    table.sign_in("ana")
    form = table.client.get("/play/battle", params={"tile": "0,0", "roll": "server"}).text
    assert "rolled by the server" in form
    assert set(rolled_on(form)) == {"ana-1", "bo-1"}


def test_the_servers_roll_is_rolled_once_and_recorded_as_rolled(table: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    """Showing the page again never rolls again, and the battle records the server's dice,
    whatever a form sends as dice (5.4: one die for each upright army)."""
    from cok.core import dice

    meeting(table)
    csrf = table.sign_in("ana")
    rolls = iter([6, 1, 2, 5])  # ana-1, bo-1; a second roll would give ana-1 the lower die
    monkeypatch.setattr(dice, "RandomDice", lambda: dice.FixedDice(*rolls))
    query = {"tile": "0,0", "roll": "server"}
    first = rolled_on(table.client.get("/play/battle", params=query).text)
    assert first == {"ana-1": 6, "bo-1": 1}
    assert all(rolled_on(table.client.get("/play/battle", params=query).text) == first for _ in range(3))
    answer = table.post(
        "/play/battle",
        csrf,
        **{"tile": "0,0", "attacker": "ana", "defender": "bo", "roll": "server"},
        **{f"die:{army}": str(7 - die) for army, die in first.items()},  # what a tampered form would send
        **{"alloc:0:die": "ana-1", "alloc:0:target": "bo-1", "alloc:1:die": "bo-1", "alloc:1:target": "ana-1"},
        **{"retreat:bo-1": "1,0"},  # the loser by the server's dice; by the form's, ana-1 would be
    )
    assert answer.status_code == 200, answer.text
    battle = [e for e in yaml.safe_load(table.log()) if e["type"] == "battle"][-1]
    assert battle["dice"] == first


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
