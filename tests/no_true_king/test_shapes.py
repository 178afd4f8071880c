"""No True King's reads fit their published shapes (`shapes.py`) in the states the shared test
(tests/test_every_read_has_its_shape.py: the begun scenario, the shipped example with no
option) does not reach: every phase of whole games played by `game.py` (setup, placement,
resolution, exchanges, unseal, over; sealed and open), every option of each read (a player,
an agent, a move before its combat, the cards on the table, Asha Greyjoy's granted move), the
cards' tables opened from the phones, and the shipped example through the API cut at each
phase. Before the game is over no standings row may hold a loyalty card (the in-play shape
names none, and forbids any field it does not name); once over, every row shows it with the
scores."""

from __future__ import annotations

import json
import shutil
import warnings
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel, ValidationError

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from cok.core.errors import RuleError
from cok.core.shapes import fits
from cok.links import invites
from cok.rulesets.no_true_king.documents import standings_doc, status_doc
from cok.rulesets.no_true_king.offers import agents_to_resolve, offer
from cok.rulesets.no_true_king.queries import QUERIES
from cok.rulesets.no_true_king.rules.cards import playable
from cok.rulesets.no_true_king.rules.state import State
from cok.rulesets.no_true_king.shapes import (
    SHAPES,
    CardsDocument,
    CombatDocument,
    NothingToResolve,
    OpeningDocument,
    ResolvingForm,
    StandingsInPlay,
    StandingsOver,
    StatusDocument,
)
from cok.serve.app import create_app
from tests.no_true_king.example import EXAMPLE_SEED
from tests.no_true_king.game import ROOT, Game, new_game, next_event
from tests.no_true_king.helpers import CARDS, begun, fresh, give, joined, put, rec, resolving
from tests.no_true_king.test_cards_from_the_phones import moat_cailin

EXAMPLE = ROOT / "campaigns" / "no-true-king-example"
GROUPS = (["footman"], ["knight"], ["ship"], ["footman", "ship"], ["knight", "ship"])


class Held:
    """A campaign as the reads take it: its name and its state (no folder: `status` and
    `standings` are read from their documents' own functions, as the commands make them)."""

    def __init__(self, state: State) -> None:
        self.name = "Shapes"
        self.state = state


def read(state: State, name: str, **options: Any) -> Any:
    """The read's document as the API answers it (JSON: tuples are lists, dataclasses maps)."""
    return json.loads(json.dumps(QUERIES[name](Held(state), **options), default=_plain))


def _plain(value: Any) -> Any:
    from cok.core.plain import json_default

    return json_default(value)


def fighting_moves(state: State, house: str) -> Iterator[tuple[str, str, list[str]]]:
    """The house's moves into another house's troops, each with a group the rules let move."""
    for route in offer(state, house, "lord").routes:
        if route.against is None or route.mustered:
            continue
        for units in GROUPS:
            try:
                QUERIES["combat"](Held(state), house=house, origin=route.origin, to=route.to, units=units)
            except RuleError:
                continue
            yield route.origin, route.to, units
            break


def every_read(state: State) -> Iterator[tuple[str, type[BaseModel], Any]]:
    """Each read of the state, with every option a page gives it here, and its model."""
    yield "status", StatusDocument, json.loads(json.dumps(status_doc("Shapes", state), default=_plain))
    over = state.phase == "over"
    yield "standings", StandingsOver if over else StandingsInPlay, standings_doc("Shapes", state)
    for name in ("board", "houses", "game", "picture"):
        yield name, SHAPES[name], read(state, name)
    for player in state.players:
        yield "turn", SHAPES["turn"], read(state, "turn", player=player)
        yield "cards", CardsDocument, read(state, "cards", player=player)
        agents = agents_to_resolve(state, player)
        if not agents:
            yield "resolving", NothingToResolve, read(state, "resolving", player=player)
        for house, space in agents:
            yield "resolving", ResolvingForm, read(state, "resolving", player=player, agent=f"{house}:{space}")
    if state.phase == "resolution" and state.active is not None:
        for house, _ in agents_to_resolve(state, state.active)[:1]:
            yield from combats(state, house, state.active)


