"""The state of a No True King game: what the log says so far (contract §4). Plain
dataclasses, dicts and tuples, so the replay cache can keep it. The rules read and write a
`Realm`: the state itself, or an overlay of an event's changes over it (`rules/overlay.py`)."""

from __future__ import annotations

from collections.abc import Mapping, MutableMapping, Sequence
from dataclasses import dataclass, field

from cok.core.deadlines import Clock
from cok.rulesets.no_true_king.map import SPACES, Board

POSITIONS = (1, 2, 3, 4, "left")
PHASES = ("setup", "placement", "resolution", "exchanges", "unseal", "over")

#: A house's troops in one area: (house, footmen, knights, ships).
Force = tuple[str, int, int, int]


@dataclass
class Conspirator:
    """A player: their symbol, their seal or open card, and their tokens face up."""

    id: str
    name: str
    symbol: str
    seal: str | None = None
    card: list[str] | None = None  # the card as it stands now (open loyalty, or once unsealed)
    shown: list[str] = field(default_factory=lambda: [""] * 5)  # the house of each face-up token
    #: every exchange: (event id or label, round, position a, position b, revealed index or -1, house or "")
    exchanges: list[tuple[str, int, int, int, int, str]] = field(default_factory=list)
    unsealed: bool = False


class Realm:
    """What the rules read and write: the state's fields and what they tell (a `State`, or a
    `Overlay` of an event's changes over one, which reads the same)."""

    board: Board
    loyalty: str
    players: MutableMapping[str, Conspirator]
    seats: Sequence[str]  # replaced, never changed in place (an overlay shares the state's)
    round: int
    first: str | None
    phase: str
    active: str | None
    troops: MutableMapping[str, Force]
    flags: MutableMapping[str, str]
    agents: MutableMapping[tuple[str, str], str]
    placed: MutableMapping[str, int]
    held: MutableMapping[tuple[str, str], int]
    drawn: MutableMapping[str, int]
    played: Sequence[str]  # replaced, never changed in place
    ranks: MutableMapping[str, int]
    ranked: Sequence[Mapping[str, int]]  # replaced, never changed in place
    table: Sequence[tuple[str, str | None]]  # replaced: cards played from phones for the coming combat
    fight_at: tuple[str, str] | None  # (the moving house, the area it enters) of those cards
    won_table: Sequence[tuple[str, str | None]]  # replaced: the first combat's cards, once a granted one's open
    won_at: tuple[str, str] | None  # that first combat's (house, area): Asha's move fights after it

    @property
    def rounds(self) -> int:
        return len(self.seats)

    def controller(self, area: str) -> str | None:
        """A house controls an area where it has troops or its flag (§4.3)."""
        force = self.troops.get(area)
        return force[0] if force is not None else self.flags.get(area)

    def force(self, area: str, house: str) -> tuple[int, int, int]:
        found = self.troops.get(area)
        return (found[1], found[2], found[3]) if found is not None and found[0] == house else (0, 0, 0)

    def set_force(self, area: str, house: str, counts: tuple[int, int, int]) -> None:
        if any(counts):
            self.troops[area] = (house, *counts)
        elif self.troops.get(area, ("",))[0] == house:
            del self.troops[area]

    def on_board(self, house: str) -> tuple[int, int, int]:
        """The house's footmen, knights and ships on the whole board (the `pieces` limit)."""
        f = k = s = 0
        for force in self.troops.values():
            if force[0] == house:
                f, k, s = f + force[1], k + force[2], s + force[3]
        return f, k, s

    def controlled(self, house: str) -> list[str]:
        """The areas `controller` gives to the house, in the board's order: read from its troops
        and flags rather than area by area (muster points and rankings ask at every event)."""
        troops = self.troops
        mine = {area for area, force in troops.items() if force[0] == house}
        mine.update(area for area, flag in self.flags.items() if flag == house and area not in troops)
        return [area for area in self.board.areas if area in mine]

    def troops_house(self, area: str) -> str:
        """The house whose troops stand in the area ("" for none)."""
        found = self.troops.get(area)
        return found[0] if found is not None else ""

    def cards_held(self, player: str) -> dict[str, int]:
        return {h: n for (p, h), n in self.held.items() if p == player and n}

    def next_seat(self, player: str, step: int = 1) -> str:
        return self.seats[(self.seats.index(player) + step) % len(self.seats)]

    def clockwise_from(self, player: str) -> list[str]:
        start = self.seats.index(player)
        return [*self.seats[start:], *self.seats[:start]]

    def tier(self) -> str | None:
        """The lowest space with an unresolved agent: only those may resolve (§4.2.2)."""
        for space in SPACES:
            if any(s == space for (_, s) in self.agents):
                return space
        return None

    def may_resolve(self, player: str) -> list[tuple[str, str]]:
        """The player's agents that may resolve now (§4.2.2)."""
        current = self.tier()
        return [(h, s) for (h, s), p in self.agents.items() if p == player and s == current]


@dataclass
class State(Realm):
    board: Board
    loyalty: str = "sealed"
    players: dict[str, Conspirator] = field(default_factory=dict)
    seats: list[str] = field(default_factory=list)
    round: int = 0
    first: str | None = None  # this round's first player
    phase: str = "setup"
    active: str | None = None  # whose turn it is, in placement, resolution and exchanges
    troops: dict[str, Force] = field(default_factory=dict)  # area -> the one house's troops there
    flags: dict[str, str] = field(default_factory=dict)  # land area -> house
    agents: dict[tuple[str, str], str] = field(default_factory=dict)  # (house, space) -> player
    placed: dict[str, int] = field(default_factory=dict)  # agents placed this round, per player
    held: dict[tuple[str, str], int] = field(default_factory=dict)  # (player, house) -> cards held
    drawn: dict[str, int] = field(default_factory=dict)  # house -> cards drawn from its deck
    played: list[str] = field(default_factory=list)  # cards played (gone for the game)
    ranks: dict[str, int] = field(default_factory=dict)  # house -> rank (1, 2, 2, 4)
    ranked: list[dict[str, int]] = field(default_factory=list)  # each round's rankings
    table: list[tuple[str, str | None]] = field(default_factory=list)  # (player, card or None), in turn
    fight_at: tuple[str, str] | None = None  # (house, area) the cards on the table are played for
    # Asha Greyjoy's granted move fights after the first combat (§4.4): while its cards are
    # played from the phones, the first combat's cards and area wait here for the resolve
    won_table: list[tuple[str, str | None]] = field(default_factory=list)
    won_at: tuple[str, str] | None = None
    #: The campaign's time (issue 48): when each wait opened, extensions, defaults, absent players.
    clock: Clock = field(default_factory=Clock)
