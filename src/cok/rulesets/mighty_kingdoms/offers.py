"""What a kingdom may do now, read from the state (contract 3, 5.2–5.6): the choices its page
offers (`queries.offers`), each one the rules would accept, so that a phone shows only what is
legal. Pure: it changes nothing; the rules still decide every event recorded."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from cok.rulesets.mighty_kingdoms.intents import exploring, moves

if TYPE_CHECKING:
    from cok.rulesets.mighty_kingdoms.rules.state import Army, State


@dataclass(frozen=True)
class Place:
    """A tile as a page names it (its name, else its `q,r`) and as a form sends it (`key`)."""

    key: str
    label: str


@dataclass(frozen=True)
class Orderable:
    """An army with no order yet this month, and the orders it may take (5.2)."""

    id: str
    at: Place
    orders: tuple[str, ...]  # of move, defend, raze, regroup
    moves: tuple[Place, ...]


@dataclass(frozen=True)
class Resolvable:
    id: str
    order: str
    at: Place
    to: Place | None
    explores: bool  # resolving it rolls 2D6 on the exploration table


@dataclass(frozen=True)
class Fight:
    """A battle the kingdom may choose now (5.4): a tile and the enemies it may fight there."""

    tile: Place
    enemies: tuple[str, ...]
    armies: tuple[str, ...]  # every army in the tile, upright ones first: what the dice are for
    upright: tuple[str, ...]


@dataclass(frozen=True)
class Building:
    tile: Place
    was: str | None
    may_become: tuple[tuple[str, int, int], ...]  # (settlement, gold, food) it can afford


@dataclass(frozen=True)
class Deployable:
    id: str
    tiles: tuple[tuple[Place, int], ...]  # (settlement tile, room left)


@dataclass(frozen=True)
class Offers:
    """Everything a kingdom's page shows for the phase the campaign is in."""

    player: str
    name: str
    phase: str
    waiting: str  # what the ledger waits for, in words
    waits_for_me: bool  # the ledger waits for this kingdom (or may take its event now)
    gold: int
    food: int
    orders: tuple[Orderable, ...] = ()
    resolve: tuple[Resolvable, ...] = ()
    fights: tuple[Fight, ...] = ()
    tithe_to: tuple[tuple[str, str], ...] = ()  # (id, name) of the kingdoms it may tithe to
    builds: tuple[Building, ...] = ()
    recruit_at: tuple[Place, ...] = ()
    disband: tuple[str, ...] = ()  # at the army limit, a recruit disbands one of these
    feed: tuple[str, ...] = ()  # its armies, fed or not
    deploy: tuple[Deployable, ...] = ()
    armies: tuple[Any, ...] = field(default=())
    due: str | None = None  # when the ledger's wait for this kingdom is due (ISO with offset; issue 48)
    if_missed: str = ""  # what the ledger records for it then, in words ("ana-1 defends")


def place(state: State, tile: str) -> Place:
    found = state.map.tiles.get(tile)
    return Place(tile, found.name if found is not None and found.name else tile)


def offers(state: State, player: str, choices: Mapping[str, str] | None = None) -> Offers:
    """What `player` may do now, for the phase the campaign is in, and, where a deadline is
    set, when it is due and what is recorded for it if it misses it (under the organisers'
    `choices` of defaults, by step; each step's first when not given)."""
    from cok.rulesets.mighty_kingdoms.rules import phase as phases
    from cok.rulesets.mighty_kingdoms.rules.summer import waiting_words

    now = phases.phase(state)
    kingdom = state.kingdoms[player]
    waiting = phases.waiting_for(state) if now != "setup" else []
    mine = any(_is_mine(state, item, player) for item in waiting)
    base: dict[str, Any] = {
        "player": player,
        "name": kingdom.name,
        "phase": now,
        "waiting": waiting_words(state),
        "waits_for_me": mine,
        "gold": kingdom.gold,
        "food": kingdom.food,
        "armies": tuple(state.armies_of(player)),
        **_deadline(state, player, choices or {}),
    }
    if now == "orders":
        return Offers(**base, orders=tuple(_orderable(state, a) for a in state.armies_of(player) if a.order is None))
    if now == "resolution" and phases.resolver(state) == player:
        armies = [a for a in state.armies_of(player) if not a.resolved]
        return Offers(**base, resolve=tuple(_resolvable(state, a) for a in armies))
    if now == "battles" and phases.attacker(state) == player:
        return Offers(**base, fights=tuple(_fight(state, player, t) for t in state.may_attack(player)))
    if now == "winter" and state.winter_begun and player not in state.fed:
        return Offers(**base, **_winter(state, player))
    if now == "deploy":
        waiting_armies = [a for a in state.armies_of(player) if not a.deployed and phases.could_deploy(state, a)]
        return Offers(**base, deploy=tuple(_deployable(state, a) for a in waiting_armies))
    return Offers(**base)


