"""Invariants over random maps and random valid campaigns (hypothesis)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cok.core.errors import ChoiceNeeded, RuleError
from cok.rulesets.clash_of_kings.map import CASTLE_CAP, Geography, Location, Route
from cok.rulesets.clash_of_kings.rules.apply import apply, decide, initial_state
from cok.rulesets.clash_of_kings.rules.state import Settings, State
from cok.rulesets.clash_of_kings.rules.where import where

from ..conftest import event, replayed

#: Whole processes, fuzzing or random campaigns: left out of the quick run (`-m 'not slow'`).
pytestmark = pytest.mark.slow

KINDS = ["castle", "castle", "fort", "fort", "fort", "village", "village", "region"]


@st.composite
def maps(draw: st.DrawFn) -> Geography:
    n = draw(st.integers(6, 14))
    kinds = [draw(st.sampled_from(KINDS)) for _ in range(n)]
    kinds[:6] = ["castle"] * 6  # enough castles for castle caps to happen
    names = [f"L{i}" for i in range(n)]
    locations = {name: Location(name, kind) for name, kind in zip(names, kinds, strict=True)}  # type: ignore[arg-type]
    pairs = draw(st.sets(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), min_size=n, max_size=3 * n))
    seen: set[frozenset[int]] = set()
    routes = []
    for a, b in pairs:
        if a != b and frozenset((a, b)) not in seen:
            seen.add(frozenset((a, b)))
            routes.append(Route(names[a], names[b], draw(st.sampled_from(["land", "sea"]))))
    return Geography("random", locations, routes)


Intent = tuple[int, int, int, int, int, int]
intents = st.lists(st.tuples(*(st.integers(0, 99) for _ in range(6))), max_size=40)


def campaign_events(geo: Geography, plan: list[Intent], players: int) -> list[dict[str, Any]]:
    """Turn random numbers into a valid log: joins, then battles chosen among the legal
    options, with the choices the rules ask for, some weeks and painting claims."""
    state = initial_state(geo, Settings())
    log: list[dict[str, Any]] = []
    ids = [f"p{i}" for i in range(players)]
    for i, pid in enumerate(ids):
        log.append({"type": "join", "player": pid, "faction": "neutral", "castle": geo.castles()[i], "id": f"j{i}"})
        apply(state, event(log[-1]))
    for n, (pa, pb, where_n, win_n, bwb_n, choice_n) in enumerate(plan):
        a, b = ids[pa % players], ids[pb % players]
        if a == b:
            continue
        if n % 7 == 6:
            log.append({"type": "week", "id": f"w{n}"})
            apply(state, event(log[-1]))
            continue
        brotherhood = [[], [], [], [a], [b], [a, b]][bwb_n % 6]
        found = where(state, a, b, brotherhood)
        attacker = found.attacker
        if found.decided_by == "roll-needed":
            option = found.options[win_n % 2]
            attacker, legal = option.attacker, option.locations or []
        else:
            legal = found.locations or []
        if not legal:
            continue
        battle: dict[str, Any] = {
            "type": "battle",
            "players": [a, b],
            "location": legal[where_n % len(legal)],
            "winner": [a, b][win_n % 2],
            "brotherhood": brotherhood,
            "id": f"b{n}",
        }
        if found.decided_by == "roll-needed":
            battle["attacker"] = attacker
        if win_n % 5 == 4:  # a tied game: on points remaining, then the attacker (or a draw with no attacker)
            del battle["winner"]
            battle["vp"] = {a: 3, b: 3}
            battle["remaining"] = {a: 10 + choice_n % 3, b: 10 + bwb_n % 3}
        battle = _with_choices(state, battle, choice_n)
        apply(state, event(battle))
        log.append(battle)
        if choice_n % 3 == 0:
            claim = {"type": "painting", "player": a, "units": choice_n % 4, "models": win_n % 9, "id": f"pt{n}"}
            try:
                decide(state, event(claim))
            except RuleError:
                continue
            apply(state, event(claim))
            log.append(claim)
    return log


def _with_choices(state: State, battle: dict[str, Any], choice_n: int) -> dict[str, Any]:
    for _ in range(3):
        try:
            decide(state, event(battle))
            return battle
        except ChoiceNeeded as need:
            if need.decline and (choice_n % 2 or not need.options):
                battle = {**battle, "occupy": False}
            else:
                battle = {**battle, need.field: need.options[choice_n % len(need.options)]}
    raise AssertionError(f"no valid choice for {battle}")  # pragma: no cover


def summary(state: State) -> tuple[Any, ...]:
    return (
        state.week,
        tuple(state.limits),
        dict(state.holder),
        dict(state.bonus),
        {p: (r.battles, r.wins, r.losses) for p, r in state.records.items()},
    )


def replay_of(geo: Geography, log: list[dict[str, Any]]) -> Any:
    return replayed(geo, log)


COMMON = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@COMMON
@given(geo=maps(), plan=intents, players=st.integers(2, 3))
def test_campaign_invariants_hold(geo: Geography, plan: list[Intent], players: int) -> None:
    log = campaign_events(geo, plan, players)
    result = replay_of(geo, log)
    assert result.problems == []
    state = result.state
    for pid in state.players:
        assert len(state.castles_of(pid)) <= CASTLE_CAP
        assert len(state.territories(pid)) >= 1
        held = [loc for loc, who in state.holder.items() if who == pid]
        assert state.total_cp(pid) == sum(geo.value(loc) for loc in held) + state.bonus[pid]
    assert all(not geo.locations[loc].is_region for loc in state.holder)
    assert summary(replay_of(geo, log).state) == summary(state)


@COMMON
@given(geo=maps(), plan=intents, players=st.integers(2, 3), pick=st.integers(0, 999))
def test_voiding_an_event_gives_the_state_of_the_log_without_it(
    geo: Geography, plan: list[Intent], players: int, pick: int
) -> None:
    log = campaign_events(geo, plan, players)
    targets = [e for e in log if e["type"] in ("battle", "painting", "week")]
    if not targets:
        return
    target = targets[pick % len(targets)]
    voided = replay_of(geo, [*log, {"type": "void", "target": target["id"], "reason": "test"}])
    without = replay_of(geo, [e for e in log if e is not target])
    assert [p.message for p in voided.problems] == [p.message for p in without.problems]
    if not without.problems:
        assert summary(voided.state) == summary(without.state)
