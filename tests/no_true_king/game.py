"""A player for No True King: from a state, a valid next event, chosen at random (a seed).
Property tests fold the games it plays; the example campaign is one of them, replayed
through `cok ntk` commands (`example.py`)."""

from __future__ import annotations

import copy
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cok.core.errors import ChoiceNeeded, RuleError
from cok.rulesets.no_true_king import RULESET
from cok.rulesets.no_true_king.events import EVENT_TYPES
from cok.rulesets.no_true_king.map import SPACES, Board
from cok.rulesets.no_true_king.mapfile import read_board
from cok.rulesets.no_true_king.rules import actions as act
from cok.rulesets.no_true_king.rules.apply import apply, initial_state
from cok.rulesets.no_true_king.rules.loyalty import POINTS, seal_of
from cok.rulesets.no_true_king.rules.outcomes import Fought, Outcome
from cok.rulesets.no_true_king.rules.state import State
from cok.rulesets.no_true_king.rules.turns import free_spaces

ROOT = Path(__file__).resolve().parents[2]
BOARD_FILE = RULESET.builtin_map()
SYMBOLS = ("crown", "torch", "helm", "gauntlet")
NAMES = ("ana", "bo", "cy", "di")
POSITIONS: tuple[int | str, ...] = (1, 2, 3, 4, "left")
assert len(POINTS) == 4

_BOARD: list[Board] = []


def board() -> Board:
    if not _BOARD:
        _BOARD.append(read_board(BOARD_FILE.read_text(encoding="utf-8"), "maps/westeros-agot.yaml"))
    return _BOARD[0]


def event_of(data: dict[str, Any]) -> Any:
    return EVENT_TYPES[data["type"]].model_validate(data)


@dataclass
class Game:
    """One game being played: the state, the events so far, and every outcome."""

    rng: random.Random
    state: State
    cards: dict[str, list[str]] = field(default_factory=dict)  # the players' true loyalty cards
    secrets: dict[str, str] = field(default_factory=dict)
    sealed: dict[str, list[str]] = field(default_factory=dict)  # the cards as sealed
    events: list[dict[str, Any]] = field(default_factory=list)
    outcomes: list[Outcome] = field(default_factory=list)
    fights: list[Fought] = field(default_factory=list)
    combat_bias: float = 0.6

    def record(self, data: dict[str, Any]) -> Outcome:
        outcome = apply(self.state, event_of(data))
        self.events.append(data)
        self.outcomes.append(outcome)
        self.fights += list(fights_in(outcome))
        return outcome


def fights_in(outcome: Outcome) -> list[Fought]:
    found: list[Fought] = []

    def walk(item: Any) -> None:
        if isinstance(item, Fought):
            found.append(item)
            for after in item.after:
                walk(after)
        elif isinstance(item, tuple):
            for part in item:
                walk(part)

    for done in getattr(outcome.result, "done", ()):
        walk(done)
    return found


def new_game(seed: int, players: int = 3, loyalty: str = "sealed") -> Game:
    rng = random.Random(seed)
    game = Game(rng, initial_state(board(), loyalty))
    houses = list(board().houses)
    for pid, symbol in zip(NAMES[:players], SYMBOLS, strict=False):
        card = houses[:]
        rng.shuffle(card)
        game.cards[pid] = card
        game.sealed[pid] = card[:]
        secret = f"secret-of-{pid}-{seed:08d}"
        game.secrets[pid] = secret
        entry: dict[str, Any] = {"type": "conspiracy", "player": pid, "symbol": symbol}
        if loyalty == "sealed":
            entry["seal"] = seal_of(pid, card, secret)
        else:
            entry["loyalty"] = card
        game.record(entry)
    seats = list(NAMES[:players])
    game.record({"type": "begin", "seats": seats, "first": rng.choice(seats)})
    return game


def play(seed: int, players: int = 3, loyalty: str = "sealed", limit: int = 10_000) -> Game:
    """A whole game, to the end."""
    game = new_game(seed, players, loyalty)
    while game.state.phase != "over" and len(game.events) < limit:
        game.record(next_event(game))
    return game