def combats(state: State, house: str, player: str) -> Iterator[tuple[str, type[BaseModel], Any]]:
    """`combat` of the house's moves that fight (with the active player's card, and after a
    muster), and `opening` of each (and of Asha Greyjoy's granted move)."""
    for origin, to, units in list(fighting_moves(state, house))[:2]:
        move = {"move": {"from": origin, "to": to, "units": units}}
        asked = {"house": house, "origin": origin, "to": to, "units": ",".join(units)}
        yield "combat", CombatDocument, read(state, "combat", **asked)
        against = state.troops_house(to)
        mine = [c for h, c in playable(state, player) if h in (house, against)]
        for card in mine[:1]:
            yield "combat", CombatDocument, read(state, "combat", **asked, player=player, card=card)
        points = offer(state, house, "marshal").musters
        if points and points[0].barrels:
            muster = json.dumps([{"muster": {points[0].name: ["footman"]}}])
            try:
                mustered = read(state, "combat", **asked, before=muster)
            except RuleError:  # the muster breaks a limit here: its refusal is the rules'
                mustered = None
            if mustered is not None:
                yield "combat", CombatDocument, mustered
        yield "opening", OpeningDocument, read(state, "opening", house=house, actions=json.dumps([move]))
        granted = {"card": "Asha Greyjoy", "then": "move", "then_route": f"{origin}|{to}", "granted_to": to}
        yield "opening", OpeningDocument, read(state, "opening", house=house, actions=json.dumps([move]), **granted)


def checked(state: State, seen: Counter[str]) -> None:
    for name, model, document in every_read(state):
        fits(model, document)
        fits(SHAPES[name], document)  # the published one: the specific model is one of its branches
        seen[name] += 1
        if name == "resolving":
            seen[f"resolving:{'form' if document['agent'] else 'nothing'}"] += 1
        if name == "cards" and document["houses"]:
            seen["cards:open"] += 1
    seen[f"phase:{state.phase}"] += 1


def played(game: Game, seen: Counter[str]) -> Game:
    checked(game.state, seen)
    while game.state.phase != "over":
        game.record(next_event(game))
        checked(game.state, seen)
    return game


@pytest.mark.parametrize(
    ("seed", "players", "loyalty"),
    [(EXAMPLE_SEED, 3, "sealed"), (7, 2, "open"), (11, 4, "sealed")],
)
def test_every_read_fits_its_shape_at_every_event_of_a_whole_game(seed: int, players: int, loyalty: str) -> None:
    seen: Counter[str] = Counter()
    for setup in (fresh(loyalty), joined(("ana",), loyalty), joined(("ana", "bo"), loyalty)):
        checked(setup, seen)
    game = played(new_game(seed, players, loyalty), seen)
    phases = {"setup", "placement", "resolution", "exchanges", "over"} | ({"unseal"} if loyalty == "sealed" else set())
    assert {p for p in phases if seen[f"phase:{p}"]} == phases, seen
    assert seen["resolving:form"] and seen["resolving:nothing"] and seen["combat"] and seen["opening"], seen
    assert set(SHAPES) <= set(seen), seen
    assert game.state.phase == "over"


def test_the_standings_show_no_loyalty_card_until_the_game_is_over() -> None:
    """Every position before the end fits the in-play shape, which names no `loyalty` (and
    forbids a field it does not name): a card leaking into a row fails it."""
    game = new_game(EXAMPLE_SEED, 3, "sealed")
    while game.state.phase != "over":
        document = standings_doc("Shapes", game.state)
        fits(StandingsInPlay, document)
        assert document["over"] is False and all(row["score"] is None for row in document["players"])
        game.record(next_event(game))
    leaked = standings_doc("Shapes", game.state) | {"over": False}
    for row in leaked["players"]:
        row.pop("decided_by")
        row["score"] = row["rank"] = None
    with pytest.raises(ValidationError, match="loyalty"):
        fits(StandingsInPlay, leaked)
    assert "loyalty" not in StandingsInPlay.model_json_schema()["$defs"]["ConspiracyInPlay"]["properties"]


def test_once_over_the_standings_carry_each_score_and_loyalty_card() -> None:
    game = new_game(EXAMPLE_SEED, 3, "sealed")
    while game.state.phase != "over":
        game.record(next_event(game))
    document = standings_doc("Shapes", game.state)
    fits(StandingsOver, document)
    with pytest.raises(ValidationError):
        fits(StandingsInPlay, document)
    assert {row["id"]: row["loyalty"] for row in document["players"]} == game.cards
    assert sorted(row["rank"] for row in document["players"]) == [1, 2, 3]
    assert [row["decided_by"] is None for row in document["players"]] == [False, False, True]
    status = status_doc("Shapes", game.state)
    fits(StatusDocument, status)
    assert status["phase"] == "over" and status["waiting_for"] == [{"what": "over", "player": None}]


