"""A table that plays Mighty Kingdoms by chance, legally: random valid logs for the property
and contract tests, and the generated campaigns of the benchmarks. Every event it makes is
applied by the real rules, so a log it returns replays clean."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from cok.core.events import EventBase
from cok.core.names import normalize
from cok.rulesets.mighty_kingdoms import RULESET
from cok.rulesets.mighty_kingdoms.events import EVENT_TYPES
from cok.rulesets.mighty_kingdoms.map import distance
from cok.rulesets.mighty_kingdoms.mapfile import read_map
from cok.rulesets.mighty_kingdoms.rules import phase as phases
from cok.rulesets.mighty_kingdoms.rules import spelling
from cok.rulesets.mighty_kingdoms.rules.apply import apply
from cok.rulesets.mighty_kingdoms.rules.battle import _roll, _simple_result, retreats_from
from cok.rulesets.mighty_kingdoms.rules.state import Settings, State

#: Players' ids and names, in founding order (ids sort as they are founded).
PLAYERS = (("ana", "Ana"), ("bo", "Bo"), ("cy", "Cyrus"), ("dag", "Dagny"), ("eir", "Eira"), ("fen", "Fenn"))
SHIPPED = RULESET.builtin_map()


def indexes_agree(state: State) -> None:
    """The state's indexes say what a scan of every army says (they are kept by the rules,
    and rebuilt when a state is built): who has which armies, who stands where, where
    battles may be fought, and by whom."""
    armies = list(state.armies.values())
    players = {a.player for a in armies} | set(state.kingdoms)
    for player in players:
        mine = sorted((a for a in armies if a.player == player), key=lambda a: a.number)
        assert [a.id for a in state.armies_of(player)] == [a.id for a in mine]
        assert all(x is y for x, y in zip(state.armies_of(player), mine, strict=True))
    assert state.unordered() == sum(1 for a in armies if a.order is None)
    assert state.unresolved() == sum(1 for a in armies if not a.resolved)
    for player in players:
        assert state.has_unresolved(player) == any(not a.resolved for a in armies if a.player == player)
    deployed = [a for a in armies if a.deployed]
    tiles = {a.tile for a in deployed}
    assert set(state.occupied()) == tiles
    for tile in tiles | set(state.map.tiles):
        here = sorted((a for a in deployed if a.tile == tile), key=lambda a: (a.player, a.number))
        assert [a.id for a in state.armies_in(tile)] == [a.id for a in here]
        assert state.kingdoms_in(tile) == {a.player for a in here}
    contested = sorted(
        (t for t in tiles if len(state.kingdoms_in(t)) > 1 and any(a.upright for a in state.armies_in(t))),
        key=lambda t: tuple(int(n) for n in t.split(",")),
    )
    assert state.contested() == contested
    for player in players:
        may = [
            t
            for t in contested
            if any(a.player == player and a.upright for a in state.armies_in(t))
            and any(a.player != player for a in state.armies_in(t))
        ]
        assert state.may_attack(player) == may
        assert all(state.may_attack_in(player, t) == (t in may) for t in tiles)
        assert (player in state.attackers()) == bool(may)
    for player in state.kingdoms:
        for kind in ("village", "city", "fortress", "capital"):
            scan = sum(1 for t in state.tiles_of(player) if state.settlement_for(t, player) == kind)
            assert state.count(player, kind) == scan
    for pid, kingdom in state.kingdoms.items():
        for typed in (pid, kingdom.name, kingdom.name.upper()):
            first = next(p for p, k in state.kingdoms.items() if normalize(typed) in (normalize(p), normalize(k.name)))
            assert spelling.player(state, typed) == first


def new_state(settings: Settings, map_path: Path = SHIPPED) -> State:
    return State(read_map(map_path.read_text(encoding="utf-8"), str(map_path)), settings)


class Table:
    """Plays one campaign: `step()` records one more legal event."""

    def __init__(self, state: State, seed: int, kingdoms: int = 3) -> None:
        self.state = state
        self.rng = random.Random(seed)
        self.kingdoms = kingdoms
        self.log: list[dict[str, Any]] = []

    def record(self, data: dict[str, Any]) -> None:
        data = {k: v for k, v in data.items() if v is not None}
        event: EventBase = EVENT_TYPES[data["type"]].model_validate(data)
        apply(self.state, event)
        self.log.append({**data, "id": f"e{len(self.log) + 1:06d}"})

    def play(self, events: int) -> list[dict[str, Any]]:
        while len(self.log) < events:
            self.step()
        return self.log

    def step(self) -> None:
        s, rng = self.state, self.rng
        now = phases.phase(s)
        if now == "setup":
            if len(s.kingdoms) < self.kingdoms:
                self.found()
            else:
                self.record({"type": "begin"})
        elif now == "orders":
            army = next(a for p in s.order for a in s.armies_of(p) if a.order is None)
            self.record(self.order_for(army))
        elif now == "resolution":
            player = phases.resolver(s)
            army = rng.choice([a for a in s.armies_of(player or "") if not a.resolved])
            self.record(self.resolution(army))
        elif now == "battles":
            self.record(self.battle())
        elif now == "reform":
            self.record({"type": "reform", "order": self.roll_off(phases.counts(s))})
        elif now == "winter" and not s.winter_begun:
            recall = {}
            for p in phases.recall_needed(s):
                kind = "city" if s.count(p, "city") else "village"
                recall[p] = rng.choice([t for t in s.tiles_of(p) if s.settlement_for(t, p) == kind])
            self.record({"type": "winter", "recall": recall})
        elif now == "winter":
            self.record(self.spend())
        else:
            waiting = [a for p in s.order for a in s.armies_of(p) if not a.deployed and phases.could_deploy(s, a)]
            if waiting:
                army = waiting[0]
                rooms = [t for t in s.tiles_of(army.player) if phases.room_left(s, t, army.player)]
                self.record({"type": "deploy", "army": army.id, "tile": rng.choice(rooms)})
            else:
                self.record({"type": "spring", "order": self.roll_off(s.deploy_counts)})

    def found(self) -> None:
        s, rng = self.state, self.rng
        hexmap = s.map
        free = [
            t
            for t, tile in hexmap.tiles.items()
            if tile.start and t not in s.control and len([n for n in hexmap.neighbours(t) if n not in s.control]) >= 4
        ]
        capital = rng.choice(sorted(free))
        around = [n for n in hexmap.neighbours(capital) if n not in s.control]
        city, fortress, v1, v2 = rng.sample(around, 4)
        n = len(s.kingdoms)
        player, name = PLAYERS[n] if n < len(PLAYERS) else (f"k{n + 1}", f"K{n + 1}")
        data: dict[str, Any] = {
            "type": "kingdom",
            "player": player,
            "name": name,
            "race": rng.choice(["elves", "orcs", "dwarfs", "undead"]),
            "capital": capital,
            "city": city,
            "fortress": fortress,
            "villages": [v1, v2],
            "army": rng.choice([capital, city, fortress, v1, v2]),
        }
        if s.settings.kings_of_war:
            data["list"] = f"{player} list"
            data["units"] = {"Spearmen": 2, "Archers": 1, "Hero": 0}
        self.record(data)

    def order_for(self, army: Any) -> dict[str, Any]:
        s, rng = self.state, self.rng
        if not army.upright:
            return {"type": "order", "army": army.id, "order": "regroup"}
        moves = [t for t in s.map.neighbours(army.tile) if s.map.may_enter(army.tile, t) and t not in s.towers]
        roll = rng.random()
        enemies = [a.tile for a in s.armies.values() if a.player != army.player]
        if moves and enemies and roll < 0.4:  # march on the nearest enemy: battles happen
            target = min(moves, key=lambda t: (min(distance(t, e) for e in enemies), t))
            return {"type": "order", "army": army.id, "order": "move", "to": target}
        if moves and roll < 0.75:
            return {"type": "order", "army": army.id, "order": "move", "to": rng.choice(moves)}
        if army.tile in s.settlement and roll < 0.8 and s.control.get(army.tile) != army.player:
            return {"type": "order", "army": army.id, "order": "raze"}
        return {"type": "order", "army": army.id, "order": "defend"}

    def resolution(self, army: Any) -> dict[str, Any]:
        s, rng = self.state, self.rng
        data: dict[str, Any] = {"type": "resolve", "army": army.id}
        if army.order == "move" and army.to not in s.explored and army.to not in s.towers:
            data["roll"] = [rng.randint(1, 6), rng.randint(1, 6)]
            if s.settings.towers and data["roll"][0] == data["roll"][1]:
                data["reroll"] = [rng.randint(1, 6), rng.randint(1, 6)]
        return data

    def battle(self) -> dict[str, Any]:
        s, rng = self.state, self.rng
        attacker = phases.attacker(s) or ""
        tile = rng.choice(s.may_attack(attacker))
        armies = s.armies_in(tile)
        enemies = sorted({a.player for a in armies if a.player != attacker})
        upright = [p for p in enemies if any(a.upright for a in armies if a.player == p)]
        defender = rng.choice(upright or enemies)
        data: dict[str, Any] = {"type": "battle", "tile": tile, "attacker": attacker, "defender": defender}
        theirs = [a for a in armies if a.player == defender]
        if not any(a.upright for a in theirs):
            data["slaughter"] = rng.choice(theirs).id
            return data
        involved = [a for a in armies if a.player in (attacker, defender)]
        if s.settings.kings_of_war:
            winner = rng.choice([attacker, defender, None])
            data["result"] = winner or "draw"
            army = rng.choice(involved)
            if army.units and army.upright:  # armies on their side neither rout nor are routed
                change = rng.choice([-1, 1])
                data["strength"] = {army.id: {rng.choice(sorted(army.units)): change}}
                foes = [a for a in involved if a.player != army.player and a.upright and a.units]
                if change == 1 and foes:  # a +1 needs an enemy unit it routed
                    foe = rng.choice(foes)
                    data["strength"][foe.id] = {rng.choice(sorted(foe.units or {})): -1}
                elif change == 1:
                    del data["strength"]
            survivors = involved
        else:
            data["dice"] = {a.id: rng.randint(1, 6) for a in involved if a.upright}
            data["allocate"] = self.allocation(data["dice"], involved, attacker, defender)
            dice = _roll(s, EVENT_TYPES["battle"].model_validate(data), involved, attacker, defender)  # type: ignore[arg-type]
            winner, _ = _simple_result(dice, involved, attacker, defender)
            survivors = [a for a in involved if dice.points[a.id] > 0]
        retreat = {}
        for army in survivors:
            leaves = army.player != winner if winner else s.control.get(tile) != army.player
            options = retreats_from(s, army, tile)
            if leaves and options:
                crowded = [t for t in options if s.kingdoms_in(t) - {army.player}]
                retreat[army.id] = rng.choice(crowded or options)
        if retreat:
            data["retreat"] = retreat
        if winner and rng.random() < 0.3:
            mine = [a for a in survivors if a.player == winner]
            options = retreats_from(s, mine[0], tile) if mine else []
            if options:
                data["advance"] = {mine[0].id: rng.choice(options)}
        return data

    def allocation(self, dice: dict[str, int], involved: list[Any], attacker: str, defender: str) -> list[list[str]]:
        """A legal order of allocations: turns alternate, attacker first (5.4)."""
        from cok.rulesets.mighty_kingdoms.rules.battle import defence

        rng = self.rng
        side = {a.id: a.player for a in involved}
        points = {a.id: a.points for a in involved}
        upright = [a for a in involved if a.upright]
        unused = set(dice)
        turn, plan = attacker, []

        def targets(player: str) -> list[str]:
            return [a.id for a in upright if side[a.id] != player and points[a.id] > 0]

        def usable(player: str) -> bool:
            return any(side[d] == player for d in unused) and bool(targets(player))

        while usable(attacker) or usable(defender):
            if not usable(turn):
                turn = defender if turn == attacker else attacker
                continue
            die = rng.choice(sorted(d for d in unused if side[d] == turn))
            target = rng.choice(sorted(targets(turn)))
            army = next(a for a in upright if a.id == target)
            if dice[die] >= defence(army):
                points[target] -= 100
            unused.discard(die)
            plan.append([die, target])
            turn = defender if turn == attacker else attacker
        return plan

    def roll_off(self, counts: dict[str, int]) -> list[str] | None:
        if not phases.ties(self.state, counts):
            return None
        order = list(self.state.order)
        self.rng.shuffle(order)
        return sorted(order, key=lambda p: -counts.get(p, 0))

    def spend(self) -> dict[str, Any]:
        s, rng = self.state, self.rng
        player = rng.choice([p for p in s.order if p not in s.fed])
        kingdom = s.kingdoms[player]
        choice = rng.random()
        data: dict[str, Any]
        if not s.tithing_over and choice < 0.15 and (kingdom.gold or kingdom.food):
            others = [p for p in s.order if p != player and (player, p) not in s.tithes]
            if others:
                gold = min(kingdom.gold, 1)
                food = min(kingdom.food, 1) if not gold else 0
                return {"type": "tithe", "from": player, "to": rng.choice(others), "gold": gold, "food": food}
        quests = [
            (tower, army)
            for tower in sorted(s.towers)
            if (tower, player) not in s.quests and any(s.control.get(t) == player for t in s.map.neighbours(tower))
            for army in s.armies_of(player)[:1]
            if (army.id, "Hero") not in s.heroes
        ]
        if quests and choice < 0.3:
            tower, army = quests[0]
            data = {"type": "quest", "player": player, "tower": tower, "army": army.id, "hero": "Hero"}
            data["roll"], data["points"] = rng.randint(1, 6), rng.randint(0, 1) * 150
            if army.units is not None and "Hero" not in army.units:
                data["hero"] = sorted(army.units)[0]
            return data
        if choice < 0.45 and kingdom.gold:
            forts = [t for t in s.tiles_of(player) if s.settlement.get(t) == "fortress" and t not in s.recruited]
            if forts:
                data = {"type": "recruit", "player": player, "tile": rng.choice(forts)}
                armies = s.armies_of(player)
                if len(armies) >= s.settings.army_limit:
                    data["disband"] = rng.choice(armies).id
                if s.settings.kings_of_war:
                    data["list"] = f"{player} recruit {kingdom.armies_made + 1}"
                    data["units"] = {"Spearmen": 2, "Archers": 1, "Hero": 0}
                return data
        if choice < 0.7:
            builds = self.builds(player)
            if builds:
                tile, settlement = rng.choice(builds)
                return {"type": "build", "player": player, "tile": tile, "settlement": settlement}
        armies = s.armies_of(player)
        hungry = max(0, len(armies) - kingdom.food)
        unfed = sorted(rng.sample([a.id for a in armies], hungry))
        return {"type": "feed", "player": player, "unfed": unfed}

    def builds(self, player: str) -> list[tuple[str, str]]:
        from cok.rulesets.mighty_kingdoms.rules.winter import BUILDS

        s = self.state
        kingdom = s.kingdoms[player]
        found = []
        for tile in s.tiles_of(player):
            was = s.settlement_for(tile, player)
            for (frm, to), (gold, food) in BUILDS.items():
                if frm != was or gold > kingdom.gold or food > kingdom.food:
                    continue
                if to == "capital" and s.has_capital(player):
                    continue
                found.append((tile, to))
        return found


def random_log(seed: int, events: int, settings: Settings | None = None, kingdoms: int = 3) -> list[dict[str, Any]]:
    table = Table(new_state(settings or Settings()), seed, kingdoms)
    return table.play(events)
