"""Winter (contract 5.6): recall and gather, tithes, builds and recruits, feeding, deploying,
and spring."""

from __future__ import annotations

from cok.core.errors import RuleError
from cok.rulesets.mighty_kingdoms.events import Build, Deploy, Feed, Recruit, Spring, Tithe, Winter
from cok.rulesets.mighty_kingdoms.rules import phase as phases
from cok.rulesets.mighty_kingdoms.rules.outcomes import Built, Deployed, Fed, Recruited, Sprung, Tithed, WinterBegun
from cok.rulesets.mighty_kingdoms.rules.setup import find_player, list_fields
from cok.rulesets.mighty_kingdoms.rules.state import Army, Gathered, State
from cok.rulesets.mighty_kingdoms.rules.summer import describe, find_army, in_phase

#: What a settlement costs (gold, food), by what it replaces (5.6 step 4).
BUILDS = {
    (None, "village"): (1, 0),
    ("village", "city"): (1, 1),
    ("village", "fortress"): (2, 0),
    ("city", "capital"): (1, 1),
}


def begin_winter(state: State, event: Winter) -> WinterBegun:
    if not state.winter or state.winter_begun:
        raise RuleError(f"the winter event comes after the 6th reform; the campaign is in {describe(state)}")
    needed = phases.recall_needed(state)
    recall: dict[str, str] = {}
    for typed, tile_typed in event.recall.items():
        player = find_player(state, typed)
        if player not in needed:
            why = "has its capital" if state.has_capital(player) else "has no army, city or village to recall to"
            raise RuleError(f"{player} {why}: drop it from `recall`")
        tile = state.map.find(tile_typed)
        kind = "city" if state.count(player, "city") else "village"
        if state.control.get(tile) != player or state.settlement_for(tile, player) != kind:
            choices = [t for t in state.tiles_of(player) if state.settlement_for(t, player) == kind]
            raise RuleError(
                f"{player} has no capital: its armies go to one of its {kind}s: "
                f"{', '.join(state.map.label(t) for t in choices)}"
            )
        recall[player] = tile
    missing = [p for p in needed if p not in recall]
    if missing:
        raise RuleError(f"{', '.join(missing)} have no capital: name a city (else a village) for each in `recall`")
    # commit: recall (step 1), then gather (step 2)
    lost = []
    for army in list(state.armies.values()):
        home = state.kingdoms[army.player].capital if state.has_capital(army.player) else recall.get(army.player)
        if home is None:
            lost.append(army.id)
            state.remove_army(army.id)
            continue
        state.move_army(army, home, deployed=False)
    gathered = []
    for player in state.order:
        held = state.holdings(player)
        gold = held.get("city", 0) + held.get("capital", 0) + (1 if state.has_capital(player) else 0)
        food = held.get("village", 0)
        kingdom = state.kingdoms[player]
        kingdom.gold, kingdom.food = gold, food
        state.gathered.setdefault(player, []).append(Gathered(state.year, gold, food))
        gathered.append((player, gold, food))
    state.winter_begun = True
    state.tithing_over = False
    state.tithes, state.recruited, state.fed, state.quests, state.heroes = set(), set(), set(), set(), set()
    state.deploy_counts = {}
    return WinterBegun(state.year, tuple(recall.items()), tuple(lost), tuple(gathered))


def spending(state: State, player: str, what: str) -> None:
    """Tithes, builds, recruits and quests: in winter, before the kingdom's feed."""
    if not state.winter or not state.winter_begun or phases.phase(state) != "winter":
        raise RuleError(
            f"{what} belongs to winter, after the winter event and before the feed; "
            f"the campaign is in {describe(state)}"
        )
    if player in state.fed:
        raise RuleError(f"{player} has fed its armies this winter: {what} comes before the feed")


