"""Mighty Kingdoms' deadlines (issue 48, docs/mighty-kingdoms.md "Deadlines"): what its ledger
waits for, step by step, and what is recorded for a kingdom (or the organisers) that misses
one. Pure: it reads the state (`rules/phase.py` says what the ledger waits for) and changes
nothing; every draft it makes is decided by the same rules as a kingdom's own."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from cok.core.deadlines import NONE, Step, Wait
from cok.core.dice import ROLL
from cok.rulesets.mighty_kingdoms.intents import exploring
from cok.rulesets.mighty_kingdoms.rules import phase as phases
from cok.rulesets.mighty_kingdoms.rules.phase import could_deploy, recall_needed, room_left, ties
from cok.rulesets.mighty_kingdoms.rules.summer import reformed_counts
from cok.rulesets.mighty_kingdoms.rules.winter import recall_choices

if TYPE_CHECKING:
    from cok.rulesets.mighty_kingdoms.rules.state import Army, State

Drafts = list[tuple[str, dict[str, Any]]]

#: The winter default's name: a kingdom that misses a winter step passes (no tithe, no
#: purchase), feeds what its food feeds and deploys at home; the organisers' winter and
#: spring events are recorded as the rules make them.
WINTER = "feed-and-deploy"

STEPS: tuple[Step, ...] = (
    Step(
        "orders",
        "orders",  # said in the log as "no orders from bo by Thu 3 Dec 20:00: …"
        ("defend", NONE),
        "Summer A) Orders: 'Defend: the army ... does not intend to move' and gains the defender's "
        "advantages (+1 Defence, the defended tile's terrain), and Defend needs no tile and no settlement, "
        "so it is legal for every upright army; 'an army on its side may only choose Regroup', so an army "
        "on its side regroups (its only legal order).",
    ),
    Step(
        "resolution",
        "resolution",
        ("as-ordered", NONE),
        "Summer B) Resolution: an order 'may not be changed' once given, and resolving it only applies "
        "the table (Defend stays, Regroup stands up, Raze burns unless an enemy is there, Move enters "
        "the chosen tile); the only choice left is which army goes first, and the ledger takes one "
        "that needs no dice, else the exploration's 2D6 rolled with the fair dice.",
    ),
    Step(
        "battles",
        "battle",
        (NONE,),
        "Summer C) Battle: the attacker chooses the tile and the enemy, and the result is a game of "
        "Kings of War (or Simple battles' dice allocated by each player): a result cannot be invented, "
        "so a missed battle is only told to the organisers.",
    ),
    Step(
        "reform",
        "reform",
        ("reform", NONE),
        "Summer D) Reform is the rules applied (terrain, failed razes, control, Unit Strength, the new "
        "player order); its one open point, a tie on armies, is settled as the rules say, 'randomly', "
        "with the fair dice.",
    ),
    Step(
        "winter",
        "winter step",
        (WINTER, NONE),
        "Winter: tithes and purchases may be passed ('each player may give ... or pass', 'makes 1 "
        "purchase or passes'); 'you must spend 1 food or remove that army', so a missed feeding feeds "
        "what the food feeds, the strongest armies first; deployment may not be passed, so armies go "
        "home (capital, fortresses, cities, villages, as room allows); recall and spring are the "
        "rules applied (a recall without a capital goes to the kingdom's first city, else village: "
        "every army is placed anew at Deploy), ties rolled off with the fair dice.",
    ),
)


def waits(state: State) -> list[Wait]:
    """Everything the ledger waits for now (`rules/phase.py`), one wait per kingdom and step,
    its key naming the year, the month (or winter), the step and the kingdom, and for a turn
    how far the month has got, so that each turn, month and winter is a wait of its own."""
    now = phases.phase(state)
    year, month = state.year, state.month
    here = f"y{year}:m{month}"
    if now == "setup":
        return []  # the table founds the kingdoms: nothing can be recorded for a missing one
    if now == "orders":
        found = []
        for player in state.order:
            missing = [a.id for a in state.armies_of(player) if a.order is None]
            if missing:
                found.append(Wait("orders", player, f"orders for {_and(missing)}", f"orders:{here}:{player}"))
        return found
    if now == "resolution":
        player = phases.resolver(state) or ""
        mine = [a.id for a in state.armies_of(player) if not a.resolved]
        done = len(state.armies) - state.unresolved()
        return [Wait("resolution", player, f"to resolve one of {_and(mine)}", f"resolution:{here}:{player}:{done}")]
    if now == "battles":
        player = phases.attacker(state) or ""
        tiles = [state.map.label(t) for t in state.may_attack(player)]
        what = f"to choose a battle in {_and(tiles)}"
        return [Wait("battles", player, what, f"battles:{here}:{player}:{state.battles}")]
    if now == "reform":
        return [Wait("reform", None, f"the reform closing month {month}", f"reform:{here}")]
    winter = f"winter:y{year}"
    if now == "winter":
        if not state.winter_begun:
            return [Wait("winter", None, "the winter event (recall and gather)", f"{winter}:recall")]
        return [
            Wait("winter", p, "the feeding of its armies (tithes and purchases first)", f"{winter}:feed:{p}")
            for p in state.order
            if p not in state.fed
        ]
    found = []
    for player in state.order:
        waiting = _undeployed(state, player)
        if waiting:
            what = f"the deployment of {_and([a.id for a in waiting])}"
            found.append(Wait("winter", player, what, f"{winter}:deploy:{player}"))
    return found or [Wait("winter", None, "the spring event", f"{winter}:spring")]


def defaults(state: State, wait: Wait, choice: str) -> Drafts:
    """The drafts recorded for `wait` when it is missed, under the organisers' `choice` (one
    of its step's `defaults`), as `cok mk …` would send them; none for `none`, for a step
    without a safe default, and for a wait no longer open."""
    if choice == NONE or all(open_.key != wait.key for open_ in waits(state)):
        return []
    who = wait.who or ""
    if wait.step == "orders" and choice == "defend":
        return [
            ("order", {"army": a.id, "order": "defend" if a.upright else "regroup"})
            for a in state.armies_of(who)
            if a.order is None
        ]
    if wait.step == "resolution" and choice == "as-ordered":
        army = _first_to_resolve(state, who)
        return [("resolve", {"army": army.id, **_rolled("roll", exploring(state, army))})]
    if wait.step == "reform" and choice == "reform":
        return [("reform", _rolled("order", bool(ties(state, reformed_counts(state)))))]
    if wait.step == "winter" and choice == WINTER:
        return _winter(state, wait)
    return []


def missed(state: State, wait: Wait, choice: str) -> str:
    """What the ledger records for `wait` at its deadline under `choice`, in words a kingdom's
    page shows beside the due time ("ana-1 defends; ana-2 regroups")."""
    drafts = defaults(state, wait, choice)
    if not drafts:
        return "the organisers are told (nothing is recorded)"
    label = state.map.label
    said = []
    for kind, fields in drafts:
        if kind == "order":
            said.append(f"{fields['army']} {fields['order']}s")
        elif kind == "resolve":
            army = state.armies[fields["army"]]
            said.append(f"{army.id}'s {army.order} is resolved as ordered")
        elif kind == "feed":
            unfed = fields["unfed"]
            said.append(
                f"{fields['player']} buys nothing and feeds its armies" + (f", {_and(unfed)} unfed" if unfed else "")
            )
        elif kind == "deploy":
            said.append(f"{fields['army']} deploys at {label(fields['tile'])}")
        else:
            said.append({"reform": "the month is closed", "winter": "winter begins", "spring": "spring begins"}[kind])
    return "; ".join(said)


def _rolled(field: str, needed: bool) -> dict[str, str]:
    """`field: roll_dice` where the rules need dice (an exploration's 2D6, a roll-off): the
    ledger rolls them with the campaign's fair dice, as "roll it for me" does (`intents.py`)."""
    return {field: ROLL} if needed else {}


def _first_to_resolve(state: State, player: str) -> Army:
    """The kingdom's army resolved for it: the first by number whose resolution needs no
    dice, else the first (its exploration rolled with the fair dice)."""
    left = [a for a in state.armies_of(player) if not a.resolved]
    return next((a for a in left if not exploring(state, a)), left[0])


def _winter(state: State, wait: Wait) -> Drafts:
    step = wait.key.split(":")[2]
    player = wait.who or ""
    if step == "recall":
        return [("winter", {"recall": _recalls(state)})]
    if step == "feed":
        return [("feed", {"player": player, "unfed": _unfed(state, player)})]
    if step == "deploy":
        return [("deploy", {"army": army, "tile": tile}) for army, tile in _home(state, player)]
    return [("spring", _rolled("order", bool(ties(state, state.deploy_counts))))]


def _recalls(state: State) -> dict[str, str]:
    """Each kingdom without its capital recalls to its first city, else village (5.8 Recall):
    where matters little, as every army is placed anew at Deploy."""
    return {p: recall_choices(state, p)[1][0] for p in recall_needed(state)}


def _unfed(state: State, player: str) -> list[str]:
    """The armies its food cannot feed: the weakest go (fewest points, the newest first)."""
    armies = state.armies_of(player)
    kept = sorted(armies, key=lambda a: (-a.points, a.number))[: state.kingdoms[player].food]
    return [a.id for a in armies if a not in kept]


def _undeployed(state: State, player: str) -> list[Army]:
    return [a for a in state.armies_of(player) if not a.deployed and could_deploy(state, a)]


#: Where a missed deployment puts armies first: the capital holds the most and is the
#: kingdom's own; then fortresses, cities and villages.
_HOME_FIRST = {"capital": 0, "fortress": 1, "city": 2, "village": 3}


def _home(state: State, player: str) -> list[tuple[str, str]]:
    """(army, tile) for each of the kingdom's undeployed armies, on its settlements with room,
    capital first (5.6 step 6's limits, counting the armies this default places)."""
    room = {t: room_left(state, t, player) for t in state.tiles_of(player)}
    tiles = sorted(
        (t for t, left in room.items() if left > 0),
        key=lambda t: _HOME_FIRST.get(state.settlement_for(t, player) or "", 9),
    )
    placed = []
    for army in _undeployed(state, player):
        tile = next((t for t in tiles if room[t] > 0), None)
        if tile is None:
            break
        room[tile] -= 1
        placed.append((army.id, tile))
    return placed


def _and(items: Sequence[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]
