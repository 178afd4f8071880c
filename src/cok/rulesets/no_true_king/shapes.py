"""The shape of each No True King read (`core.shapes`): `cok standings`, `cok ntk status`,
`board` and `houses --json`, and the pages' `game`, `turn`, `resolving`, `cards`, `combat`
(`cok ntk combat --json`), `opening` and `picture`, as `GET /api/<name>` publishes them. The
documents are made in `documents.py`, `queries.py`, `offers.py`, `preview.py` and
`site/board.py`; these say what they hold (docs/no-true-king.md, "`--json` shapes"). None
holds a loyalty card before the game is over: the standings show each card, with the scores,
once it is."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, Field, RootModel

from cok.core.shapes import Document, Waited, of
from cok.rulesets.no_true_king.site.board import BoardPicture

Ruleset = Literal["no-true-king"]
Phase = Literal["setup", "placement", "resolution", "exchanges", "unseal", "over"]
Space = Literal["maester", "marshal", "lord"]
#: The plans an agent's space allows (offers.PLANS): its actions in the order taken.
Plan = Literal[
    "muster", "move", "draw", "muster move", "move muster", "muster draw", "draw muster", "move draw", "draw move"
]
#: A conspiracy's turn: what the ledger waits for from it (rules.turns.waiting_for).
TurnKind = Literal["place", "resolve", "card", "exchange", "unseal"]
#: A house's agent on the board: [house, space].
AgentAt = tuple[str, Space]
#: A card on a combat's table: [player, card] (card null: the player plays none).
OnTable = tuple[str, str | None]


# ---------------------------------------------------------------- standings


class HouseRanking(Document):
    """A house in rank order, with what its rank is counted from (§4.5)."""

    id: str
    rank: int = Field(description="1 for the first; houses equal in all four holdings share a rank (1, 2, 2, 4).")
    crowns: int
    castles: int
    towns: int
    barrels: int


class StandingConspiracy(Document):
    """A conspiracy in the standings: what is shown of it whether or not the game is over."""

    id: str
    name: str
    symbol: str
    revealed: int = Field(description="Its loyalty tokens turned face up.")
    cards: dict[str, int] = Field(description="House cards held, by house (houses it holds none of left out).")
    absent: bool = Field(description="Marked absent for missing deadlines in a row: its turns pass as they open.")


class ConspiracyInPlay(StandingConspiracy):
    """A conspiracy while the game goes on, in seat order (before the seats: in the order joined)."""

    score: None = Field(description="Null until the game is over.")
    rank: None = Field(description="Null until the game is over.")


class ConspiracyScored(StandingConspiracy):
    """A conspiracy once the game is over, in final order, with its loyalty card shown."""

    score: int = Field(description="Its points: 6, 4, 3, 2 for positions 1-4 of its card whose house holds that rank.")
    rank: int = Field(description="1 for the winner; every rank is different (the tie-breaks decide).")
    loyalty: list[str] = Field(description="Its loyalty card: the five houses, position 1 first.")
    decided_by: str | None = Field(
        description="What put it ahead of the next one: `points`, `fewer revealed tokens`, `more cards of H "
        "[and H]`, `nearer the next first player` (null: the last)."
    )


class StandingsInPlay(Document):
    """`cok standings --json` while the game goes on: the houses' ranking, no score, no card."""

    campaign: str
    ruleset: Ruleset
    over: Literal[False]
    houses: list[HouseRanking] = Field(description="In rank order (ties in the board's order).")
    players: list[ConspiracyInPlay]


class StandingsOver(Document):
    """`cok standings --json` once the game is over: every score and loyalty card."""

    campaign: str
    ruleset: Ruleset
    over: Literal[True]
    houses: list[HouseRanking] = Field(description="In rank order (ties in the board's order).")
    players: list[ConspiracyScored]


