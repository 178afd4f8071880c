"""Mighty Kingdoms' reads, by name: the one home of each document `cok mk … --json`, the pages
at the table and `GET /api/<name>` show (`service.queries.read`). Field names are a contract
(docs/mighty-kingdoms.md): add, never rename or drop."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from cok.core.ruleset import Campaign, Query
    from cok.rulesets.mighty_kingdoms.offers import Offers


def status(campaign: Campaign) -> dict[str, Any]:
    """`cok mk status --json`: the year, season, month, phase, order, and whom the ledger waits for."""
    from cok.rulesets.mighty_kingdoms.documents import status_doc

    return status_doc(campaign.name, campaign.state)


def kingdoms(campaign: Campaign) -> dict[str, Any]:
    """`cok mk kingdoms --json`: each kingdom's tiles, settlements, armies and resources."""
    from cok.rulesets.mighty_kingdoms.documents import kingdoms_doc

    return kingdoms_doc(campaign.state)


def armies(campaign: Campaign, player: str | None = None) -> dict[str, Any]:
    """`cok mk armies --json`: every army (`player`: only that kingdom's, as typed)."""
    from cok.rulesets.mighty_kingdoms.documents import armies_doc
    from cok.rulesets.mighty_kingdoms.rules.setup import find_player

    state = campaign.state
    return armies_doc(state, find_player(state, player) if player else None)


def battles(campaign: Campaign) -> dict[str, Any]:
    """`cok mk battles --json`: what must be fought, who chooses next, Defence, board, benefit."""
    from cok.rulesets.mighty_kingdoms.documents import battles_doc

    return battles_doc(campaign.state)


def offers(campaign: Campaign, player: str) -> Offers:
    """What a kingdom may do now, each choice one the rules would accept: its page's forms."""
    from cok.rulesets.mighty_kingdoms.offers import offers as offered

    return offered(campaign.state, player)


def quest_towers(campaign: Campaign, player: str) -> list[dict[str, str]]:
    """The wizard's towers a kingdom may send a hero to now (5.7), each with its name: the
    quest form's choices."""
    from cok.rulesets.mighty_kingdoms.rules.quests import towers_near

    named = campaign.state.map.tiles
    return [
        {"tile": t, "name": (found.name if (found := named.get(t)) is not None and found.name else t)}
        for t in towers_near(campaign.state, player)
    ]


def kingdom_named(campaign: Campaign, typed: str) -> str | None:
    """The kingdom a name as typed stands for (its id or name, as `cok mk` reads it), or
    None when no kingdom has it: whose page an organiser asked for."""
    from cok.core.errors import RuleError
    from cok.rulesets.mighty_kingdoms.rules.setup import find_player

    try:
        return str(find_player(campaign.state, typed))
    except RuleError:
        return None


def map_targets(campaign: Campaign, player: str, army: str | None) -> tuple[list[str], str | None]:
    """The tiles `army` may move into now (5.2: the kingdom's own, upright, with no order yet
    this month) and the tile a phone's map opens on: the army's when it has somewhere to go,
    else the capital, else (a kingdom that lost it) one of its tiles or armies."""
    from cok.rulesets.mighty_kingdoms.intents import moves

    state = campaign.state
    found = state.armies.get(army or "")
    targets: list[str] = []
    if found is not None and found.player == player and found.order is None and found.upright:
        targets = list(moves(state, found))
    kingdom = state.kingdoms.get(player)
    home = kingdom.capital if kingdom is not None else None
    home = home or next(iter(state.tiles_of(player)), None) or next((a.tile for a in state.armies_of(player)), None)
    around = found.tile if targets and found is not None else home or next(iter(state.map.tiles), None)
    return targets, around


def phase_words(campaign: Campaign) -> str:
    """Where the campaign is and whom it waits for, in a line (`month 3 of year 1, orders
    phase: waiting for …`): the heading of every page."""
    from cok.rulesets.mighty_kingdoms.rules.summer import describe

    return describe(campaign.state)


def recalls(campaign: Campaign) -> dict[str, list[dict[str, str]]]:
    """In winter, per kingdom without its capital, where its armies may be recalled to
    (5.8 Recall): each tile with its name, for the organiser's form."""
    from cok.rulesets.mighty_kingdoms.rules.phase import recall_needed
    from cok.rulesets.mighty_kingdoms.rules.winter import recall_choices

    state = campaign.state
    named = state.map.tiles
    return {
        player: [
            {"tile": t, "name": (found.name if (found := named.get(t)) is not None and found.name else t)}
            for t in recall_choices(state, player)[1]
        ]
        for player in recall_needed(state)
    }


QUERIES: dict[str, Query] = {"status": status, "kingdoms": kingdoms, "armies": armies, "battles": battles}