def _deadline(state: State, player: str, choices: Mapping[str, str]) -> dict[str, Any]:
    """The kingdom's open wait's due time and its default in words (`deadlines.py`), when
    its step has a deadline."""
    from cok.core.deadlines import iso
    from cok.rulesets.mighty_kingdoms.deadlines import STEPS, missed, waits

    wait = next((w for w in waits(state) if w.who == player), None)
    due = state.clock.due(wait) if wait is not None else None
    if wait is None or due is None:
        return {}
    step = next(s for s in STEPS if s.key == wait.step)
    return {"due": iso(due), "if_missed": missed(state, wait, choices.get(step.key, step.defaults[0]))}


def _is_mine(state: State, item: dict[str, Any], player: str) -> bool:
    army = state.armies.get(str(item.get("army", "")))
    return player in (item.get("player"), item.get("attacker")) or (army is not None and army.player == player)


def _orderable(state: State, army: Army) -> Orderable:
    if not army.upright:
        return Orderable(army.id, place(state, army.tile), ("regroup",), ())
    targets = tuple(place(state, t) for t in moves(state, army))
    orders = (*(("move",) if targets else ()), "defend", *(("raze",) if army.tile in state.settlement else ()))
    return Orderable(army.id, place(state, army.tile), orders, targets)


def _resolvable(state: State, army: Army) -> Resolvable:
    to = place(state, army.to) if army.to else None
    return Resolvable(army.id, army.order or "", place(state, army.tile), to, exploring(state, army))


def _fight(state: State, player: str, tile: str) -> Fight:
    here = state.armies_in(tile)
    enemies = tuple(dict.fromkeys(a.player for a in here if a.player != player))
    ordered = sorted(here, key=lambda a: not a.upright)
    upright = tuple(a.id for a in ordered if a.upright)
    return Fight(place(state, tile), enemies, tuple(a.id for a in ordered), upright)


def _winter(state: State, player: str) -> dict[str, Any]:
    """Tithes (before the first build, recruit or feed), builds it can afford, recruits at a
    fortress that has not recruited, and the feed (5.6 steps 3–5)."""
    from cok.rulesets.mighty_kingdoms.rules.winter import BUILDS

    kingdom = state.kingdoms[player]
    tithe_to: tuple[tuple[str, str], ...] = ()
    if not state.tithing_over and (kingdom.gold or kingdom.food):
        tithe_to = tuple(
            (p, state.kingdoms[p].name) for p in state.order if p != player and (player, p) not in state.tithes
        )
    builds = []
    for tile in state.tiles_of(player):
        was = state.settlement_for(tile, player)
        affordable = tuple(
            (to, gold, food)
            for (frm, to), (gold, food) in BUILDS.items()
            if frm == was
            and gold <= kingdom.gold
            and food <= kingdom.food
            and not (to == "capital" and state.has_capital(player))
        )
        if affordable:
            builds.append(Building(place(state, tile), was, affordable))
    forts = [
        place(state, t)
        for t in state.tiles_of(player)
        if state.settlement.get(t) == "fortress" and t not in state.recruited
    ]
    armies = state.armies_of(player)
    at_limit = len(armies) >= state.settings.army_limit
    return {
        "tithe_to": tithe_to,
        "builds": tuple(builds),
        "recruit_at": tuple(forts) if kingdom.gold >= 1 else (),
        "disband": tuple(a.id for a in armies) if at_limit else (),
        "feed": tuple(a.id for a in armies),
    }


def _deployable(state: State, army: Army) -> Deployable:
    from cok.rulesets.mighty_kingdoms.rules.phase import room_left

    rooms = ((t, room_left(state, t, army.player)) for t in state.tiles_of(army.player))
    return Deployable(army.id, tuple((place(state, t), n) for t, n in rooms if n > 0))