class StandingsDocument(RootModel[StandingsInPlay | StandingsOver]):
    """`cok standings --json`: scores and loyalty cards only once `over`."""


# ---------------------------------------------------------------- status


class AgentSpace(Document):
    """A house's space for an agent."""

    house: str
    space: Space


class AgentPlaced(AgentSpace):
    """An agent on the board and whose it is."""

    player: str


class PlayedCard(Document):
    """A card played from a phone on the combat's table, in turn."""

    player: str
    card: str | None = Field(description="Null: the player plays none.")


class WaitingToPlace(Document):
    """A conspiracy's turn to place an agent."""

    what: Literal["place"]
    player: str
    free: list[AgentSpace] = Field(description="The spaces still free, house by house in the board's order.")


class WaitingToResolve(Document):
    """A conspiracy's turn to resolve one of its agents."""

    what: Literal["resolve"]
    player: str
    agents: list[AgentSpace] = Field(description="The agents it may resolve now (the lowest space taken), sorted.")


class WaitingForACard(Document):
    """A conspiracy's turn to play a card, or none, in the combat the active player opened."""

    what: Literal["card"]
    player: str
    house: str = Field(description="The house moving into the combat.")
    area: str = Field(description="The area it enters.")
    played: list[PlayedCard] = Field(description="The cards on the table so far, in turn (the active player's first).")


class WaitingForAnother(Document):
    """What else the ledger waits for: a conspiracy's exchange or unsealing, or the organisers'
    setup (`conspiracy`, `begin`), or nothing (`over`)."""

    what: Literal["conspiracy", "begin", "exchange", "unseal", "over"]
    player: str | None = Field(description="Null for `conspiracy`, `begin` and `over`.")


Waiting = Annotated[
    WaitingToPlace | WaitingToResolve | WaitingForACard | WaitingForAnother, Field(discriminator="what")
]


class StatusDocument(Document):
    """`cok ntk status --json`: the round, the phase, whose turn it is and what is due."""

    campaign: str
    ruleset: Ruleset
    round: int = Field(description="0 before the game begins.")
    rounds: int = Field(description="As many as the seats (0 before the game begins).")
    first: str | None = Field(description="This round's first player (null before the game begins).")
    phase: Phase
    turn: str | None = Field(description="The active player (null in setup, unseal and over).")
    waiting_for: list[Waiting] = Field(description="In the order the table plays it (unseal: every player still to).")
    due: list[Waited] = Field(description="Soonest first; `due` null where no deadline is set.")
    absent: list[str] = Field(description="The conspiracies marked absent for missing deadlines in a row.")
    agents: list[AgentPlaced] = Field(description="The agents on the board, sorted by house and space.")


# ---------------------------------------------------------------- board, houses


class AreaRow(Document):
    """An area of the board, in the board's order."""

    area: str
    kind: Literal["land", "sea"]
    house: str | None = Field(description="The house controlling it: its troops, else its flag (null: nobody).")
    footmen: int
    knights: int
    ships: int
    flag: str | None = Field(description="The house whose flag stands there (null: none).")


class BoardDocument(Document):
    """`cok ntk board --json`."""

    campaign: str
    ruleset: Ruleset
    areas: list[AreaRow]


class Troops(Document):
    """Footmen, knights and ships."""

    footmen: int
    knights: int
    ships: int


class HouseRow(HouseRanking):
    """A house in rank order, with its troops on the board and its cards."""

    troops: Troops = Field(description="Its troops on the whole board.")
    cards: dict[str, int] = Field(description="Its cards held, by conspiracy (those holding none left out).")
    deck: int = Field(description="Its cards not yet drawn.")


class HousesDocument(Document):
    """`cok ntk houses --json`."""

    campaign: str
    ruleset: Ruleset
    houses: list[HouseRow]


# ---------------------------------------------------------------- the pages' reads