def next_event(game: Game) -> dict[str, Any]:
    state, rng = game.state, game.rng
    if state.phase == "placement":
        assert state.active is not None
        house, space = rng.choice(free_spaces(state))
        return {"type": "place", "player": state.active, "house": house, "space": space}
    if state.phase == "resolution":
        return resolution(game)
    if state.phase == "exchanges":
        assert state.active is not None
        return exchange(game, state.active)
    if state.phase == "unseal":
        player = next(p for p in state.seats if not state.players[p].unsealed)
        return {"type": "unseal", "player": player, "loyalty": game.sealed[player], "secret": game.secrets[player]}
    raise AssertionError(f"nothing to play in phase {state.phase}")


def exchange(game: Game, player: str) -> dict[str, Any]:
    rng = game.rng
    if rng.random() < 0.4:
        return {"type": "pass", "player": player}
    a, b = rng.sample(range(5), 2)
    card = game.cards[player]
    shown = game.state.players[player].shown[:]
    card[a], card[b] = card[b], card[a]
    shown[a], shown[b] = shown[b], shown[a]
    down = [i for i in (a, b) if not shown[i]]
    allowed = down or [i for i in range(5) if i not in (a, b) and not shown[i]]
    entry: dict[str, Any] = {"type": "exchange", "player": player, "swap": [POSITIONS[a], POSITIONS[b]]}
    if allowed:
        index = rng.choice(allowed)
        entry["reveal"] = {POSITIONS[index]: card[index]}
    return entry


def resolution(game: Game) -> dict[str, Any]:
    state, rng = game.state, game.rng
    player = state.active
    assert player is not None
    house, space = rng.choice(sorted(state.may_resolve(player)))
    base = {"type": "resolve", "player": player, "house": house, "space": space}
    for _ in range(60):
        entry = dict(base, actions=plan(game, house, space))
        done = settle(game, entry)
        if done is not None:
            return done
    raise AssertionError(f"no valid resolution found for {player} {house} {space}")


def plan(game: Game, house: str, space: str) -> list[dict[str, Any]]:
    rng, state = game.rng, game.state
    if space == "maester":
        kinds = [rng.choice(["muster", "move", "draw"])]
    elif space == "marshal":
        kinds = rng.choice([["muster", "move"], ["move", "muster"]])
    else:
        kinds = rng.sample(["muster", "move", "draw"], 2)
    return [{k: (True if k == "draw" else None)} for k in kinds if k != "draw" or act.can_draw(state, house)]


def settle(game: Game, entry: dict[str, Any]) -> dict[str, Any] | None:
    """Fill the actions' details on a copy of the state, then the combat's choices; None
    when this plan cannot be made valid."""
    rng = game.rng
    trial = copy.deepcopy(game.state, {id(game.state.board): game.state.board})
    house = entry["house"]
    filled: list[dict[str, Any]] = []
    for action in entry["actions"]:
        if "muster" in action:
            filled.append({"muster": muster(trial, house, rng)})
            try:
                act.muster(trial, house, filled[-1]["muster"])  # keep the trial state in step
            except RuleError:
                return None
        elif "move" in action:
            move = pick_move(trial, house, rng, game.combat_bias)
            if move is None:
                continue
            filled.append({"move": move})
        else:
            filled.append({"draw": True})
    entry = dict(entry, actions=filled)
    if entry["space"] == "lord" and len(filled) == 1 and filled[0].get("muster") is None:
        return None
    if not filled and entry["space"] != "lord":
        return None
    entry = with_combat(game, entry)
    return entry


def muster(state: State, house: str, rng: random.Random) -> dict[str, Any]:
    board_ = state.board
    points = act.muster_points(state, house)
    f, k, s = state.on_board(house)
    spec: dict[str, Any] = {}
    for area in state.controlled(house):
        info = board_.areas[area]
        if info.sea:
            continue
        for _ in range(info.barrels):
            if points <= 0 or rng.random() < 0.35:
                break
            seas = [
                x
                for x in board_.neighbours(area)
                if board_.areas[x].sea and (state.troops.get(x) is None or state.troops[x][0] == house)
            ]
            if seas and s < board_.pieces["ship"] and rng.random() < 0.35:
                spec.setdefault(area, []).append({"ship": rng.choice(seas)})
                s += 1
            elif f < board_.pieces["footman"]:
                spec.setdefault(area, []).append("footman")
                f += 1
            else:
                break
            points -= 1
    if points > 0 and k < board_.pieces["knight"] and rng.random() < 0.5:
        with_footmen = [a for a, force in state.troops.items() if force[0] == house and force[1]]
        if with_footmen:
            spec["promote"] = [rng.choice(with_footmen)]
    return spec


