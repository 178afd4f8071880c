"""The shape of each Mighty Kingdoms read (`core.shapes`): `cok standings`, `cok mk status`,
`kingdoms`, `armies` and `battles --json`, and the pages' `offers`, `targets`, `towers`,
`phase`, `recalls`, `rules`, `artefacts` and `picture`, as `GET /api/<name>` publishes them.
The documents are made in `documents.py`, `queries.py`, `offers.py`, `reports.py` and
`site/svg.py`; these say what they hold (docs/mighty-kingdoms.md, "`--json` shapes"). Tiles
are always written "q,r"."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, Field, RootModel

from cok.core.shapes import Document, Waited, of
from cok.rulesets.mighty_kingdoms.site.svg import MapPicture

Phase = Literal["setup", "orders", "resolution", "battles", "reform", "winter", "deploy"]
Season = Literal["summer", "winter"]
OrderGiven = Literal["move", "defend", "raze", "regroup"]
Settlement = Literal["village", "city", "fortress", "capital"]
Band = Literal["5-15", "20-30", "rare"]


# ------------------------------------------------------------------------------ standings


class KingdomStanding(Document):
    """A kingdom in the standings, in rank order (ties by founding order)."""

    rank: int = Field(description="1 for the first; kingdoms tied on settlements and tiles share a rank.")
    id: str
    name: str
    race: str
    settlements: int = Field(description="Tiles it controls that hold a settlement (its capital among them).")
    tiles: int = Field(description="Tiles it controls.")
    armies: int
    capital: bool = Field(description="Whether it still controls its own capital.")
    absent: bool = Field(description="Marked absent for missing deadlines in a row: its defaults are recorded at once.")


class StandingsDocument(Document):
    """`cok standings --json` on a Mighty Kingdoms campaign: the source names no winner, so the
    kingdoms are ranked by settlements, then tiles."""

    campaign: str
    ruleset: Literal["mighty-kingdoms"]
    year: int | None = Field(description="From 1 (null: setup).")
    season: Season | None = Field(description="Null in setup.")
    month: int | None = Field(description="1 to 6 in summer (null: setup and winter).")
    ranked_by: list[Literal["settlements", "tiles"]] = Field(description='Always ["settlements", "tiles"].')
    kingdoms: list[KingdomStanding]


# ---------------------------------------------------------------------------------- status


class KingdomWait(Document):
    """Setup, fewer than two kingdoms founded."""

    what: Literal["kingdom"]
    needed: int = Field(description="How many more kingdoms must be founded before `begin`.")


class BeginWait(Document):
    """Setup, two kingdoms or more founded: the organisers' `begin`."""

    what: Literal["begin"]


class OrderWait(Document):
    """Orders phase: one per army still without an order this month, in player order."""

    what: Literal["order"]
    army: str


class ResolveWait(Document):
    """Resolution phase: whose turn it is to resolve (round the table)."""

    what: Literal["resolve"]
    player: str | None = Field(description="The kingdom resolving next.")
    armies: list[str] = Field(description="Its armies whose orders are not resolved yet.")


class BattleWait(Document):
    """Battles phase: who chooses the next battle, and where they may."""

    what: Literal["battle"]
    attacker: str | None
    tiles: list[str] = Field(description="The contested tiles the attacker may choose, in tile order.")


class OrganisersWait(Document):
    """The organisers' `reform` (end of a month) or `spring` (end of winter) event."""

    what: Literal["reform", "spring"]
    order_needed: bool = Field(description="Kingdoms are tied on armies: the event needs the roll-off's order.")


class WinterWait(Document):
    """Winter not begun: the organisers' `winter` event (recall and gather)."""

    what: Literal["winter"]
    recall_needed: list[str] = Field(description="The kingdoms without a capital that must say where to recall to.")


class FeedWait(Document):
    """Winter begun: one per kingdom not yet fed, in player order."""

    what: Literal["feed"]
    player: str


