"""No True King's reads, by name: the one home of each document `cok ntk … --json`, the pages
at the table and `GET /api/<name>` show (`service.queries.read`). None holds a sealed loyalty
card before the game is over (docs/no-true-king.md)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, cast

if TYPE_CHECKING:
    from cok.core.ruleset import Campaign, Query
    from cok.rulesets.no_true_king.offers import Offer

RULESET = "no-true-king"


def status(campaign: Campaign) -> dict[str, Any]:
    """`cok ntk status --json`: the round, the phase, whose turn it is and whom the ledger waits
    for, and when each turn is due (issue 48: `service.deadlines`, as every game's status)."""
    from cok.core.campaign import Campaign as Opened
    from cok.rulesets.no_true_king.documents import status_doc
    from cok.service.deadlines import absent, pending

    opened = cast(Opened, campaign)  # the one the service opened: its game and its state
    return status_doc(campaign.name, campaign.state, pending(opened), absent(opened))


def board(campaign: Campaign) -> dict[str, Any]:
    """`cok ntk board --json`: per area, who controls it, its troops and flag."""
    from cok.rulesets.no_true_king.documents import board_doc

    return {"campaign": campaign.name, "ruleset": RULESET, "areas": board_doc(campaign.state)}


def houses(campaign: Campaign) -> dict[str, Any]:
    """`cok ntk houses --json`: per house, its ranking, holdings, troops and cards held by whom."""
    from cok.rulesets.no_true_king.documents import houses_table_doc

    return {"campaign": campaign.name, "ruleset": RULESET, "houses": houses_table_doc(campaign.state)}


def game(campaign: Campaign) -> dict[str, Any]:
    """What every page at the table shows of the game, all of it public: the phase and round,
    the conspiracies (names, symbols, seals, the tokens they turned face up, the positions
    their exchanges swapped), the seats, the houses, whom the ledger waits for in words, and
    the cards on the combat's table. Never a loyalty card."""
    from cok.rulesets.no_true_king.rules.combat import GRANTS
    from cok.rulesets.no_true_king.words import waiting_words

    state = campaign.state
    players = {
        pid: {
            "name": p.name,
            "symbol": p.symbol,
            "seal": p.seal,
            "shown": list(p.shown),
            "swaps": [[a, b] for _, _, a, b, _, _ in p.exchanges],  # public in the log
            "unsealed": p.unsealed,
        }
        for pid, p in state.players.items()
    }
    return {
        "phase": state.phase,
        "round": state.round,
        "rounds": state.rounds,
        "loyalty": state.loyalty,
        "seats": list(state.seats),
        "first": state.first,
        "players": players,
        "houses": list(state.board.houses),
        "waiting": waiting_words(state),
        "table": [[p, c] for p, c in state.table],
        "won_table": [[p, c] for p, c in state.won_table],
        "fight_at": state.fight_at,
        "won_at": state.won_at,
        "agents": [{"house": h, "space": s, "player": p} for (h, s), p in state.agents.items()],
        "grants": {c: {"house": h, "kind": k} for c, (h, k) in GRANTS.items()},  # §4.4: Asha, Jaime
    }


def turn(campaign: Campaign, player: str = "") -> dict[str, Any]:
    """What the ledger waits for from a conspiracy (§4): the first thing (`what`: place,
    resolve, card, exchange, unseal, or None), everything (`waits`), the free spaces when it
    places, the agents it may resolve when it resolves, and the house cards it holds."""
    from cok.rulesets.no_true_king.offers import turn_of

    state = campaign.state
    player = _player(campaign, player)
    found = turn_of(state, player)
    return {
        "player": player,
        "what": found.what,
        "waits": list(found.waits),
        "free": found.free,
        "resolvable": found.resolvable,
        "held": state.cards_held(player),
    }


def resolving(campaign: Campaign, player: str = "", agent: str = "") -> dict[str, Any]:
    """The resolve form of one of the conspiracy's agents (`agent`: HOUSE:SPACE, else the first
    that may resolve, §4.2.2): the agents it may resolve, its house's legal choices (`offer`),
    the cards it may play and what they would grant (Asha's move, Jaime's muster: the offers
    of Greyjoy's and Lannister's lords), the agents Cersei could remove, the opponents, the
    cards on the table already, and the granting cards another player played there
    (`granted_by`: card -> player). Empty (`agent` None) when no agent may resolve."""
    from cok.rulesets.no_true_king.offers import agents_to_resolve, cards_held, cards_to_play, offer

    state = campaign.state
    player = _player(campaign, player)
    agents = agents_to_resolve(state, player)
    chosen = next((a for a in agents if f"{a[0]}:{a[1]}" == agent), agents[0] if agents else None)
    if chosen is None:
        return {"agents": agents, "agent": None}
    house, space = chosen
    found = offer(state, house, space)
    granted = {h: _offer_doc(offer(state, h, "lord")) for h in ("greyjoy", "lannister") if h in state.board.houses}
    return {
        "agents": agents,
        "agent": chosen,
        "offer": _offer_doc(found),
        "cards": cards_to_play(state, player, found),
        "held_cards": sorted(cards_held(state, player)),
        "on_table": sorted({c for _, c in [*state.won_table, *state.table] if c}),  # played on the tables already
        "first_at": state.won_at or state.fight_at,  # the agent's own move's combat (Asha's comes after it)
        # Cersei removes an agent still unresolved: never the one resolving now (§4.4)
        "lannister_agents": [
            s for (h, s), p in state.agents.items() if h == "lannister" and p is not None and (h, s) != chosen
        ],
        "opponents": [p for p in state.seats if p != player],
        "granted_offers": granted,
        "granted_by": granted_by_others(state, player),
    }


def granted_by_others(state: Any, player: str) -> dict[str, str]:
    """Asha Greyjoy and Ser Jaime Lannister on the first combat's table, played from another
    phone: card -> its player. If their house wins, that player takes the move (muster) (§4.4);
    the resolve carries it in `after`, so the active player's form asks for that player's choice."""
    from cok.rulesets.no_true_king.rules.combat import GRANTS

    first = state.won_table if state.won_at is not None else state.table
    return {c: p for p, c in first if c in GRANTS and p != player}


def cards(campaign: Campaign, player: str = "") -> dict[str, Any]:
    """A conspiracy's turn to play a card in the combat the active player opened (§4.4): the
    two houses fighting, whether it is Asha Greyjoy's granted move, the cards it may play
    (house, card) and each card's strength, swords and towers. Empty when no combat is open."""
    from cok.rulesets.no_true_king.offers import card_turn

    state = campaign.state
    player = _player(campaign, player)
    if state.fight_at is None:
        return {"houses": [], "granted": False, "choices": [], "facts": {}}
    return card_turn(state, player)


def combat(
    campaign: Campaign,
    house: str = "",
    origin: str = "",
    to: str = "",
    units: Sequence[str] | str = (),
    card: str = "",
    player: str | None = None,
    before: str = "[]",
) -> dict[str, Any]:
    """`cok ntk combat --json` before a resolve's move into another house's troops: both
    sides' power after what the plan does first (`before`: its actions, as the log writes them,
    in JSON), the cards in play (those on the table, else `player`'s own `card`), and for
    either winner the casualties and retreats."""
    import json

    from cok.core.errors import RuleError
    from cok.rulesets.no_true_king.preview import preview, preview_doc

    if not (house and origin and to):
        raise RuleError("combat needs a `house`, the area it moves from (`origin`) and the area it moves `to`")
    state = campaign.state
    if isinstance(units, str):
        units = [u.strip() for u in units.split(",") if u.strip()]
    first = state.won_table if state.won_at is not None else state.table  # Asha's table comes after the first
    played: dict[str, str | None] = (
        {p: c for p, c in first if c} if first else ({player: card} if player and card else {})
    )
    done = json.loads(before)
    if not isinstance(done, list):
        raise ValueError("before: the actions as a JSON list")
    return preview_doc(preview(state, house, origin, to, list(units), played, player, done))


def opening(
    campaign: Campaign,
    house: str = "",
    actions: str = "[]",
    card: str = "",
    then: str = "",
    then_route: str = "",
    granted_to: str = "",
) -> dict[str, Any]:
    """What a resolve's form does before it is recorded (§4.4), from its fields: the area where
    its move opens the cards' table (`table`: the others play theirs first, each from their own
    phone), else where Asha Greyjoy's granted move (`then` move, `then_route` FROM|TO) opens its
    own (`granted_table`); whether the move fights at all (`fights`), and whether the granted
    move into `granted_to` does (`granted_fights`). `actions`: the resolve's actions as the log
    writes them, in JSON."""
    import json

    from cok.core.errors import RuleError
    from cok.rulesets.no_true_king.intents import empty_combat
    from cok.rulesets.no_true_king.offers import asha_fights, opens_the_granted_table, opens_the_table

    if not house:
        raise RuleError("give the resolving agent's `house`")
    state = campaign.state
    taken = json.loads(actions)
    if not isinstance(taken, list) or not all(isinstance(a, dict) for a in taken):
        raise ValueError("actions: the resolve's actions as a JSON list")
    form = {"card": card, "then": then, "then-route": then_route}
    return {
        "table": opens_the_table(state, house, taken, form),
        "granted_table": opens_the_granted_table(state, form),
        "fights": house in state.board.houses and empty_combat(state, house, taken) is not None,
        "granted_fights": bool(granted_to) and asha_fights(state, granted_to),
    }


def picture(campaign: Campaign) -> dict[str, Any]:
    """The board as the site draws it (`cok map --svg`): borders, areas placed, their icons
    and troops, the legend; the picture the resolve form rings its offer's areas on."""
    import dataclasses

    from cok.rulesets.no_true_king.site.board import board_picture

    state = campaign.state
    return dataclasses.asdict(board_picture(state, state.board.name))


def _player(campaign: Campaign, typed: str) -> str:
    """A conspiracy's id from its id or name as typed, refused in every game's one wording."""
    from cok.core.errors import RuleError
    from cok.rulesets.no_true_king.rules.places import find_player

    if not typed:
        raise RuleError("give the conspiracy: `player`")
    return find_player(campaign.state, typed)


def _offer_doc(found: Offer) -> dict[str, Any]:
    """An agent's offer as a document: each route with its `value` (`FROM|TO`, the form's)."""
    import dataclasses

    doc = dataclasses.asdict(found)
    doc["routes"] = [{**dataclasses.asdict(r), "value": r.value} for r in found.routes]
    return doc


QUERIES: dict[str, Query] = {
    "status": status,
    "board": board,
    "houses": houses,
    # for its pages (`table/`): the game every page shows, whose turn and what it may do
    "game": game,
    "turn": turn,
    "resolving": resolving,
    "cards": cards,
    "combat": combat,
    "opening": opening,
    "picture": picture,
}
