"""The state of a Clash of Kings campaign at one point of its log."""

from __future__ import annotations

import copy
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar

from cok.core.deadlines import Clock
from cok.core.plain import Deferred
from cok.rulesets.clash_of_kings.map import Geography


@dataclass(frozen=True)
class Player:
    id: str
    name: str
    faction: str


@dataclass(frozen=True)
class Settings:
    """What the rules need from campaign.yaml."""

    start: int = 20
    step: int = 3
    modes: tuple[str, ...] = ("a-clash-of-kings", "a-game-of-thrones")  # game modes a battle may name
    factions: tuple[str, ...] = ()  # the campaign's own factions (campaign.yaml's `factions:`)


@dataclass
class BattleRecord:
    """A player's battle record."""

    battles: int = 0
    wins: int = 0
    losses: int = 0


@dataclass
class State(Deferred):
    """Everything derived from the log so far. Changed only by `rules.apply.commit`."""

    #: The record of every week, read by a battle, a painting claim and the site, never by
    #: the standings: read from the cache only when asked for (a long campaign's is most of it).
    later: ClassVar[frozenset[str]] = frozenset(
        {"fought", "fully_painted", "banners", "commission_weeks", "commissioned", "cp_by_week", "battles"}
    )

    geo: Geography
    settings: Settings
    week: int = 1
    limits: list[int] = field(default_factory=list)
    players: dict[str, Player] = field(default_factory=dict)
    holder: dict[str, str] = field(default_factory=dict)  # location -> player id
    holdings: dict[str, set[str]] = field(default_factory=dict)  # player id -> locations
    held_cp: dict[str, int] = field(default_factory=dict)  # player id -> CP of those locations
    bonus: dict[str, int] = field(default_factory=dict)
    records: dict[str, BattleRecord] = field(default_factory=dict)
    fought: set[tuple[str, int]] = field(default_factory=set)  # (player, week)
    fully_painted: set[tuple[str, int]] = field(default_factory=set)
    banners: dict[tuple[str, int], tuple[int, int]] = field(default_factory=dict)  # units, models
    commission_weeks: set[tuple[str, int]] = field(default_factory=set)
    commissioned: set[tuple[str, str]] = field(default_factory=set)  # (painter, owner)
    cp_by_week: dict[str, dict[int, int]] = field(default_factory=dict)  # CP at each finished week's end
    #: The battles of this week and the last by (both players in order, location, week,
    #: winner or ""): what the same battle recorded twice has in common. Older weeks are
    #: dropped, so that a long campaign's cache does not carry every battle it ever had.
    battles: set[tuple[str, str, str, int, str]] = field(default_factory=set)

    #: The campaign's time (issue 48): when each wait opened, extensions, defaults, absent players.
    clock: Clock = field(default_factory=Clock)

    def __post_init__(self) -> None:
        if not self.limits:
            self.limits = [self.settings.start]

    def copy(self) -> State:
        """A copy the rules may change without changing this one (a dry run decides on it).
        The map and settings never change and are shared; a field still waiting in the
        cache (see `Deferred`) stays waiting, decoded on its own when the copy reads it."""
        made = copy.copy(self)  # the waiting fields' data is shared, never changed
        taken = vars(made)
        shared = {name for name in _WEEKLY if name in taken}
        for name, value in list(taken.items()):
            if name in ("geo", "settings") or name.startswith("_") or name in shared:
                continue
            if name in _FLAT:  # frozen values: the dict alone is copied, at C speed
                taken[name] = dict(value)
                continue
            taken[name] = _copied(value)
        # the record of every week is shared until either state changes it (`own`): a copy is
        # made for each recording, and copying it (then collecting and freeing the copies) was
        # most of what the first page after a recording cost at 100,000 events (issue #37)
        taken["_borrowed"] = set(shared)
        vars(self)["_borrowed"] = set(vars(self).get("_borrowed", ())) | shared
        return made

    def own(self, name: str) -> Any:
        """The field `name` (one of the record of every week), this state's own to change:
        copied first while it is shared with a state this one was copied from or into."""
        value = getattr(self, name)
        borrowed = vars(self).get("_borrowed")
        if borrowed and name in borrowed:
            value = {k: dict(v) for k, v in value.items()} if name == "cp_by_week" else type(value)(value)
            setattr(self, name, value)
            borrowed.discard(name)
        return value

    @property
    def limit(self) -> int:
        """This week's points limit."""
        return self.limits[self.week - 1]

    def limit_of(self, week: int) -> int:
        return self.limits[week - 1]

    def territories(self, player: str) -> set[str]:
        return self.holdings.get(player, set())

    def territory_cp(self, player: str) -> int:
        return self.held_cp.get(player, 0)

    def total_cp(self, player: str) -> int:
        return self.territory_cp(player) + self.bonus.get(player, 0)

    def castles_of(self, player: str) -> list[str]:
        return sorted(loc for loc in self.territories(player) if self.geo.kind(loc) == "castle")

    def occupied(self) -> set[str]:
        return set(self.holder)

    def free(self) -> list[str]:
        """Unoccupied locations that can be occupied, in map order."""
        return [loc for loc in self.geo.holdable() if loc not in self.holder]

    def under_supply_lines(self, player: str) -> bool:
        """Supply Lines: first place with a lead of 10 CP or more over every other player."""
        others = [p for p in self.players if p != player]
        if not others:
            return False
        mine = self.total_cp(player)
        return all(mine - self.total_cp(p) >= 10 for p in others)


#: The fields whose dicts hold frozen values (strings, ints, tuples, frozen players): a long
#: campaign's record of every week is most of a copy, which each recording makes.
_FLAT = frozenset({"players", "holder", "held_cp", "bonus"})
#: The record of every week (it grows with the log): shared by a copy until changed (`own`).
_WEEKLY = frozenset({"fought", "fully_painted", "banners", "commission_weeks", "commissioned", "cp_by_week"})


def _copied(value: Any) -> Any:
    """One field's value, its containers copied down to the frozen values they hold."""
    if isinstance(value, dict):
        return {k: _copied(v) for k, v in value.items()}
    if isinstance(value, (set, list)):
        return type(value)(value)  # of tuples and strings: nothing inside changes
    if isinstance(value, BattleRecord):
        return replace(value)
    return value