class DeployWait(Document):
    """Deploy phase: one per army recalled and still to deploy, in player order."""

    what: Literal["deploy"]
    army: str


Waiting = Annotated[
    KingdomWait
    | BeginWait
    | OrderWait
    | ResolveWait
    | BattleWait
    | OrganisersWait
    | WinterWait
    | FeedWait
    | DeployWait,
    Field(discriminator="what"),
]


class StatusDocument(Document):
    """`cok mk status --json`: where the year stands, what the ledger waits for, and when each
    wait is due (docs/deadlines.md)."""

    campaign: str
    ruleset: Literal["mighty-kingdoms"]
    year: int | None = Field(description="From 1 (null: setup).")
    season: Season | None = Field(description="Null in setup.")
    month: int | None = Field(description="1 to 6 in summer (null: setup and winter).")
    phase: Phase
    player_order: list[str] = Field(description="The kingdoms' ids in player order (in setup: as founded).")
    waiting_for: list[Waiting] = Field(description="What the ledger waits for next, most pressing first.")
    due: list[Waited] = Field(description="Each wait with its due time, soonest first; `due` null without a deadline.")
    absent: list[str] = Field(description="The kingdoms marked absent, in player order.")


# -------------------------------------------------------------------------- kingdoms, armies


class KingdomArmy(Document):
    """An army as `cok mk kingdoms` lists it: the keys after `allied` are there only when they
    say something (absent: the default shown)."""

    id: str
    tile: str
    points: int
    upright: bool = Field(description="False: on its side.")
    order: OrderGiven | None = Field(description="This month's order (null: none yet).")
    allied: bool = Field(description="Recruited as the kingdom's allied army (Kings of War).")
    to: str | None = Field(None, description="Only with a `move` order: the tile it moves into.")
    deployed: bool = Field(True, description="Only in winter, false: recalled and not deployed yet.")
    defending: bool = Field(False, description="Only when true: it defends this month.")
    list: str | None = Field(None, description="Only when recorded: its army list (Kings of War).")
    units: dict[str, int] | None = Field(
        None,
        description="Only when its units are recorded or changed: each unit's Unit Strength now, uncapped, by name.",
    )


class ArmyOfAKingdom(KingdomArmy):
    """An army as `cok mk armies` lists it: also its kingdom."""

    player: str


class HeldArtefact(Document):
    """An artefact a kingdom holds."""

    id: str = Field(description="art-1, art-2 …")
    name: str | None = Field(description="As the quest named it (null: unnamed).")
    points: Band = Field(description="Its points band.")


class RecruitTerrain(Document):
    """What a recruit at a fortress may include (5.7b: its terrain and its neighbours')."""

    monsters: bool
    war_machines: bool


class KingdomRow(Document):
    """A kingdom in `cok mk kingdoms --json`, in founding order."""

    id: str
    name: str
    race: str
    capital: str | None = Field(description="Its own capital's tile while it controls it (null: lost).")
    tiles: int
    villages: int
    cities: int = Field(description="Cities it controls, another kingdom's capital among them; its own apart.")
    fortresses: int
    armies: list[KingdomArmy] = Field(description="By army number.")
    gold: int
    food: int
    artefacts: list[HeldArtefact]
    recruit_terrain: dict[str, RecruitTerrain] | None = Field(
        None, description="Only with `advanced: [terrain-recruits]`: by the tile of each fortress it controls."
    )


class KingdomsDocument(Document):
    """`cok mk kingdoms --json`: each kingdom's tiles, settlements, armies and resources."""

    kingdoms: list[KingdomRow]


class ArmiesDocument(Document):
    """`cok mk armies [--player P] --json`: every army (or one kingdom's), by kingdom in founding
    order, then number."""

    armies: list[ArmyOfAKingdom]


# ---------------------------------------------------------------------------------- battles


class BattleArmy(Document):
    """An army on a contested tile."""

    id: str
    points: int
    upright: bool
    defending: bool
    defence: int | None = Field(
        None, description="Only in simple battles, and only upright: points ÷ 100, +1 when defending."
    )