def tithe(state: State, event: Tithe) -> Tithed:
    giver, receiver = find_player(state, event.from_), find_player(state, event.to)
    spending(state, giver, "a tithe")
    if state.tithing_over:
        raise RuleError("tithing is over this winter: the first build, recruit, quest or feed ended it")
    if giver == receiver:
        raise RuleError("a tithe goes to another kingdom")
    if not (event.gold or event.food):
        raise RuleError("a tithe gives 1 gold, 1 food or both")
    if (giver, receiver) in state.tithes:
        raise RuleError(f"{giver} has already tithed to {receiver} this winter")
    kingdom = state.kingdoms[giver]
    if event.gold > kingdom.gold or event.food > kingdom.food:
        raise RuleError(f"{giver} has {kingdom.gold} gold and {kingdom.food} food, not enough for this tithe")
    other = state.kingdoms[receiver]
    kingdom.gold -= event.gold
    kingdom.food -= event.food
    other.gold += event.gold
    other.food += event.food
    state.tithes.add((giver, receiver))
    return Tithed(giver, receiver, event.gold, event.food)


def build(state: State, event: Build) -> Built:
    player = find_player(state, event.player)
    spending(state, player, "building")
    tile = state.map.find(event.tile)
    label = state.map.label(tile)
    if state.control.get(tile) != player:
        raise RuleError(f"{player} builds only on its own tiles; {label} is {_held(state, tile)}")
    was = state.settlement_for(tile, player)
    cost = BUILDS.get((was, event.settlement))
    if cost is None:
        allowed = [to for (frm, to) in BUILDS if frm == was]
        raise RuleError(
            f"{label} holds {was or 'no settlement'}: it may become {', '.join(allowed) or 'nothing more'}"
            f" (not {event.settlement})"
        )
    if event.settlement == "capital" and state.has_capital(player):
        raise RuleError(f"{player} still has its capital: a kingdom has one capital at a time")
    kingdom = state.kingdoms[player]
    gold, food = cost
    if kingdom.gold < gold or kingdom.food < food:
        raise RuleError(
            f"a {event.settlement} costs {_price(gold, food)}; {player} has {kingdom.gold} gold and {kingdom.food} food"
        )
    kingdom.gold -= gold
    kingdom.food -= food
    if event.settlement == "capital":
        old = kingdom.capital
        if old is not None and state.settlement.get(old) == "capital":
            state.settlement[old] = "city"  # held by an enemy: a plain city for good (5.8)
        for other in state.kingdoms.values():
            if other.capital == tile:  # another kingdom's capital, held by this one
                other.capital = None
        kingdom.capital = tile
    state.settlement[tile] = event.settlement
    state.tithing_over = True
    return Built(player, tile, event.settlement, was, gold, food)


def _price(gold: int, food: int) -> str:
    return " ".join(part for part in (f"{gold} gold" if gold else "", f"{food} food" if food else "") if part)


def _held(state: State, tile: str) -> str:
    holder = state.control.get(tile)
    return f"held by {holder}" if holder else "held by nobody"


def recruit(state: State, event: Recruit) -> Recruited:
    player = find_player(state, event.player)
    spending(state, player, "recruiting")
    tile = state.map.find(event.tile)
    label = state.map.label(tile)
    if state.control.get(tile) != player or state.settlement.get(tile) != "fortress":
        forts = [state.map.label(t) for t in state.tiles_of(player) if state.settlement.get(t) == "fortress"]
        raise RuleError(
            f"armies are recruited at a fortress of the kingdom's: {', '.join(forts) or 'none'}; not {label}"
        )
    if tile in state.recruited:
        raise RuleError(f"the fortress {label} has already recruited this winter")
    kingdom = state.kingdoms[player]
    if kingdom.gold < 1:
        raise RuleError(f"an army costs 1 gold; {player} has none")
    list_fields(state, event.list, event.units, "recruit")
    armies = state.armies_of(player)
    limit = state.settings.army_limit
    disband = None
    if event.disband is not None:
        disband = find_army(state, event.disband)
        if disband.player != player:
            raise RuleError(f"{disband.id} is {disband.player}'s army, not {player}'s")
        if len(armies) < limit:
            raise RuleError(f"{player} has {len(armies)} of {limit} armies: it disbands only at the limit")
    elif len(armies) >= limit:
        raise RuleError(
            f"{player} has {limit} armies, the limit: `disband` one of them ({', '.join(a.id for a in armies)})"
        )
    if event.allied:
        if not state.settings.kings_of_war:
            raise RuleError("allied armies are for kings-of-war campaigns")
        rest = [a for a in armies if disband is None or a.id != disband.id]
        if any(a.allied for a in rest):
            raise RuleError(f"{player} already has its allied army (one a kingdom)")
        if len(rest) < 3:
            raise RuleError(
                f"an allied army needs 3 or more other armies that are not allied; {player} has {len(rest)}"
            )
    # commit
    kingdom.gold -= 1
    if disband is not None:
        state.remove_army(disband.id)
    kingdom.armies_made += 1
    army_id = f"{player}-{kingdom.armies_made}"
    state.add_army(
        Army(
            army_id,
            player,
            tile,
            allied=event.allied,
            list=event.list,
            units=dict(event.units) if event.units else None,
            deployed=False,
        )
    )
    state.recruited.add(tile)
    state.tithing_over = True
    return Recruited(player, army_id, tile, disband.id if disband else None, event.allied)