def pick_move(state: State, house: str, rng: random.Random, bias: float) -> dict[str, Any] | None:
    options = []
    for area, force in state.troops.items():
        if force[0] != house:
            continue
        for to in state.board.neighbours(area):
            for units in _some_groups(force[1:], rng):
                if act.check_move(state, house, area, to, units) is None:
                    options.append((area, to, units))
    if not options:
        return None
    fights = [o for o in options if act.enters_troops(state, house, o[1])]
    pool = fights if fights and rng.random() < bias else options
    area, to, units = rng.choice(pool)
    names = ["footman"] * units[0] + ["knight"] * units[1] + ["ship"] * units[2]
    return {"from": area, "to": to, "units": names}


def _some_groups(have: tuple[int, ...], rng: random.Random) -> list[tuple[int, int, int]]:
    f, k, s = have
    groups = {(f, k, s), (min(f, 1), 0, 0), (0, min(k, 1), 0), (0, 0, min(s, 1)), (min(f, s), 0, s), (f, k, 0)}
    groups.add((rng.randint(0, f), rng.randint(0, k), rng.randint(0, s)))
    return [g for g in groups if any(g)]


def with_combat(game: Game, entry: dict[str, Any]) -> dict[str, Any] | None:
    """Cards for a move into another house's troops, then the winner and retreat asked for."""
    state, rng = game.state, game.rng
    moves = [a["move"] for a in entry["actions"] if "move" in a]
    entry = dict(entry)
    trial = copy.deepcopy(state, {id(state.board): state.board})
    if moves:
        before = [a for a in entry["actions"] if "move" not in a]
        try:
            for action in entry["actions"]:
                if "move" in action:
                    break
                if "muster" in action:
                    act.muster(trial, entry["house"], action["muster"])
        except RuleError:
            return None
        del before
        to = moves[0]["to"]
        defender = act.enters_troops(trial, entry["house"], to)
        if defender is not None:
            entry["combat"] = {"cards": cards(game, trial, entry["house"], defender)}
    for _ in range(8):
        try:
            probe = copy.deepcopy(state, {id(state.board): state.board})
            outcome = apply(probe, event_of(entry))
        except ChoiceNeeded as need:
            entry["combat"] = dict(entry["combat"], **{need.field: rng.choice(need.options)})
            continue
        except RuleError:
            return None
        return effects(game, entry, outcome)
    return None


def cards(game: Game, state: State, attacker: str, defender: str) -> dict[str, str | None]:
    rng = game.rng
    chosen: dict[str, str | None] = {}
    used: set[str] = set(state.played)
    for player in state.seats:
        held = [h for h in (attacker, defender) if state.held.get((player, h), 0) > 0]
        if held and rng.random() < 0.7:
            house = rng.choice(held)
            left = [c.name for c in state.board.house_cards(house) if c.name not in used]
            if left:
                name = rng.choice(left)
                chosen[player] = name
                used.add(name)
                continue
        chosen[player] = None
    return chosen


def effects(game: Game, entry: dict[str, Any], outcome: Outcome) -> dict[str, Any]:
    """Cersei's removal and Melisandre's discard when they apply (the granted actions of Asha
    and Jaime are left to chance: a muster for Jaime)."""
    state, rng = game.state, game.rng
    fought = next(iter(fights_in(outcome)), None)
    if fought is None:
        return entry
    names = dict((c, p) for p, c in fought.sides.cards)
    combat = dict(entry["combat"])
    if "Cersei Lannister" in names and fought.winner == "lannister":
        spaces = [
            s
            for s in SPACES
            if ("lannister", s) in state.agents and (entry["house"], entry["space"]) != ("lannister", s)
        ]
        if spaces:
            combat["remove"] = {"house": "lannister", "space": rng.choice(spaces)}
    if "Melisandre" in names and fought.winner == "baratheon":
        by = names["Melisandre"]
        held = [(p, h) for (p, h), n in state.held.items() if n > 0 and p != by]
        if held:
            p, h = rng.choice(sorted(held))
            combat["discard"] = {"player": p, "house": h}
    if "Ser Jaime Lannister" in names and fought.winner == "lannister":
        combat["after"] = [{"muster": {}}]
    candidate = dict(entry, combat=combat)
    try:
        apply(copy.deepcopy(state, {id(state.board): state.board}), event_of(candidate))
    except RuleError:
        return entry
    return candidate
