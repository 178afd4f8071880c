"""The events of a Mighty Kingdoms log (contract section 4): one frozen pydantic model per
type; the core adds `void`. Tiles are names or `"q,r"`, resolved against the map by the rules."""

# No `from __future__ import annotations` here: pydantic would then evaluate every field's
# annotation from its text when the models are made, at each start (~10% of making them).

from typing import Annotated, Any, Literal, Self

from pydantic import BeforeValidator, ConfigDict, Field, StringConstraints, model_validator

from cok.core.events import EventBase, PlayerId, Text


def _tile_text(value: Any) -> Any:
    """A tile written as a number is a YAML slip, not a tile: `[3,-2]` inside a flow list is
    two numbers. Say how to write it."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        raise ValueError(
            f'{value!r} is a number, not a tile: write a tile by name or as "q,r" in quotes '
            "(inside [...] or {...} a bare 3,-2 is two numbers)"
        )
    if isinstance(value, list):
        raise ValueError(f'write a tile as "q,r" in quotes, not as a list {value!r}')
    return value


TileRef = Annotated[Text, BeforeValidator(_tile_text)]
ArmyId = Annotated[str, StringConstraints(pattern=r"^[a-z0-9_-]+-[1-9][0-9]*$", max_length=80)]
Die = Annotated[int, Field(ge=1, le=6)]
TwoDice = Annotated[list[Die], Field(min_length=2, max_length=2)]
Change = Annotated[int, Field(ge=-1, le=1)]
Units = dict[Text, Annotated[int, Field(ge=-5, le=10)]]


def _tile_list(value: Any) -> Any:
    """`[-3,5, -3,6]` is four numbers to YAML: say so before counting the items."""
    if isinstance(value, list) and any(isinstance(v, (int, float)) and not isinstance(v, bool) for v in value):
        shown = ", ".join(str(v) for v in value)
        raise ValueError(f'[{shown}] is a list of numbers, not of tiles: write each tile "q,r" in quotes')
    return value


TwoVillages = Annotated[list[TileRef], BeforeValidator(_tile_list), Field(min_length=2, max_length=2)]
Players = list[PlayerId]
Armies = list[ArmyId]


class Kingdom(EventBase):
    """Setup: a player founds a kingdom (setup steps A–E)."""

    type: Literal["kingdom"] = "kingdom"
    player: PlayerId
    name: Text | None = None
    race: Text
    capital: TileRef
    city: TileRef
    fortress: TileRef
    villages: TwoVillages
    army: TileRef
    list: Text | None = None
    units: Units | None = None


class Begin(EventBase):
    """The organiser closes setup."""

    type: Literal["begin"] = "begin"
    order: Players | None = None


class Order(EventBase):
    """One army's order for this month."""

    type: Literal["order"] = "order"
    army: ArmyId
    order: Literal["move", "defend", "raze", "regroup"]
    to: TileRef | None = None

    @model_validator(mode="after")
    def _to_only_for_moves(self) -> Self:
        if self.order == "move" and self.to is None:
            raise ValueError("a move needs `to`: the adjacent tile the army moves into")
        if self.order != "move" and self.to is not None:
            raise ValueError(f"only a move has `to` (this is a {self.order} order)")
        return self


class Resolve(EventBase):
    """Resolving one army's order, in resolution order."""

    type: Literal["resolve"] = "resolve"
    army: ArmyId
    roll: TwoDice | None = None
    reroll: TwoDice | None = None


class Battle(EventBase):
    """A battle in a contested tile (simple: dice and allocations; Kings of War: the result)."""

    type: Literal["battle"] = "battle"
    tile: TileRef
    attacker: PlayerId
    defender: PlayerId
    result: PlayerId | None = None
    dice: dict[ArmyId, Die] | None = None
    allocate: list[Annotated[list[ArmyId], Field(min_length=2, max_length=2)]] | None = None
    retreat: dict[ArmyId, TileRef] | None = None
    advance: dict[ArmyId, TileRef] | None = None
    strength: dict[ArmyId, dict[Text, Change]] | None = None
    slaughter: ArmyId | None = None

    @model_validator(mode="after")
    def _slaughter_alone(self) -> Self:
        if self.slaughter is not None:
            extra = [f for f in ("result", "dice", "allocate", "retreat", "advance", "strength") if getattr(self, f)]
            if extra:
                raise ValueError(f"a slaughter is the whole battle: drop {', '.join(extra)}")
        if self.advance is not None and len(self.advance) > 1:
            raise ValueError("`advance` moves one army at most")
        return self


class Reform(EventBase):
    """The organiser closes the month: the ledger applies the whole Reform step."""

    type: Literal["reform"] = "reform"
    order: Players | None = None


class Winter(EventBase):
    """Winter begins: recall and gather, with recall's choices."""

    type: Literal["winter"] = "winter"
    recall: dict[PlayerId, TileRef] = Field(default_factory=dict)