def feed(state: State, event: Feed) -> Fed:
    player = find_player(state, event.player)
    spending(state, player, "feeding")
    armies = {a.id for a in state.armies_of(player)}
    unfed = []
    for typed in event.unfed:
        army = find_army(state, typed)
        if army.id not in armies:
            raise RuleError(f"{army.id} is not {player}'s army")
        if army.id in unfed:
            raise RuleError(f"{army.id} is named twice in `unfed`")
        unfed.append(army.id)
    kingdom = state.kingdoms[player]
    fed = len(armies) - len(unfed)
    if fed > kingdom.food:
        raise RuleError(
            f"{player} has {kingdom.food} food for {len(armies)} armies: "
            f"{fed - kingdom.food} more must go unfed (name them in `unfed`)"
        )
    for army_id in unfed:
        state.remove_army(army_id)
    lost_gold, lost_food = kingdom.gold, kingdom.food - fed
    kingdom.gold = kingdom.food = 0
    state.fed.add(player)
    state.tithing_over = True
    deploy_order: tuple[str, ...] = ()
    if state.fed >= set(state.kingdoms):
        deploy_begins(state)
        deploy_order = tuple(state.order)
    return Fed(player, fed, tuple(unfed), lost_gold, lost_food, deploy_order)


def deploy_begins(state: State) -> None:
    """Every kingdom has fed: deploying begins. "Redetermine player order as normal based on
    the current number of armies each player has. In player order, each player places an
    army" (5.6 step 7): most armies first, players tied kept in the summer's order until
    spring's `order` names the roll-off. The artefacts are allocated anew, so every cause
    for a hand-over seen so far is cleared (5.7)."""
    state.deploy_counts = phases.counts(state)
    state.order = sorted(state.order, key=lambda p: -state.deploy_counts[p])
    state.causes = {}


def deploy(state: State, event: Deploy) -> Deployed:
    in_phase(state, "deploy", "deploying")
    army = find_army(state, event.army)
    if army.deployed:
        raise RuleError(f"{army.id} is already deployed this winter, on {state.map.label(army.tile)}")
    tile = state.map.find(event.tile)
    if state.control.get(tile) != army.player or state.settlement.get(tile) is None:
        raise RuleError(f"{army.id} deploys on a settlement of {army.player}'s; {state.map.label(tile)} is not one")
    if phases.room_left(state, tile, army.player) <= 0:
        kind = state.settlement_for(tile, army.player)
        free = [state.map.label(t) for t in state.tiles_of(army.player) if phases.room_left(state, t, army.player)]
        raise RuleError(
            f"the {kind} on {state.map.label(tile)} is full; settlements with room: {', '.join(free) or 'none'}"
        )
    state.move_army(army, tile, deployed=True)
    army.upright = True
    return Deployed(army.id, tile)


def spring(state: State, event: Spring) -> Sprung:
    in_phase(state, "deploy", "the spring event")
    waiting = [a.id for a in state.armies.values() if not a.deployed and phases.could_deploy(state, a)]
    if waiting:
        raise RuleError(f"armies can still deploy: {', '.join(sorted(waiting))}")
    order = phases.new_order(state, event.order, state.deploy_counts)
    lost = sorted(a.id for a in state.armies.values() if not a.deployed)
    for army_id in lost:
        state.remove_army(army_id)
    state.order = order
    state.year += 1
    state.month = 1
    state.winter = state.winter_begun = False
    return Sprung(state.year, tuple(lost), tuple(order))
