"""The state of a Mighty Kingdoms campaign at one point of its log."""

from __future__ import annotations

from bisect import insort
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from typing import ClassVar

from cok.core.deadlines import Clock
from cok.core.plain import Deferred
from cok.rulesets.mighty_kingdoms.map import HexMap

PHASES = ("setup", "orders", "resolution", "battles", "reform", "winter", "deploy")
#: Armies a settlement takes at deployment (section 5.6 step 6); a capital is the
#: kingdom's own: another kingdom's capital is a city for its holder.
ROOM = {"village": 1, "city": 2, "capital": 3, "fortress": 3}


@dataclass(frozen=True)
class Settings:
    """What the rules need from campaign.yaml."""

    battles: str = "simple"
    army_limit: int = 6
    advanced: tuple[str, ...] = ()

    @property
    def kings_of_war(self) -> bool:
        return self.battles == "kings-of-war"

    @property
    def towers(self) -> bool:
        return "wizards-towers" in self.advanced


@dataclass
class Army:
    """An army: where it stands, its points and Unit Strength, and this month's order."""

    id: str
    player: str
    tile: str
    points: int = 500
    upright: bool = True
    allied: bool = False
    list: str | None = None
    units: dict[str, int] | None = None  # Unit Strength as listed; None: recorded without units
    changes: dict[str, int] = field(default_factory=dict)  # Unit Strength changes, by unit
    order: str | None = None  # this month's order
    order_id: str | None = None  # the id of the event that gave it (None: written without one)
    to: str | None = None  # a move's target
    resolved: bool = False
    defending: bool = False
    slowed: bool = False  # moved by its order across mountain/forest or into a river (Reform 1)
    deployed: bool = True  # False in winter until its `deploy`

    @cached_property
    def number(self) -> int:
        """The number in its id (`ana-3`: 3): the indexes sort by it. Worked out once, as the id
        never changes; not a field, so neither the cache nor == sees it."""
        return int(self.id.rsplit("-", 1)[1])

    def strength(self, unit: str) -> int:
        """A unit's Unit Strength, uncapped (Reform step 4 uses it)."""
        return (self.units or {}).get(unit, 0) + self.changes.get(unit, 0)


@dataclass
class Kingdom:
    """A player's kingdom: its capital while it stands, and its winter's gold and food."""

    id: str
    name: str
    race: str
    capital: str | None  # the tile of its own capital, while it stands
    founded: int  # founding order, from 0
    armies_made: int = 1
    gold: int = 0
    food: int = 0
    list: str | None = None


@dataclass
class ArtefactHeld:
    """An artefact brought back from a quest, and who holds it."""

    id: str  # art-1, art-2 …
    name: str | None
    points: str  # 5-15 | 20-30 | rare
    holder: str  # a kingdom, or "pool"
    gained_by: str
    year: int


@dataclass
class Gathered:
    """What a kingdom gathered in one winter (for its page's resources over the winters)."""

    year: int
    gold: int
    food: int