class Tithe(EventBase):
    """Up to 1 gold and up to 1 food from one kingdom to another."""

    type: Literal["tithe"] = "tithe"
    from_: PlayerId = Field(alias="from")
    to: PlayerId
    gold: Annotated[int, Field(ge=0, le=1)] = 0
    food: Annotated[int, Field(ge=0, le=1)] = 0

    model_config = ConfigDict(**{**EventBase.model_config, "validate_by_name": True, "serialize_by_alias": True})


class Build(EventBase):
    """A settlement built or upgraded on a tile the kingdom controls."""

    type: Literal["build"] = "build"
    player: PlayerId
    tile: TileRef
    settlement: Literal["village", "city", "fortress", "capital"]


class Recruit(EventBase):
    """A new army at a fortress (1 gold)."""

    type: Literal["recruit"] = "recruit"
    player: PlayerId
    tile: TileRef
    list: Text | None = None
    units: Units | None = None
    disband: ArmyId | None = None
    allied: bool = False


class Feed(EventBase):
    """A kingdom feeds its armies; those in `unfed` are removed."""

    type: Literal["feed"] = "feed"
    player: PlayerId
    unfed: Armies = Field(default_factory=list)


class Deploy(EventBase):
    """An army placed on a settlement of its kingdom for the new year."""

    type: Literal["deploy"] = "deploy"
    army: ArmyId
    tile: TileRef


class Spring(EventBase):
    """The organiser closes winter: the next year's month 1 begins."""

    type: Literal["spring"] = "spring"
    order: Players | None = None


def _older_quest_shape(schema: dict[str, Any]) -> None:
    """The schema also reads a log written before `points`: `bonus` alone (the upcast reads it
    as points), never both."""
    schema["properties"]["bonus"] = {
        "type": "integer",
        "minimum": 0,
        "description": "An older log's +1s to the roll: read as `points` of 100 each.",
    }
    schema["not"] = {"required": ["points", "bonus"]}


class Quest(EventBase):
    """Wizard's towers: a hero's quest in winter. `points` is the hero's cost on its list: the
    rules add 1 to the roll for every full 100 (the source's quest rule)."""

    model_config = ConfigDict(**{**EventBase.model_config, "json_schema_extra": _older_quest_shape})

    type: Literal["quest"] = "quest"
    player: PlayerId
    tower: TileRef
    army: ArmyId | None = None
    hero: Text
    roll: Die
    points: Annotated[int, Field(ge=0, description="The hero's points on its list: +1 to the roll per full 100.")] = 0
    artefact: Text | None = None

    @model_validator(mode="before")
    @classmethod
    def _points_or_bonus(cls, data: Any) -> Any:
        """What the upcast leaves: `bonus` is read as points only when `points` is absent."""
        if not isinstance(data, dict) or "bonus" not in data:
            return data
        if "points" in data:
            raise ValueError(
                "give the hero's `points` (the ledger works out the bonus), or in an older log "
                "`bonus`, never both: drop `bonus`"
            )
        raise ValueError(
            f"`bonus` (an older log's +1s to the roll) is a whole number, 0 or more (got {data['bonus']!r}); "
            "better, give the hero's `points`"
        )


class Artefact(EventBase):
    """Wizard's towers: an artefact changes hands, or is lost to the pool; `override` is the
    organiser's reason when the ledger sees no cause for the hand-over (5.7)."""

    type: Literal["artefact"] = "artefact"
    artefact: Annotated[str, StringConstraints(pattern=r"^art-[1-9][0-9]*$")]
    to: PlayerId
    override: Text | None = Field(
        default=None, description="The organiser's reason, when the ledger sees no cause for the hand-over."
    )


EVENT_TYPES: dict[str, type[EventBase]] = {
    cls.model_fields["type"].default: cls
    for cls in (
        Kingdom,
        Begin,
        Order,
        Resolve,
        Battle,
        Reform,
        Winter,
        Tithe,
        Build,
        Recruit,
        Feed,
        Deploy,
        Spring,
        Quest,
        Artefact,
    )
}


def involved(event: EventBase) -> frozenset[str]:
    """The players an event is about (`cok log --player`, and the ledger's clock after every
    event of a campaign with deadlines: its fields read from the model's own dict, as a missing
    attribute costs pydantic an exception)."""
    found: set[str] = set()
    fields = vars(event)
    for field in ("player", "attacker", "defender", "to", "from_"):
        value = fields.get(field)
        if (isinstance(value, str) and field != "to") or (field == "to" and isinstance(event, (Tithe, Artefact))):
            found.add(str(value))
    for field in ("army", "slaughter", "disband"):
        value = fields.get(field)
        if isinstance(value, str) and not isinstance(event, Kingdom):  # a founding's `army` is its tile
            found.add(value.rsplit("-", 1)[0])
    found.discard("pool")
    return frozenset(found)