# ---------------------------------------------------------------- the cards' tables


def karhold() -> State:
    """ana (active) moves Stark from Winterfell into Karhold, held by a Greyjoy footman, and
    opens the table; bo holds Greyjoy cards, cy a Tyrell card only."""
    state = begun()
    put(state, "Karhold", "greyjoy", 1)
    resolving(state, "ana", "stark", "maester")
    give(state, "bo", "greyjoy", 2)
    give(state, "cy", "tyrell")
    rec(state, type="card", player="ana", house="stark", to="Karhold")
    return state


def test_the_reads_fit_their_shapes_while_a_combats_cards_are_played_from_the_phones() -> None:
    state = karhold()
    seen: Counter[str] = Counter()
    checked(state, seen)
    status = status_doc("Shapes", state)
    assert status["waiting_for"] == [
        {
            "what": "card",
            "player": "bo",
            "house": "stark",
            "area": "Karhold",
            "played": [{"player": "ana", "card": None}],
        }
    ]
    fits(StatusDocument, status)
    cards = read(state, "cards", player="bo")
    assert cards["houses"] == ["stark", "greyjoy"] and cards["choices"] and cards["facts"]
    fits(CardsDocument, cards)
    game = read(state, "game")
    assert game["fight_at"] == ["stark", "Karhold"] and game["table"] == [["ana", None]]
    fits(SHAPES["game"], game)
    turn = read(state, "turn", player="bo")
    assert turn["what"] == "card"
    fits(SHAPES["turn"], turn)
    on_table = read(state, "combat", house="stark", origin="Winterfell", to="Karhold", units="footman")
    fits(CombatDocument, on_table)


def test_a_granting_card_played_from_another_phone_fits_the_resolve_forms_shape() -> None:
    """bo plays Asha Greyjoy on ana's table: ana's form offers bo's granted move (`granted_by`)."""
    state = karhold()
    rec(state, type="card", player="bo", card="Asha Greyjoy")
    form = read(state, "resolving", player="ana")
    assert form["granted_by"] == {"Asha Greyjoy": "bo"} and form["first_at"] == ["stark", "Karhold"]
    assert set(form["granted_offers"]) == {"greyjoy", "lannister"} and form["on_table"] == ["Asha Greyjoy"]
    fits(ResolvingForm, form)
    fits(SHAPES["resolving"], form)
    played = read(state, "combat", house="stark", origin="Winterfell", to="Karhold", units="knight")
    assert played["cards_played"] == [{"player": "bo", "card": "Asha Greyjoy"}]
    fits(CombatDocument, played)


def test_ashas_own_table_fits_the_shapes_of_the_cards_and_the_game() -> None:
    """ana plays Asha Greyjoy moving into Moat Cailin, then opens the table of Asha's move
    into The Golden Sound, where bo holds a Lannister card (`won_table`, `granted`)."""
    state = moat_cailin()
    opening = read(
        state,
        "opening",
        house="greyjoy",
        actions=json.dumps([{"move": {"from": "Greywater Watch", "to": "Moat Cailin", "units": ["footman"]}}]),
        card="Asha Greyjoy",
        then="move",
        then_route="Ironman's Bay|The Golden Sound",
        granted_to="The Golden Sound",
    )
    assert opening["granted_table"] == "The Golden Sound" and opening["granted_fights"] is True
    fits(OpeningDocument, opening)
    rec(state, type="card", player="ana", house="greyjoy", to="The Golden Sound")
    seen: Counter[str] = Counter()
    checked(state, seen)
    cards = read(state, "cards", player="bo")
    assert cards["granted"] is True and cards["houses"] == ["greyjoy", "lannister"]
    assert cards["choices"] and all(house == "lannister" for house, _ in cards["choices"])
    fits(CardsDocument, cards)
    game = read(state, "game")
    assert game["won_at"] == ["greyjoy", "Moat Cailin"] and game["won_table"] == [["ana", "Asha Greyjoy"]]
    fits(SHAPES["game"], game)