@dataclass
class State(Deferred):
    """Everything derived from the log so far. Changed only by the rules' commit steps."""

    #: What each kingdom gathered in every winter, read by the site only: read from the
    #: cache when asked for (a long campaign's is most of its state).
    later: ClassVar[frozenset[str]] = frozenset({"gathered"})

    map: HexMap
    settings: Settings
    year: int = 0  # 0: setup
    month: int = 0  # 1..6 in summer; 0 in setup and winter
    winter: bool = False  # the year is in winter (after the 6th reform)
    winter_begun: bool = False  # the `winter` event is recorded (recall and gather done)
    order: list[str] = field(default_factory=list)  # player order
    kingdoms: dict[str, Kingdom] = field(default_factory=dict)
    armies: dict[str, Army] = field(default_factory=dict)
    control: dict[str, str] = field(default_factory=dict)  # tile -> kingdom
    explored: set[str] = field(default_factory=set)
    settlement: dict[str, str] = field(default_factory=dict)  # tile -> village|city|fortress|capital
    towers: set[str] = field(default_factory=set)
    last_resolver: str | None = None  # who resolved last this month (turns go round the table)
    last_attacker: str | None = None  # who chose the last battle this month
    tithing_over: bool = False
    tithes: set[tuple[str, str]] = field(default_factory=set)  # (from, to) this winter
    recruited: set[str] = field(default_factory=set)  # fortresses that recruited this winter
    fed: set[str] = field(default_factory=set)
    deploy_counts: dict[str, int] = field(default_factory=dict)  # armies when deploy began
    quests: set[tuple[str, str]] = field(default_factory=set)  # (tower, kingdom) this winter
    heroes: set[tuple[str, str]] = field(default_factory=set)  # (army or kingdom, hero) this winter
    artefacts: dict[str, ArtefactHeld] = field(default_factory=dict)
    #: Why an artefact may pass from one kingdom to another (5.7): (receiver, giver) ->
    #: ("battle" | "capital", tile), the first cause seen since the last deploy began.
    causes: dict[tuple[str, str], tuple[str, str]] = field(default_factory=dict)
    gathered: dict[str, list[Gathered]] = field(default_factory=dict)
    battles: int = 0  # battles recorded so far (the site's count)
    # Indexes of `armies`, kept by the methods below (the rules change where armies are, and
    # their orders, only through them) and rebuilt whenever a state is built, as the cache
    # does: the questions below are asked for every event, and scanning and sorting every
    # army each time was most of a replay.
    _by_player: dict[str, list[Army]] = field(init=False, repr=False, compare=False)  # by number
    _by_tile: dict[str, list[Army]] = field(init=False, repr=False, compare=False)  # deployed, by player, number
    _unordered: int = field(init=False, repr=False, compare=False)  # armies with no order this month
    _unresolved: int = field(init=False, repr=False, compare=False)  # armies whose order is not resolved
    _players: dict[str, str] = field(init=False, repr=False, compare=False)  # the spelling step's names -> id
    _players_of: int = field(init=False, repr=False, compare=False)  # kingdoms when _players was made

    #: The campaign's time (issue 48): when each wait opened, extensions, defaults, absent players.
    clock: Clock = field(default_factory=Clock)

    def __post_init__(self) -> None:
        self.reindex()

    def copy(self) -> State:
        """A deep copy the rules may change (each recording decides on one), sharing the
        map and settings, which never change, and what each kingdom gathered in every winter
        (it grows with the log) until either state changes it (`own_gathered`): copying it
        for every recording was most of what the first page after one cost at 100,000
        events (issue #37)."""
        import copy

        memo: dict[int, object] = {id(self.map): self.map, id(self.settings): self.settings}
        kept = vars(self).get("gathered")
        if kept is not None:
            memo[id(kept)] = kept
            vars(self)["_borrowed"] = True
        made = copy.deepcopy(self, memo)
        vars(made)["_borrowed"] = kept is not None
        return made

    def own_gathered(self) -> dict[str, list[Gathered]]:
        """What each kingdom gathered, this state's own to change."""
        found = self.gathered
        if vars(self).get("_borrowed"):
            found = {player: list(winters) for player, winters in found.items()}
            self.gathered = found
            vars(self)["_borrowed"] = False
        return found

    def reindex(self) -> None:
        """The indexes made again from `armies` (a state built, or armies changed by hand)."""
        self._by_player, self._by_tile, self._players, self._players_of = {}, {}, {}, -1
        self._unordered = self._unresolved = 0
        for army in self.armies.values():
            self._index(army)

    # -------------------------------------------------------- the only ways armies change

    def add_army(self, army: Army) -> None:
        """A new army: founded with its kingdom or recruited."""
        self.armies[army.id] = army
        self._index(army)

    def remove_army(self, army_id: str) -> None:
        """An army gone: destroyed, slaughtered, disbanded, unfed or lost."""
        self._unindex(self.armies.pop(army_id))

    def move_army(self, army: Army, tile: str, deployed: bool | None = None) -> None:
        """An army on another tile: a move, a retreat or an advance; recalled (`deployed`
        False) or deployed (True)."""
        self._unindex_tile(army)
        army.tile = tile
        if deployed is not None:
            army.deployed = deployed
        if army.deployed:
            insort(self._by_tile.setdefault(tile, []), army, key=_in_tile)

    def give_order(self, army: Army, order: str, to: str | None, event_id: str | None = None) -> None:
        """The army's order this month (phase() asks whether every army has one), and the id
        of the event that gave it (a refusal names it for `cok void`)."""
        self._unordered -= army.order is None
        army.order, army.to, army.order_id = order, to, event_id

    def resolve_order(self, army: Army) -> None:
        """The army's order is resolved (phase() asks whether every one is)."""
        self._unresolved -= not army.resolved
        army.resolved = True

    def new_month(self) -> None:
        """Reform: every army is without an order again (and so not resolved either)."""
        for army in self.armies.values():
            army.defending = army.slowed = army.resolved = False
            army.order = army.to = army.order_id = None
        self._unordered = self._unresolved = len(self.armies)

    def take(self, tile: str, player: str) -> None:
        """`player` controls the tile from now on. Gaining the tile of another kingdom's
        capital, whoever held it, is a cause for that kingdom's artefacts to pass (5.7: "an
        item held by a Capital City that is taken over ... is given to" the taker)."""
        if self.control.get(tile) != player:
            for kingdom in self.kingdoms.values():
                if kingdom.capital == tile and kingdom.id != player:
                    self.causes.setdefault((player, kingdom.id), ("capital", tile))
        self.control[tile] = player

    def _index(self, army: Army) -> None:
        insort(self._by_player.setdefault(army.player, []), army, key=_in_kingdom)
        if army.deployed:
            insort(self._by_tile.setdefault(army.tile, []), army, key=_in_tile)
        self._unordered += army.order is None
        self._unresolved += not army.resolved

    def _unindex(self, army: Army) -> None:
        _drop(self._by_player[army.player], army)
        self._unindex_tile(army)
        self._unordered -= army.order is None
        self._unresolved -= not army.resolved

    def _unindex_tile(self, army: Army) -> None:
        if army.deployed:
            here = self._by_tile[army.tile]
            _drop(here, army)
            if not here:
                del self._by_tile[army.tile]

    # ------------------------------------------------------------- questions the rules ask

    def armies_of(self, player: str) -> list[Army]:
        """The kingdom's armies, deployed or not, by number."""
        return list(self._by_player.get(player, ()))

    def armies_in(self, tile: str) -> list[Army]:
        """The armies deployed on the tile, by kingdom and number."""
        return list(self._by_tile.get(tile, ()))

    def kingdoms_in(self, tile: str) -> set[str]:
        return {a.player for a in self._by_tile.get(tile, ())}

    def unordered(self) -> int:
        """How many armies have no order this month."""
        return self._unordered

    def unresolved(self) -> int:
        """How many armies' orders are not resolved this month."""
        return self._unresolved

    def has_unresolved(self, player: str) -> bool:
        """The kingdom has an army whose order is not resolved."""
        return any(not a.resolved for a in self._by_player.get(player, ()))

    def occupied(self) -> list[str]:
        """The tiles with deployed armies, in no particular order."""
        return list(self._by_tile)

    def kingdom_names(self, key: Callable[[str], str]) -> dict[str, str]:
        """Each kingdom's id and display name by `key` -> its id, the first founded first: the
        spelling step's index (`rules/spelling.py` says how names compare), kept here so that
        it is made again only when a kingdom is founded."""
        if self._players_of != len(self.kingdoms):
            names: dict[str, str] = {}
            for pid, kingdom in self.kingdoms.items():
                names.setdefault(key(pid), pid)
                names.setdefault(key(kingdom.name), pid)
            self._players, self._players_of = names, len(self.kingdoms)
        return self._players

    def has_capital(self, player: str) -> bool:
        """A kingdom has a capital while it controls its own (section 5.8)."""
        capital = self.kingdoms[player].capital
        return capital is not None and self.control.get(capital) == player

    def settlement_for(self, tile: str, player: str) -> str | None:
        """The settlement as `player` sees it: another kingdom's capital is a plain city."""
        found = self.settlement.get(tile)
        if found == "capital" and self.kingdoms[player].capital != tile:
            return "city"
        return found

    def tiles_of(self, player: str) -> list[str]:
        return sorted((t for t, p in self.control.items() if p == player), key=_tile_order)

    def count(self, player: str, kind: str) -> int:
        """Settlements of a kind the kingdom controls, as it sees them (its own capital apart)."""
        return self.holdings(player).get(kind, 0)

    def holdings(self, player: str) -> dict[str, int]:
        """The kingdom's settlements by kind, as it sees them: one pass for what winter
        gathers, instead of one for each kind."""
        found: dict[str, int] = {}
        kingdom = self.kingdoms.get(player)
        control, own = self.control, kingdom.capital if kingdom is not None else None
        for tile, kind in self.settlement.items():
            if control.get(tile) == player:
                seen = "city" if kind == "capital" and tile != own else kind
                found[seen] = found.get(seen, 0) + 1
        return found

    def contested(self) -> list[str]:
        """Tiles where some kingdom has an upright army and another kingdom has armies."""
        return sorted(
            (t for t, armies in self._by_tile.items() if _kingdoms_meet(armies) and any(a.upright for a in armies)),
            key=_tile_order,
        )

    def may_attack(self, player: str) -> list[str]:
        """The tiles where `player` may choose a battle: an upright army of theirs and an enemy's armies."""
        found = []
        for tile in self.contested():
            armies = self._by_tile[tile]
            if any(a.player == player and a.upright for a in armies) and any(a.player != player for a in armies):
                found.append(tile)
        return found

    def may_attack_in(self, player: str, tile: str) -> bool:
        """`tile in may_attack(player)`, asked of that tile's armies alone (a battle's check)."""
        armies = self._by_tile.get(tile, ())
        return any(a.player == player and a.upright for a in armies) and any(a.player != player for a in armies)

    def attackers(self) -> set[str]:
        """The kingdoms that may choose a battle somewhere (those whose may_attack is not
        empty): an upright army on a tile where another kingdom has armies."""
        return {a.player for armies in self._by_tile.values() if _kingdoms_meet(armies) for a in armies if a.upright}


def _in_kingdom(army: Army) -> int:
    return army.number


def _in_tile(army: Army) -> tuple[str, int]:
    return army.player, army.number


def _drop(armies: list[Army], army: Army) -> None:
    """Take the army itself out of an index (`list.remove` would compare every field)."""
    del armies[next(i for i, a in enumerate(armies) if a is army)]


def _kingdoms_meet(armies: list[Army]) -> bool:
    """Two kingdoms or more among a tile's armies (sorted by kingdom: the first and last differ)."""
    return armies[0].player != armies[-1].player


def _tile_order(tile: str) -> tuple[int, int]:
    q, _, r = tile.partition(",")
    return int(q), int(r)
