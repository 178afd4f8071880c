"""Issue 35, every game: "a preview before recording (what `--dry-run` shows: what would
change)". Each No True King form that records offers a Preview (a POST), which writes
nothing, and whose "Record it" records exactly the event the form records directly."""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from cok.rulesets.no_true_king.rules.loyalty import seal_of
from tests.conftest import Cok
from tests.no_true_king.pages.test_table import CARDS, SECRETS, Phones, begun, game, joined, phones, placed

__all__ = ["game", "phones"]  # the fixtures, used by name

FORMS = ("place", "resolve", "card", "exchange", "pass", "begin", "join", "unseal")


def _forms(page: str) -> list[str]:
    """Each form of the page that records (its action a game's recording form), whole."""
    recording = re.compile(r'action="/play/({})"'.format("|".join(FORMS)))
    return [f for f in re.findall(r"<form [^>]*>.*?</form>", page, re.S) if recording.search(f)]


def _hidden(page: str) -> dict[str, str]:
    return {k: html.unescape(v) for k, v in re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', page)}


def _same(event: dict[str, object]) -> dict[str, object]:
    """An event without what the ledger adds on writing (its id and time)."""
    return {k: v for k, v in event.items() if k not in ("id", "at")}


def test_every_ntk_form_that_records_offers_a_preview(phones: Phones) -> None:
    seen: dict[str, str] = {}

    def look(who: str, path: str) -> None:
        _, page = phones.get(who, path)
        for form in _forms(page):
            action = re.search(r'action="/play/(\w+)"', form)
            assert action
            assert 'name="preview" value="1"' in form, form
            seen[action[1]] = form

    look("ana", "/play/join")
    joined(phones)
    look("Ann", "/play/begin")
    phones.post("Ann", "/play/begin", seats="ana bo", first="ana")
    look("ana", "/play/conspiracy")  # place
    placed_after_begin(phones)
    look("ana", "/play/conspiracy")  # resolve
    assert {"join", "begin", "place", "resolve"} <= set(seen), sorted(seen)


def placed_after_begin(phones: Phones) -> None:
    for name, spot in [
        ("ana", "greyjoy:maester"),
        ("bo", "stark:maester"),
        ("ana", "lannister:lord"),
        ("bo", "tyrell:lord"),
        ("ana", "baratheon:lord"),
        ("bo", "greyjoy:lord"),
    ]:
        assert phones.post(name, "/play/place", spot=spot)[0] == 200


def test_the_card_exchange_and_pass_forms_offer_a_preview(phones: Phones) -> None:
    placed(phones)
    phones.post("ana", "/play/resolve", agent="greyjoy:maester", plan="move", route="Greywater Watch|Moat Cailin",
                footmen="1")  # fmt: skip
    phones.post("bo", "/play/resolve", agent="stark:maester", plan="draw")  # bo holds a Stark card
    attack = {"agent": "greyjoy:marshal", "plan": "muster move", "route": "Moat Cailin|Winterfell", "footmen": "1"}
    assert phones.post("ana", "/play/resolve", **attack)[0] == 200  # the table opened: bo's card
    _, page = phones.get("bo", "/play/conspiracy")
    (card,) = [f for f in _forms(page) if 'action="/play/card"' in f]
    assert 'name="preview" value="1"' in card


def _step(phones: Phones, who: str, path: str, fields: dict[str, str]) -> dict[str, object]:
    """Preview a form, check nothing is written, then "Record it": the event recorded."""
    before = (phones.folder / "events.yaml").read_bytes()
    status, page = phones.post(who, path, **fields, preview="1")
    assert status == 200 and "Before it is recorded" in page, page
    assert (phones.folder / "events.yaml").read_bytes() == before  # nothing written by a preview
    hidden = _hidden(page.split("<main", 1)[1])
    status, done = phones.post(who, "/record", **{k: v for k, v in hidden.items() if k != "csrf"})
    assert status == 200 and "<h1>Recorded</h1>" in done, done
    return phones.events()[-1]


def named(phones: Phones) -> None:
    """ana and bo join with their names (Ana Stone, Bo Reed), the organiser seats them."""
    for name, symbol, full in (("ana", "crown", "Ana Stone"), ("bo", "torch", "Bo Reed")):
        seal = seal_of(name, CARDS[name], SECRETS[name])
        assert phones.post(name, "/play/join", symbol=symbol, seal=seal, name=full)[0] == 200


def named_begun(phones: Phones) -> None:
    named(phones)
    assert phones.post("Ann", "/play/begin", seats="ana bo", first="ana")[0] == 200


def named_placed(phones: Phones) -> None:
    named_begun(phones)
    placed_after_begin(phones)


def ana_drew(phones: Phones) -> None:
    named_placed(phones)
    assert phones.post("ana", "/play/resolve", agent="greyjoy:maester", plan="draw")[0] == 200


MOVES: list[tuple[str, str, Callable[[Phones], None], dict[str, str], str]] = [
    ("ana", "/play/place", named_begun, {"spot": "greyjoy:maester"}, "Ana Stone places an agent on the Greyjoy"),
    (
        "ana",
        "/play/resolve",
        named_placed,
        {"agent": "greyjoy:maester", "plan": "move", "route": "Greywater Watch|Moat Cailin", "footmen": "1"},
        "Ana Stone resolves the Greyjoy maester: moves 1 footman of Greyjoy from Greywater Watch to Moat Cailin",
    ),
    ("bo", "/play/resolve", ana_drew, {"agent": "stark:maester", "plan": "draw"}, "Bo Reed resolves the Stark"),
    ("Ann", "/play/begin", named, {"seats": "ana bo", "first": "bo"}, "seats Ana Stone, Bo Reed clockwise; Bo Reed"),
]


@pytest.mark.parametrize(
    ("who", "path", "until", "fields", "says"), MOVES, ids=[m[1] + ":" + m[3].get("plan", "") for m in MOVES]
)
def test_record_from_the_preview_records_the_event_the_form_records_directly(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    who: str,
    path: str,
    until: Callable[[Phones], None],
    fields: dict[str, str],
    says: str,
) -> None:
    monkeypatch.setenv("COK_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("COK_CACHE_DIR", str(tmp_path / "cache"))
    recorded = []
    for name in ("direct", "previewed"):
        assert Cok(tmp_path)("init", name, "--ruleset", "no-true-king").exit_code == 0
        table = Phones(tmp_path / name)
        for person in ("ana", "bo"):
            table.sign_in(person)
        table.sign_in("Ann", organiser=True)
        until(table)
        if name == "direct":
            status, page = table.post(who, path, **fields)
            assert status == 200, page
            recorded.append(_same(table.events()[-1]))
        else:
            _, shown = table.post(who, path, **fields, preview="1")
            assert says in shown.split("<main", 1)[1], shown.split("<main", 1)[1]  # in the game's words, with names
            recorded.append(_same(_step(table, who, path, fields)))
    assert recorded[0] == recorded[1]


def test_a_preview_of_a_fight_then_record_it_takes_the_phones_cards(phones: Phones) -> None:
    placed(phones)
    phones.post("ana", "/play/resolve", agent="greyjoy:maester", plan="move", route="Greywater Watch|Moat Cailin",
                footmen="1")  # fmt: skip
    phones.post("bo", "/play/resolve", agent="stark:maester", plan="draw")
    attack = {"agent": "greyjoy:marshal", "plan": "muster move", "route": "Moat Cailin|Winterfell", "footmen": "1"}
    opened = _step(phones, "ana", "/play/resolve", attack)
    assert opened["type"] == "card" and opened["to"] == "Winterfell"
    _, page = phones.get("bo", "/play/conspiracy")
    cards = re.findall(r'name="card" value="([^"]+)"', page)
    played = _step(phones, "bo", "/play/card", {"card": cards[0]})
    assert played["type"] == "card" and played["card"] == cards[0] and played["by"] == "bo"
    resolved = _step(phones, "ana", "/play/resolve", attack)
    assert resolved["type"] == "resolve" and resolved["combat"]["cards"]["bo"] == cards[0]  # type: ignore[index]


def test_the_preview_of_an_illegal_move_shows_the_refusal_and_writes_nothing(phones: Phones) -> None:
    begun(phones)
    assert phones.post("ana", "/play/place", spot="greyjoy:maester")[0] == 200
    before = (phones.folder / "events.yaml").read_bytes()
    status, page = phones.post("bo", "/play/place", spot="greyjoy:maester", preview="1")
    assert status == 422 and "Before it is recorded" not in page
    assert "free" in page.split("<main", 1)[1] or "taken" in page.split("<main", 1)[1]
    assert (phones.folder / "events.yaml").read_bytes() == before


def test_the_seating_rolled_by_the_ledger_is_previewed_and_record_it_rolls(phones: Phones) -> None:
    """A dry run rolls no dice: the preview of "chosen at random" says the dice choose as it
    is recorded, and "Record it" seats the table with a first player rolled."""
    named(phones)
    before = (phones.folder / "events.yaml").read_bytes()
    status, page = phones.post("Ann", "/play/begin", seats="ana bo", first="roll", preview="1")
    main = page.split("<main", 1)[1]
    assert status == 200 and "seats Ana Stone, Bo Reed clockwise; the ledger&#39;s dice choose" in main, main
    assert (phones.folder / "events.yaml").read_bytes() == before
    status, bad = phones.post("Ann", "/play/begin", seats="ana cy", first="roll", preview="1")
    assert status == 422 and "Before it is recorded" not in bad and "cy" in bad.split("<main", 1)[1]
    status, done = phones.post("Ann", "/record", **{k: v for k, v in _hidden(main).items() if k != "csrf"})
    assert status == 200 and "<h1>Recorded</h1>" in done, done
    begun_event = next(e for e in phones.events() if e["type"] == "begin")  # then the seating's dice revealed
    assert begun_event["type"] == "begin" and begun_event["first"] in ("ana", "bo") and begun_event["by"] == "Ann"


def test_the_exchange_and_the_pass_offer_a_preview_and_record_it_records_the_exchange(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The end of round 1 of the seeded example game, recorded at the terminal; the player
    whose exchange it is previews it from the phone, then records it from the preview."""
    from tests.no_true_king.example import EXAMPLE_SEED, words
    from tests.no_true_king.game import play

    monkeypatch.setenv("COK_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("COK_CACHE_DIR", str(tmp_path / "cache"))
    assert Cok(tmp_path)("init", "game", "--ruleset", "no-true-king").exit_code == 0
    folder = tmp_path / "game"
    cok = Cok(folder)
    houses = ["baratheon", "stark", "lannister", "greyjoy", "tyrell"]
    exchange = None
    for event in play(EXAMPLE_SEED).events:
        if event["type"] == "conspiracy":
            seal = seal_of(event["player"], houses, "a-secret-of-sixteen-or-more")
            done = cok("ntk", "join", event["player"], "--symbol", event["symbol"], "--seal", seal)
        elif event["type"] in ("exchange", "pass"):
            exchange = event
            break
        else:
            done = cok("ntk", *words(event))
        assert done.exit_code == 0, done.stderr
    assert exchange is not None
    who = exchange["player"]
    table = Phones(folder)
    table.sign_in(who)
    _, page = table.get(who, "/play/exchange")
    forms = _forms(page)
    assert [re.search(r'action="/play/(\w+)"', f)[1] for f in forms] == ["exchange", "pass"]  # type: ignore[index]
    assert all('name="preview" value="1"' in f for f in forms)
    recorded = _step(table, who, "/play/exchange", {"a": "1", "b": "left", "reveal": "1", "house": "stark"})
    assert recorded["type"] == "exchange" and recorded["swap"] == [1, "left"] and recorded["by"] == who
    assert {str(k): v for k, v in recorded["reveal"].items()} == {"1": "stark"}  # type: ignore[attr-defined]