class BattleSide(Document):
    """One kingdom's armies on a contested tile."""

    player: str
    armies: list[BattleArmy]


class Battle(Document):
    """A contested tile: a kingdom's upright army and another kingdom's armies."""

    tile: str
    name: str | None = Field(description="The tile's name on the map (null: unnamed).")
    holder: str | None = Field(description="The kingdom controlling the tile (null: nobody).")
    settlement: Settlement | None
    board: str = Field(description="The board size for the most upright armies a side has, e.g. 6'×4'.")
    defended_by: list[str] = Field(description="The kingdoms with a defending army there, sorted.")
    benefit: str | None = Field(description="The defender's terrain benefit (null: nobody defends).")
    sides: list[BattleSide] = Field(description="In player order.")


class BattlesDocument(Document):
    """`cok mk battles --json`: the contested tiles in tile order, and who chooses next."""

    phase: Phase
    attacker: str | None = Field(description="Who chooses the next battle (null: not the battles phase).")
    battles: list[Battle]


# ----------------------------------------------------------------------------------- offers


class OfferTile(Document):
    """A tile as a page names it (`label`: its name, else its `q,r`) and as a form sends it (`key`)."""

    key: str
    label: str


class Orderable(Document):
    """An army with no order yet this month, and the orders it may take (5.2)."""

    id: str
    at: OfferTile
    orders: list[OrderGiven]
    moves: list[OfferTile] = Field(description="The tiles a `move` may go into.")


class Resolvable(Document):
    """An army of the kingdom whose order is not resolved yet (5.3)."""

    id: str
    order: OrderGiven
    at: OfferTile
    to: OfferTile | None = Field(description="A move's target (null: not a move).")
    explores: bool = Field(description="Resolving it rolls 2D6 on the exploration table.")


class Fight(Document):
    """A battle the kingdom may choose now (5.4)."""

    tile: OfferTile
    enemies: list[str] = Field(description="The kingdoms it may fight there.")
    armies: list[str] = Field(description="Every army in the tile, upright ones first.")
    upright: list[str]


class Building(Document):
    """A tile of the kingdom where it can afford to build (5.6 step 4)."""

    tile: OfferTile
    was: Settlement | None = Field(description="Its settlement as the kingdom sees it (null: none).")
    may_become: list[tuple[Settlement, int, int]] = Field(description="Each [settlement, gold, food] it can afford.")


class Deployable(Document):
    """An army to deploy (5.6 step 6), and where it may."""

    id: str
    tiles: list[tuple[OfferTile, int]] = Field(description="Each [tile, room left] of the kingdom's settlements.")


class ArmyState(Document):
    """One of the kingdom's armies, every field the ledger keeps."""

    id: str
    player: str
    tile: str
    points: int
    upright: bool
    allied: bool
    list: str | None = Field(description="Its army list (null: none recorded).")
    units: dict[str, int] | None = Field(description="Unit Strength as listed (null: recorded without units).")
    changes: dict[str, int] = Field(description="Unit Strength changes since, by unit.")
    order: OrderGiven | None = Field(description="This month's order (null: none yet).")
    order_id: str | None = Field(description="The id of the event that gave it (null: none, or written without one).")
    to: str | None = Field(description="A move's target.")
    resolved: bool
    defending: bool
    slowed: bool = Field(description="Moved across a mountain or forest side or into a river this month.")
    deployed: bool = Field(description="False in winter until its `deploy`.")


