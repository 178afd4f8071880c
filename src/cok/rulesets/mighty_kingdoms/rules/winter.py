"""Winter (contract 5.6): recall and gather, tithes, builds and recruits, feeding, deploying,
and spring."""

from __future__ import annotations

from cok.core.errors import RuleError
from cok.rulesets.mighty_kingdoms.events import Build, Deploy, Feed, Recruit, Spring, Tithe, Winter
from cok.rulesets.mighty_kingdoms.rules import phase as phases
from cok.rulesets.mighty_kingdoms.rules.outcomes import Built, Deployed, Fed, Recruited, Sprung, Tithed, WinterBegun
from cok.rulesets.mighty_kingdoms.rules.setup import list_fields
from cok.rulesets.mighty_kingdoms.rules.state import Army, Gathered, State
from cok.rulesets.mighty_kingdoms.rules.summer import describe, find_army, in_phase

#: What a settlement costs (gold, food), by what it replaces (5.6 step 4).
BUILDS = {
    (None, "village"): (1, 0),
    ("village", "city"): (1, 1),
    ("village", "fortress"): (2, 0),
    ("city", "capital"): (1, 1),
}


def decide_winter(state: State, event: Winter) -> WinterBegun:
    """5.6 steps 1-2: armies recalled to the capital (else to the city or village named in
    `recall`), then every kingdom gathers gold and food. Changes nothing."""
    if not state.winter or state.winter_begun:
        raise RuleError(f"the winter event comes after the 6th reform; the campaign is in {describe(state)}")
    needed = phases.recall_needed(state)
    recall: dict[str, str] = {}
    for player, tile in event.recall.items():
        if player not in needed:
            why = "has its capital" if state.has_capital(player) else "has no army, city or village to recall to"
            raise RuleError(f"{player} {why}: drop it from `recall`")
        kind, choices = recall_choices(state, player)
        if tile not in choices:
            raise RuleError(
                f"{player} has no capital: its armies go to one of its {kind}s: "
                f"{', '.join(state.map.label(t) for t in choices)}"
            )
        recall[player] = tile
    missing = [p for p in needed if p not in recall]
    if missing:
        raise RuleError(f"{', '.join(missing)} have no capital: name a city (else a village) for each in `recall`")
    lost = [a.id for a in state.armies.values() if _home(state, a.player, recall) is None]
    gathered = []
    for player in state.order:
        held = state.holdings(player)
        gold = held.get("city", 0) + held.get("capital", 0) + (1 if state.has_capital(player) else 0)
        gathered.append((player, gold, held.get("village", 0)))
    return WinterBegun(state.year, tuple(recall.items()), tuple(lost), tuple(gathered))


def recall_choices(state: State, player: str) -> tuple[str, list[str]]:
    """Where a kingdom without its capital may recall its armies (5.8 Recall): one of its
    cities, else of its villages; the kind, and its tiles of that kind."""
    kind = "city" if state.count(player, "city") else "village"
    return kind, [t for t in state.tiles_of(player) if state.settlement_for(t, player) == kind]


def _home(state: State, player: str, recall: dict[str, str]) -> str | None:
    """Where the kingdom's armies winter: its capital, else the tile named in `recall`."""
    return state.kingdoms[player].capital if state.has_capital(player) else recall.get(player)


def commit_winter(outcome: WinterBegun, state: State) -> None:
    recall = dict(outcome.recalled)
    for army_id in outcome.lost:
        state.remove_army(army_id)
    for army in list(state.armies.values()):
        state.move_army(army, _home(state, army.player, recall) or army.tile, deployed=False)
    for player, gold, food in outcome.gathered:
        kingdom = state.kingdoms[player]
        kingdom.gold, kingdom.food = gold, food
        state.own_gathered().setdefault(player, []).append(Gathered(outcome.year, gold, food))
    state.winter_begun = True
    state.tithing_over = False
    state.tithes, state.recruited, state.fed, state.quests, state.heroes = set(), set(), set(), set(), set()
    state.deploy_counts = {}


def spending(state: State, player: str, what: str) -> None:
    """Tithes, builds, recruits and quests: in winter, before the kingdom's feed."""
    if not state.winter or not state.winter_begun or phases.phase(state) != "winter":
        raise RuleError(
            f"{what} belongs to winter, after the winter event and before the feed; "
            f"the campaign is in {describe(state)}"
        )
    if player in state.fed:
        raise RuleError(f"{player} has fed its armies this winter: {what} comes before the feed")


def decide_tithe(state: State, event: Tithe) -> Tithed:
    """5.6 step 3: 1 gold, 1 food or both to another kingdom, once each, before any spending."""
    giver, receiver = event.from_, event.to
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
    return Tithed(giver, receiver, event.gold, event.food)


def commit_tithed(outcome: Tithed, state: State) -> None:
    giver, receiver = state.kingdoms[outcome.giver], state.kingdoms[outcome.receiver]
    giver.gold -= outcome.gold
    giver.food -= outcome.food
    receiver.gold += outcome.gold
    receiver.food += outcome.food
    state.tithes.add((outcome.giver, outcome.receiver))


def decide_build(state: State, event: Build) -> Built:
    """5.6 step 4: a settlement built or upgraded on the kingdom's own tile, for its price."""
    player = event.player
    spending(state, player, "building")
    tile = event.tile
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
    return Built(player, tile, event.settlement, was, gold, food)


