"""The events of a No True King log (contract §3): one frozen pydantic model per type (the
core adds `void`). Names of houses, areas, cards and players are made the board's and the
game's own by `rules/spelling.py` before the rules see an event."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from cok.core.events import ID_PATTERN, EventBase, PlayerId, Text
from cok.rulesets.skeleton import by_type

House = Annotated[str, Field(pattern=ID_PATTERN, min_length=1)]
Space = Literal["maester", "marshal", "lord"]
Unit = Literal["footman", "knight", "ship"]
Symbol = Literal["crown", "torch", "helm", "gauntlet"]
Position = Literal[1, 2, 3, 4, "left"]
Hex = Annotated[str, Field(pattern=r"^[0-9a-f]{64}$")]
Loyalty = Annotated[list[House], Field(min_length=5, max_length=5)]


class Part(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, coerce_numbers_to_str=True)


class ShipTo(Part):
    """A mustered ship, added through a land area and placed at once in a bordering sea."""

    ship: Text


#: Per land area what a muster adds there (`footman`, or `{ship: SEA}`); `promote` lists the
#: areas where a footman becomes a knight (an area once per promotion).
Muster = dict[Text, list[ShipTo | Text]]


class Move(Part):
    from_: Text = Field(alias="from")
    to: Text
    units: Annotated[list[Unit], Field(min_length=1)]

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True, serialize_by_alias=True)


class Removal(Part):
    """Cersei Lannister: the unresolved agent removed from a Lannister space."""

    house: House
    space: Space


class Discard(Part):
    """Melisandre: the opponent forced to discard, and the house of the card."""

    player: PlayerId
    house: House


class Action(Part):
    """One action of an agent, or the one a card grants: exactly one of muster, move, draw."""

    muster: Muster | None = None
    move: Move | None = None
    draw: Literal[True] | None = None
    combat: Combat | None = None

    @model_validator(mode="after")
    def _one(self) -> Action:
        given = [k for k in ("muster", "move", "draw") if getattr(self, k) is not None]
        if len(given) != 1:
            raise ValueError("an action is exactly one of muster, move or draw")
        if self.combat is not None and self.move is None:
            raise ValueError("only a move carries a combat")
        return self

    @property
    def kind(self) -> str:
        return "muster" if self.muster is not None else "move" if self.move is not None else "draw"


class Combat(Part):
    cards: dict[PlayerId, Text | None] = Field(default_factory=dict)
    winner: House | None = None
    retreat: Text | None = None
    after: Annotated[list[Action], Field(max_length=1)] | None = None
    remove: Removal | None = None
    discard: Discard | None = None


Action.model_rebuild()


class Conspiracy(EventBase):
    """A player joins with a conspiracy symbol and a sealed (or open) loyalty card."""

    type: Literal["conspiracy"] = "conspiracy"
    player: PlayerId
    name: Text | None = None
    symbol: Symbol
    seal: Hex | None = None
    loyalty: Loyalty | None = None


class Begin(EventBase):
    """The players' clockwise seats and the random first player."""

    type: Literal["begin"] = "begin"
    seats: Annotated[list[PlayerId], Field(min_length=1)]
    first: PlayerId


class Place(EventBase):
    type: Literal["place"] = "place"
    player: PlayerId
    house: House
    space: Space


class Resolve(EventBase):
    """Resolving one agent: its actions in the order taken; the combat of a move that entered
    another house's troops rides on that move's action."""

    type: Literal["resolve"] = "resolve"
    player: PlayerId
    house: House
    space: Space
    actions: list[Action] = Field(default_factory=list)
    combat: Combat | None = None


class Card(EventBase):
    """A card played from a player's own phone before the combat is recorded (§4.4 Cards: from
    the active player clockwise, each player's own). The active player's opens the combat: the
    house it moves and the area it enters; the resolve that fights there takes these cards."""

    type: Literal["card"] = "card"
    player: PlayerId
    card: Text | None = None  # None: plays no card
    house: House | None = None  # the active player's only
    to: Text | None = None  # the active player's only


class Exchange(EventBase):
    """End of a round: swap two loyalty tokens and reveal one."""

    type: Literal["exchange"] = "exchange"
    player: PlayerId
    swap: Annotated[list[Position], Field(min_length=2, max_length=2)]
    reveal: dict[Position, House] | None = None

    @model_validator(mode="before")
    @classmethod
    def _numbers(cls, data: Any) -> Any:
        """Positions 1–4 as numbers, however written (a JSON key is always text)."""
        if isinstance(data, dict):
            data = dict(data)
            if isinstance(data.get("swap"), list):
                data["swap"] = [_position(p) for p in data["swap"]]
            if isinstance(data.get("reveal"), dict):
                data["reveal"] = {_position(k): v for k, v in data["reveal"].items()}
        return data

    @model_validator(mode="after")
    def _shape(self) -> Exchange:
        if self.swap[0] == self.swap[1]:
            raise ValueError("swap two different positions")
        if self.reveal is not None and len(self.reveal) != 1:
            raise ValueError("reveal exactly one token, like {2: lannister}")
        return self


def _position(value: Any) -> Any:
    return int(value) if isinstance(value, str) and value in ("1", "2", "3", "4") else value


class Pass(EventBase):
    type: Literal["pass"] = "pass"
    player: PlayerId


class Unseal(EventBase):
    """After the last round: the loyalty card as it was sealed, and its secret."""

    type: Literal["unseal"] = "unseal"
    player: PlayerId
    loyalty: Loyalty
    secret: Annotated[str, Field(min_length=16)]


EVENT_TYPES = by_type(Conspiracy, Begin, Place, Resolve, Card, Exchange, Pass, Unseal)


def involved(event: EventBase) -> frozenset[str]:
    """The players an event is about (`cok log --player`)."""
    if isinstance(event, Begin):
        return frozenset(event.seats)
    player = getattr(event, "player", None)
    found = {player} if player else set()
    if isinstance(event, Resolve):
        for combat in _combats(event.combat, event.actions):
            found |= set(combat.cards)
            if combat.discard is not None:
                found.add(combat.discard.player)
    return frozenset(found)


def _combats(top: Combat | None, actions: list[Action]) -> list[Combat]:
    found = [top] if top is not None else []
    for action in actions:
        if action.combat is not None:
            found.append(action.combat)
    for combat in list(found):
        if combat.after:
            found += _combats(None, combat.after)
    return found