class OffersDocument(Document):
    """What a kingdom may do now (`GET /api/offers?player=P`): its page's forms. The lists are
    empty except those of the phase it acts in."""

    player: str = Field(description="The kingdom's id.")
    name: str
    phase: Phase
    waiting: str = Field(description="Whom the ledger waits for, in words.")
    waits_for_me: bool = Field(description="The ledger waits for this kingdom (or may take its event now).")
    gold: int
    food: int
    orders: list[Orderable] = Field(description="Orders phase: its armies without an order.")
    resolve: list[Resolvable] = Field(description="Resolution phase, its turn: its unresolved armies.")
    fights: list[Fight] = Field(description="Battles phase, its choice: where it may fight.")
    tithe_to: list[tuple[str, str]] = Field(description="Winter: each [id, name] of a kingdom it may tithe to.")
    builds: list[Building] = Field(description="Winter: what it can afford to build.")
    recruit_at: list[OfferTile] = Field(description="Winter: its fortresses that have not recruited.")
    disband: list[str] = Field(description="Winter, at the army limit: the armies a recruit disbands one of.")
    feed: list[str] = Field(description="Winter: its armies, to feed or not.")
    deploy: list[Deployable] = Field(description="Deploy phase: its armies to deploy.")
    armies: list[ArmyState] = Field(description="Every army of the kingdom, by number.")
    due: str | None = Field(description="When the ledger's wait for it is due, ISO 8601 (null: no deadline).")
    if_missed: str = Field(description='What is recorded for it then, in words ("" without a deadline).')


# -------------------------------------------------------------- targets, towers, recalls …


class TargetTile(Document):
    tile: str
    label: str = Field(description="Its name and `q,r`, or its `q,r`.")


class TargetsDocument(Document):
    """The tiles an army may move into now (`GET /api/targets?player=P&army=A`)."""

    tiles: list[TargetTile] = Field(description="Empty unless the army is the kingdom's, upright and without an order.")
    around: str | None = Field(
        description="The tile a phone's map opens on: the army's when it may move, else the capital, else "
        "one of the kingdom's tiles or armies, else the map's first tile."
    )


class NamedTile(Document):
    """A tile a page offers by its name (a tower to quest at, a tile to recall to)."""

    tile: str = Field(description="Its `q,r`.")
    name: str = Field(description="The tile's name, else its `q,r`.")


class TowersDocument(Document):
    """The wizard's towers a kingdom may send a hero to now (5.7; `GET /api/towers?player=P`)."""

    towers: list[NamedTile] = Field(description="In tile order.")


class PhaseDocument(Document):
    """Where the campaign is and whom it waits for (`GET /api/phase`): the pages' heading."""

    words: str = Field(description="E.g. `month 3 of year 1, orders phase: waiting for an order for ana-2`.")
    waiting: str = Field(description="Whom the ledger waits for alone, in words.")


class RecallsDocument(RootModel[dict[str, list[NamedTile]]]):
    """In winter before it begins, by kingdom without its capital: the tiles its armies may be
    recalled to (5.8 Recall). Empty otherwise."""


class RulesDocument(Document):
    """The campaign's own rules from campaign.yaml (`GET /api/rules`)."""

    battles: Literal["simple", "kings-of-war"]
    army_limit: int
    advanced: list[Literal["wizards-towers", "terrain-recruits"]]
    kings_of_war: bool = Field(description='`battles` is "kings-of-war".')
    towers: bool = Field(description="The wizards-towers rule is in play.")


class ArtefactRow(HeldArtefact):
    """An artefact brought back from a quest, and who holds it."""

    holder: str = Field(description='A kingdom\'s id, or "pool".')


class ArtefactsDocument(Document):
    """Every artefact brought back from a quest (5.7; `GET /api/artefacts`), in the order found."""

    artefacts: list[ArtefactRow]


SHAPES: dict[str, type[BaseModel]] = {
    "standings": StandingsDocument,
    "status": StatusDocument,
    "kingdoms": KingdomsDocument,
    "armies": ArmiesDocument,
    "battles": BattlesDocument,
    "offers": OffersDocument,
    "targets": TargetsDocument,
    "towers": TowersDocument,
    "phase": PhaseDocument,
    "recalls": RecallsDocument,
    "rules": RulesDocument,
    "artefacts": ArtefactsDocument,
    # the map as the site draws it (`cok map --svg`), shaped as the dataclasses it is made of
    "picture": of(MapPicture, "Picture", "PictureDocument"),
}