class ConspiracyShown(Document):
    """A conspiracy as the table sees it: never its card."""

    name: str
    symbol: str
    seal: str | None = Field(description="The SHA-256 seal of its card (null in an open game).")
    shown: list[str] = Field(description="Its five tokens, position 1 first: the house face up, or '' face down.")
    swaps: list[tuple[int, int]] = Field(description="Each exchange's two positions (0-4: 1-4 and left), in order.")
    unsealed: bool


class Grant(Document):
    """What a granting card gives its house if it wins (§4.4)."""

    house: str
    kind: Literal["move", "muster"]


class GameDocument(Document):
    """What every page at the table shows of the game (`GET /api/game`), all of it public."""

    phase: Phase
    round: int
    rounds: int
    loyalty: Literal["sealed", "open"]
    seats: list[str] = Field(description="Clockwise (empty before the game begins).")
    first: str | None
    players: dict[str, ConspiracyShown] = Field(description="By id, in the order joined.")
    houses: list[str] = Field(description="In the board's order.")
    waiting: str = Field(description="Whom the ledger waits for, in the pages' words.")
    table: list[OnTable] = Field(description="The cards played for the coming combat, in turn.")
    won_table: list[OnTable] = Field(description="The first combat's cards while Asha Greyjoy's move has its own.")
    fight_at: tuple[str, str] | None = Field(description="[house, area] of the combat `table` is for (null: none).")
    won_at: tuple[str, str] | None = Field(description="[house, area] of the first combat, while Asha's is played.")
    agents: list[AgentPlaced]
    grants: dict[str, Grant] = Field(description="The cards that grant their house a move or muster, by name.")


class TurnDocument(Document):
    """What the ledger waits for from a conspiracy (`GET /api/turn?player=P`)."""

    player: str
    what: TurnKind | None = Field(description="The first thing it waits for (null: nothing).")
    waits: list[TurnKind] = Field(description="Everything it waits for from it.")
    free: list[AgentAt] = Field(description="The free spaces, when it places (else empty).")
    resolvable: list[AgentAt] = Field(description="The agents it may resolve, when it resolves (else empty).")
    held: dict[str, int] = Field(description="The house cards it holds, by house.")


class MusterArea(Document):
    """An area the house may muster in: one with a barrel."""

    name: str
    barrels: int
    seas: list[str] = Field(description="The seas a ship mustered there may go to.")
    footmen: int = Field(description="The house's footmen there (to promote).")


class Route(Document):
    """A move the house's troops may make."""

    origin: str
    to: str
    against: str | None = Field(description="The house whose troops it fights (null: no combat).")
    mustered: bool = Field(description="From troops the agent's own muster puts there first.")
    value: str = Field(description="`FROM|TO`, as the form sends it.")


class Offer(Document):
    """What an agent's house may do now (§4.3)."""

    house: str
    points: int = Field(description="Its muster points: the barrels of the land it controls.")
    plans: list[Plan] = Field(description="The plans its space allows, each its actions in order.")
    musters: list[MusterArea]
    promotions: list[tuple[str, int]] = Field(description="[area, footmen there] where its footmen stand elsewhere.")
    routes: list[Route]
    drawable: bool = Field(description="Whether a card of the house may still be drawn.")
    home: list[str] = Field(description="Where its troops are, else the areas it controls: where its board opens.")


class ResolvingForm(Document):
    """The resolve form of one agent (`GET /api/resolving?player=P&agent=HOUSE:SPACE`)."""

    agents: list[AgentAt] = Field(description="The agents the conspiracy may resolve now.")
    agent: AgentAt = Field(description="The one asked for, else the first.")
    offer: Offer
    cards: list[tuple[str, str]] = Field(description="[house, card] it may play in the move's combat.")
    held_cards: list[str] = Field(description="The cards it holds and may play, sorted.")
    on_table: list[str] = Field(description="The cards on the tables already, sorted.")
    first_at: tuple[str, str] | None = Field(description="[house, area] of the agent's own move's combat, if open.")
    lannister_agents: list[Space] = Field(description="The Lannister agents Cersei Lannister could remove.")
    opponents: list[str] = Field(description="The other conspiracies, in seat order.")
    granted_offers: dict[str, Offer] = Field(
        description="Greyjoy's and Lannister's lords' offers: what Asha's move and Jaime's muster may do."
    )
    granted_by: dict[str, str] = Field(
        description="Asha Greyjoy or Ser Jaime Lannister played on the first table from another phone: card -> player."
    )