def commit_built(outcome: Built, state: State) -> None:
    kingdom, tile = state.kingdoms[outcome.player], outcome.tile
    kingdom.gold -= outcome.gold
    kingdom.food -= outcome.food
    if outcome.settlement == "capital":
        old = kingdom.capital
        if old is not None and state.settlement.get(old) == "capital":
            state.settlement[old] = "city"  # held by an enemy: a plain city for good (5.8)
        for other in state.kingdoms.values():
            if other.capital == tile:  # another kingdom's capital, held by this one
                other.capital = None
        kingdom.capital = tile
    state.settlement[tile] = outcome.settlement
    state.tithing_over = True


def _price(gold: int, food: int) -> str:
    return " ".join(part for part in (f"{gold} gold" if gold else "", f"{food} food" if food else "") if part)


def _held(state: State, tile: str) -> str:
    holder = state.control.get(tile)
    return f"held by {holder}" if holder else "held by nobody"


def decide_recruit(state: State, event: Recruit) -> Recruited:
    """5.6 step 5: a new army at a fortress that has not recruited this winter, for 1 gold;
    at the army limit one is disbanded for it."""
    player = event.player
    spending(state, player, "recruiting")
    tile = event.tile
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
    return Recruited(
        player,
        f"{player}-{kingdom.armies_made + 1}",
        tile,
        disband.id if disband else None,
        event.allied,
        list=event.list,
        units=tuple(event.units.items()) if event.units else None,
    )


def commit_recruited(outcome: Recruited, state: State) -> None:
    kingdom = state.kingdoms[outcome.player]
    kingdom.gold -= 1
    if outcome.disbanded is not None:
        state.remove_army(outcome.disbanded)
    kingdom.armies_made += 1
    units = dict(outcome.units) if outcome.units else None
    state.add_army(
        Army(
            outcome.army,
            outcome.player,
            outcome.tile,
            allied=outcome.allied,
            list=outcome.list,
            units=units,
            deployed=False,
        )
    )
    state.recruited.add(outcome.tile)
    state.tithing_over = True


def decide_feed(state: State, event: Feed) -> Fed:
    """5.6 step 6: 1 food an army, the unfed removed, what is left lost; the last kingdom fed
    begins deploying. Changes nothing."""
    player = event.player
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
    deploy_order: tuple[str, ...] = ()
    if state.fed | {player} >= set(state.kingdoms):
        deploy_order = tuple(deploying_order(state, player, len(unfed)))
    return Fed(player, fed, tuple(unfed), kingdom.gold, kingdom.food - fed, deploy_order)


def deploying_order(state: State, player: str, unfed: int) -> list[str]:
    """Every kingdom has fed: deploying begins. "Redetermine player order as normal based on
    the current number of armies each player has. In player order, each player places an
    army" (5.6 step 7): most armies first (after `player`'s `unfed` are gone), players tied
    kept in the summer's order until spring's `order` names the roll-off."""
    counts = phases.counts(state)
    counts[player] -= unfed
    return sorted(state.order, key=lambda p: -counts[p])


def commit_fed(outcome: Fed, state: State) -> None:
    for army_id in outcome.unfed:
        state.remove_army(army_id)
    kingdom = state.kingdoms[outcome.player]
    kingdom.gold = kingdom.food = 0
    state.fed.add(outcome.player)
    state.tithing_over = True
    if outcome.deploy_order:  # the artefacts are allocated anew: every cause seen is cleared (5.7)
        state.deploy_counts = phases.counts(state)
        state.order = list(outcome.deploy_order)
        state.causes = {}


def decide_deploy(state: State, event: Deploy) -> Deployed:
    """5.6 step 7: an army placed on a settlement of its kingdom's with room left."""
    in_phase(state, "deploy", "deploying")
    army = find_army(state, event.army)
    if army.deployed:
        raise RuleError(f"{army.id} is already deployed this winter, on {state.map.label(army.tile)}")
    tile = event.tile
    if state.control.get(tile) != army.player or state.settlement.get(tile) is None:
        raise RuleError(f"{army.id} deploys on a settlement of {army.player}'s; {state.map.label(tile)} is not one")
    if phases.room_left(state, tile, army.player) <= 0:
        kind = state.settlement_for(tile, army.player)
        free = [state.map.label(t) for t in state.tiles_of(army.player) if phases.room_left(state, t, army.player)]
        raise RuleError(
            f"the {kind} on {state.map.label(tile)} is full; settlements with room: {', '.join(free) or 'none'}"
        )
    return Deployed(army.id, tile)


def commit_deployed(outcome: Deployed, state: State) -> None:
    army = state.armies[outcome.army]
    state.move_army(army, outcome.tile, deployed=True)
    army.upright = True


def decide_spring(state: State, event: Spring) -> Sprung:
    """Winter closes: armies left undeployed are lost, and the player order is made anew."""
    in_phase(state, "deploy", "the spring event")
    waiting = [a.id for a in state.armies.values() if not a.deployed and phases.could_deploy(state, a)]
    if waiting:
        raise RuleError(f"armies can still deploy: {', '.join(sorted(waiting))}")
    order = phases.new_order(state, event.order, state.deploy_counts)
    lost = sorted(a.id for a in state.armies.values() if not a.deployed)
    return Sprung(state.year + 1, tuple(lost), tuple(order))


def commit_sprung(outcome: Sprung, state: State) -> None:
    for army_id in outcome.lost:
        state.remove_army(army_id)
    state.order = list(outcome.order)
    state.year = outcome.year
    state.month = 1
    state.winter = state.winter_begun = False
