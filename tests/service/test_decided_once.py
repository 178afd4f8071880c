"""Issue #36: a recording decides each event once. The ledger asked whether a battle repeats
one recorded before and then applied it; both ran the game's battle rule, so each recorded
battle was decided twice. Now the ledger decides, asks `repeats` of the decision, and commits
it: a battle recorded through `service.record` runs its rule once, in every game."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from cok.service import Draft, Refusal, Who, record


def counting(monkeypatch: pytest.MonkeyPatch, rules: Any, event: type) -> list[int]:
    """The game's rule for this event, counted where its dispatch reaches it: its table of
    rules (`rules/apply.py`'s DECIDE)."""
    calls: list[int] = []
    rule = rules.DECIDE[event]

    def counted(*args: Any) -> Any:
        calls.append(1)
        return rule(*args)

    monkeypatch.setitem(rules.DECIDE, event, counted)
    return calls


def test_a_clash_of_kings_battle_is_decided_once_per_recording(two: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from cok.rulesets.clash_of_kings.events import Battle
    from cok.rulesets.clash_of_kings.rules import apply

    calls = counting(monkeypatch, apply, Battle)
    fought = Draft("battle", {"players": ["Tim", "MATT"], "location": "tarth", "attacker": "tim", "winner": "tim"})
    done = record(two, [fought], by=Who("tim"))
    assert done.written and done.events[0].type == "battle"
    assert len(calls) == 1


def test_a_refused_clash_of_kings_battle_is_decided_once_too(two: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from cok.rulesets.clash_of_kings.events import Battle
    from cok.rulesets.clash_of_kings.rules import apply

    before = (two / "events.yaml").read_bytes()
    calls = counting(monkeypatch, apply, Battle)
    far = Draft("battle", {"players": ["tim", "matt"], "location": "Winterfell", "attacker": "tim", "winner": "tim"})
    with pytest.raises(Refusal, match="not a legal location"):
        record(two, [far], by=Who("tim"))
    assert len(calls) == 1
    assert (two / "events.yaml").read_bytes() == before


def test_a_mighty_kingdoms_battle_is_decided_once_per_recording(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from cok.rulesets.mighty_kingdoms.events import Battle
    from cok.rulesets.mighty_kingdoms.rules import apply
    from tests.mighty_kingdoms.pages.kingdoms import ORGANISER, begun

    folder = tmp_path / "hexes"
    begun(folder)
    for draft in (
        Draft("order", {"army": "ana-1", "order": "move", "to": "0,0"}),
        Draft("order", {"army": "bo-1", "order": "move", "to": "0,0"}),
        Draft("resolve", {"army": "ana-1", "roll": [3, 4]}),
        Draft("resolve", {"army": "bo-1"}),
    ):
        record(folder, [draft], by=ORGANISER)
    calls = counting(monkeypatch, apply, Battle)
    fight = {"tile": "0,0", "attacker": "ana", "defender": "bo", "dice": {"ana-1": 1, "bo-1": 1}}
    fight |= {"allocate": [["ana-1", "bo-1"], ["bo-1", "ana-1"]], "retreat": {"bo-1": "1,0"}}
    done = record(folder, [Draft("battle", fight)], by=Who("ana"))
    assert done.written and done.events[0].type == "battle"
    assert len(calls) == 1


def test_a_no_true_king_resolve_is_decided_once_per_recording(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No True King fights inside an agent's resolve (a move into another house's troops)."""
    from cok.rulesets.no_true_king.events import Resolve
    from cok.rulesets.no_true_king.rules import apply
    from tests.conftest import Cok

    assert Cok(tmp_path)("init", "game", "--ruleset", "no-true-king").exit_code == 0
    folder = tmp_path / "game"
    settings = folder / "campaign.yaml"
    settings.write_text(settings.read_text(encoding="utf-8").replace("sealed", "open"), encoding="utf-8")
    cards = {"ana": ["baratheon", "stark", "lannister", "greyjoy", "tyrell"]}
    cards["bo"] = list(reversed(cards["ana"]))
    drafts = [
        Draft("conspiracy", {"player": p, "symbol": s, "loyalty": cards[p]})
        for p, s in (("ana", "crown"), ("bo", "torch"))
    ]
    drafts.append(Draft("begin", {"seats": ["ana", "bo"], "first": "ana"}))
    spots = [("greyjoy", "maester"), ("stark", "maester"), ("lannister", "lord"), ("tyrell", "lord")]
    spots += [("baratheon", "lord"), ("greyjoy", "lord")]
    drafts += [
        Draft("place", {"player": ("ana", "bo")[i % 2], "house": house, "space": space})
        for i, (house, space) in enumerate(spots)
    ]
    for draft in drafts:
        record(folder, [draft], by="Ann")
    calls = counting(monkeypatch, apply, Resolve)
    move = {"move": {"from": "Greywater Watch", "to": "Moat Cailin", "units": ["footman"]}}
    done = record(
        folder,
        [Draft("resolve", {"player": "ana", "house": "greyjoy", "space": "maester", "actions": [move]})],
        by="ana",
    )
    assert done.written and done.events[0].type == "resolve"
    assert len(calls) == 1


def test_while_this_machine_holds_the_periods_seed_each_recording_is_decided_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue #45: with a seed held, a recording was decided a second time (a dry run) to learn
    the period after it, even when no die was used: now the reveal closing the change is
    asked of the state the recording left, once it is decided."""
    from cok.core import seeds
    from cok.core.dice import ROLL
    from cok.rulesets.mighty_kingdoms.events import Reform, Resolve
    from cok.rulesets.mighty_kingdoms.rules import apply
    from tests.mighty_kingdoms.pages.kingdoms import ORGANISER, begun

    folder = tmp_path / "hexes"
    begun(folder)
    for draft in (
        Draft("order", {"army": "ana-1", "order": "move", "to": "0,0"}),
        Draft("order", {"army": "bo-1", "order": "defend"}),
    ):
        record(folder, [draft], by=ORGANISER)
    record(folder, [Draft("resolve", {"army": "ana-1"})], by=ORGANISER, answers={ROLL: True})  # commits, rolls
    assert seeds.held(folder)
    resolves = counting(monkeypatch, apply, Resolve)
    record(folder, [Draft("resolve", {"army": "bo-1"})], by=ORGANISER)  # no die, the seed held
    assert len(resolves) == 1
    reforms = counting(monkeypatch, apply, Reform)
    done = record(folder, [Draft("reform", {"order": ["ana", "bo"]})], by=ORGANISER)  # the month ends
    # revealed in the same change, and the next month's dice committed with it (#49's first tap)
    assert [e.type for e in done.events] == ["reform", "dice-reveal", "dice-commit"]
    assert len(reforms) == 1