def test_a_game_with_open_loyalty_shows_no_seal_and_fits_the_games_shape() -> None:
    state = joined(("ana", "bo"), "open")
    game = read(state, "game")
    assert game["loyalty"] == "open" and all(p["seal"] is None for p in game["players"].values())
    assert not any(CARDS["ana"] == p.get("card") for p in game["players"].values())
    fits(SHAPES["game"], game)


# ---------------------------------------------------------------- the shipped example, through the API


def cut(folder: Path, keep: int) -> None:
    """The campaign's log cut to its first `keep` events."""
    log = folder / "events.yaml"
    head, *entries = log.read_text(encoding="utf-8").split("\n- type:")
    log.write_text("\n- type:".join([head, *entries[:keep]]) + "\n", encoding="utf-8")


def asked(phase: str, players: list[str], fights: list[dict[str, str]]) -> list[str]:
    """What the pages ask in this phase: each read, the pages' reads for each player."""
    queries = ["status", "standings", "board", "houses", "game", "picture"]
    for player in players:
        queries += [f"turn?player={player}", f"resolving?player={player}", f"cards?player={player}"]
    for fight in fights:
        queries.append("combat?" + "&".join(f"{k}={v}" for k, v in fight.items()))
        queries.append(f"opening?house={fight['house']}&actions=[]")
    return queries


def example_cuts() -> list[int]:
    """Where the example's log is cut: nothing yet, one conspiracy, the seats still to come,
    then the first event of each phase's kind, the last round's exchanges, and the whole log."""
    kinds = [
        line.split(":", 1)[1].strip()
        for line in (EXAMPLE / "events.yaml").read_text(encoding="utf-8").splitlines()
        if line.startswith("- type:")
    ]
    firsts = [kinds.index(kind) for kind in ("begin", "place", "resolve", "exchange", "unseal")]
    return sorted({0, 1, 3, *(i + 1 for i in firsts), len(kinds) - 1, len(kinds)})


@pytest.mark.parametrize("keep", example_cuts())
def test_the_shipped_examples_reads_fit_their_shapes_through_the_api_at_each_phase(
    keep: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The example cut at each phase, with deadlines (so `due` holds times), every read asked of
    `GET /api/<name>` with the options the pages give it."""
    monkeypatch.setenv("COK_DATA_DIR", str(tmp_path / "data"))
    folder = tmp_path / "example"
    shutil.copytree(EXAMPLE, folder)
    cut(folder, keep)
    with (folder / "campaign.yaml").open("a", encoding="utf-8") as settings:
        settings.write("deadlines: {turn: 48h, unseal: 3d}\n")
    from cok.core.campaign import open_campaign

    state = open_campaign(folder).state
    fights = []
    if state.phase == "resolution" and state.active is not None:
        for house, _ in agents_to_resolve(state, state.active)[:1]:
            fights = [
                {"house": house, "origin": o, "to": t, "units": ",".join(u)} for o, t, u in fighting_moves(state, house)
            ][:1]
    token = invites.invite(folder, "Ann", organiser=True)
    with TestClient(create_app(folder)) as client:
        for query in asked(state.phase, list(state.players), fights):
            answer = client.get(f"/api/{query}", headers={"authorization": f"Bearer {token}"})
            assert answer.status_code == 200, (query, answer.text)
            fits(SHAPES[query.partition("?")[0]], answer.json())
            if query == "standings":
                fits(StandingsOver if state.phase == "over" else StandingsInPlay, answer.json())
            if query == "status" and state.phase in ("placement", "resolution", "exchanges", "unseal"):
                assert answer.json()["due"] and all(d["due"] for d in answer.json()["due"]), answer.json()


def test_the_shapes_fixed_values_are_every_value_the_code_has() -> None:
    """The shapes' `Literal`s name the phases, spaces, plans and grants the rules know, no fewer:
    a new one in the rules fails here until its shape names it."""
    from typing import get_args

    from cok.rulesets.no_true_king.map import SPACES
    from cok.rulesets.no_true_king.offers import PLANS
    from cok.rulesets.no_true_king.rules.combat import GRANTS
    from cok.rulesets.no_true_king.rules.state import PHASES
    from cok.rulesets.no_true_king.shapes import Grant, Phase, Plan, Space

    assert get_args(Phase) == PHASES
    assert get_args(Space) == SPACES
    assert set(get_args(Plan)) == {plan for plans in PLANS.values() for plan in plans}
    assert set(get_args(Grant.model_fields["kind"].annotation)) == {kind for _, kind in GRANTS.values()}