class NothingToResolve(Document):
    """No agent of the conspiracy may resolve now."""

    agents: list[AgentAt] = Field(max_length=0)
    agent: None


class ResolvingDocument(RootModel[ResolvingForm | NothingToResolve]):
    """An agent's resolve form, or nothing when no agent may resolve."""


class CardFacts(Document):
    """A house card as the board prints it."""

    name: str
    house: str
    strength: int
    swords: int
    towers: int


class CardsDocument(Document):
    """A conspiracy's turn to play a card in the open combat (`GET /api/cards?player=P`):
    empty (no houses, no choices, no facts) when no combat is open."""

    houses: list[str] = Field(description="The moving house and the house it fights (empty: no combat open).")
    granted: bool = Field(description="Whether it is Asha Greyjoy's granted move's combat.")
    choices: list[tuple[str, str]] = Field(description="[house, card] it may play.")
    facts: dict[str, CardFacts] = Field(description="Every house card of the board, by name (empty: no combat open).")


class Side(Document):
    """A side of the combat: its house, troops and power."""

    house: str
    units: Troops
    power: int = Field(description="Its troops', fort's and cards' strength.")


class Defending(Side):
    """The defending side: also its fort."""

    fort: int = Field(description="The defender's fort bonus (after Brienne and Catelyn).")


class InPlay(Document):
    """A house's cards still in play and who holds its cards."""

    cards: list[str] = Field(description="Its cards not yet played, in the board's order.")
    held: dict[str, int] = Field(description="Its cards held, by conspiracy.")


class Ending(Document):
    """What follows if one house wins."""

    winner: str
    loser: str
    killed: dict[str, Troops] = Field(description="Each house's troops killed.")
    retreats: list[str] = Field(description="Where the loser may retreat (empty: all killed).")
    none_left: bool = Field(description="Retreats exist, but the casualties take every figure that could go.")


class CombatDocument(Document):
    """`cok ntk combat --json`: a combat worked out before it is recorded."""

    area: str
    attacker: Side
    defender: Defending
    cards_played: list[PlayedCard] = Field(description="In play order.")
    cards_in_play: dict[str, InPlay] = Field(description="By house: the attacker's and the defender's.")
    winner: str | None = Field(description="The house stronger on power (null: a tie, the active player names it).")
    endings: list[Ending] = Field(description="If the attacker wins, then if the defender does.")


class OpeningDocument(Document):
    """Whether a resolve's move opens the cards' table (`GET /api/opening?house=H&actions=[…]`)."""

    table: str | None = Field(description="The area where the move opens the table (null: it does not).")
    granted_table: str | None = Field(description="The area where Asha Greyjoy's granted move opens its own.")
    fights: bool = Field(description="Whether the move fights at all.")
    granted_fights: bool = Field(description="Whether the granted move into `granted_to` fights.")


SHAPES: dict[str, type[BaseModel]] = {
    "standings": StandingsDocument,
    "status": StatusDocument,
    "board": BoardDocument,
    "houses": HousesDocument,
    "game": GameDocument,
    "turn": TurnDocument,
    "resolving": ResolvingDocument,
    "cards": CardsDocument,
    "combat": CombatDocument,
    "opening": OpeningDocument,
    # the board as the site draws it (`cok map --svg`), shaped as the dataclasses it is made of
    "picture": of(BoardPicture, "Picture", "PictureDocument"),
}
