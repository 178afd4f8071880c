"""Mighty Kingdoms' reads, by name: the one home of each document `cok mk … --json`, the pages
at the table and `GET /api/<name>` show (`service.queries.read`). Field names are a contract
(docs/mighty-kingdoms.md): add, never rename or drop."""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from cok.core.ruleset import Campaign, Query


def status(campaign: Campaign) -> dict[str, Any]:
    """`cok mk status --json`: the year, season, month, phase, order, whom the ledger waits for,
    and when each wait is due (the service's `pending`, as `cok deadline` and the pages' bar)."""
    from typing import cast

    from cok.core.campaign import Campaign as Opened
    from cok.rulesets.mighty_kingdoms.documents import status_doc
    from cok.service.deadlines import pending

    return status_doc(campaign.name, campaign.state, pending(cast(Opened, campaign)))


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


def offers(campaign: Campaign, player: str = "") -> dict[str, Any]:
    """What a kingdom (as typed: its id or name) may do now, each choice one the rules would
    accept: its page's forms. `player` in the answer is the kingdom's id."""
    from cok.rulesets.mighty_kingdoms.offers import offers as offered

    return dataclasses.asdict(offered(campaign.state, _kingdom(campaign, player), _defaults(campaign)))


def _defaults(campaign: Campaign) -> dict[str, str]:
    """The organisers' choice of default for each step they set (`defaults:` in campaign.yaml,
    read by the service's schedule): what a kingdom's page says is recorded at its deadline."""
    from typing import cast

    from cok.core.campaign import Campaign as Opened
    from cok.service.deadlines import schedule

    return dict(schedule(cast(Opened, campaign)).defaults)


def towers(campaign: Campaign, player: str = "") -> dict[str, Any]:
    """The wizard's towers a kingdom may send a hero to now (5.7), each with its name: the
    quest form's choices."""
    from cok.rulesets.mighty_kingdoms.rules.quests import towers_near

    state = campaign.state
    named = state.map.tiles
    return {
        "towers": [
            {"tile": t, "name": (found.name if (found := named.get(t)) is not None and found.name else t)}
            for t in towers_near(state, _kingdom(campaign, player))
        ]
    }


def targets(campaign: Campaign, player: str = "", army: str | None = None) -> dict[str, Any]:
    """The tiles `army` may move into now (5.2: the kingdom's own, upright, with no order yet
    this month), each with its label, and the tile a phone's map opens on (`around`): the
    army's when it has somewhere to go, else the capital, else (a kingdom that lost it) one of
    its tiles or armies."""
    from cok.rulesets.mighty_kingdoms.intents import moves

    state = campaign.state
    player = _kingdom(campaign, player)
    found = state.armies.get(army or "")
    tiles: list[str] = []
    if found is not None and found.player == player and found.order is None and found.upright:
        tiles = list(moves(state, found))
    kingdom = state.kingdoms.get(player)
    home = kingdom.capital if kingdom is not None else None
    home = home or next(iter(state.tiles_of(player)), None) or next((a.tile for a in state.armies_of(player)), None)
    around = found.tile if tiles and found is not None else home or next(iter(state.map.tiles), None)
    return {"tiles": [{"tile": t, "label": state.map.label(t)} for t in tiles], "around": around}


def phase(campaign: Campaign) -> dict[str, Any]:
    """Where the campaign is and whom it waits for, in a line (`words`: `month 3 of year 1,
    orders phase: waiting for …`, the heading of every page at the table), and whom the ledger
    waits for alone (`waiting`, as the site says it)."""
    from cok.rulesets.mighty_kingdoms.rules.summer import describe, waiting_words

    return {"words": describe(campaign.state), "waiting": waiting_words(campaign.state)}


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


def rules(campaign: Campaign) -> dict[str, Any]:
    """The campaign's own rules from campaign.yaml (battles, army limit, advanced rules), and
    what they switch on (`kings_of_war`, `towers`): which forms a page shows."""
    settings = campaign.state.settings
    return {
        "battles": settings.battles,
        "army_limit": settings.army_limit,
        "advanced": list(settings.advanced),
        "kings_of_war": settings.kings_of_war,
        "towers": settings.towers,
    }


def picture(campaign: Campaign) -> dict[str, Any]:
    """The map as the site draws it (`cok map --svg`): tiles, rivers, edges, settlements,
    armies and the legend, placed; the picture a kingdom's page draws its targets on."""
    from cok.rulesets.mighty_kingdoms.site.svg import map_picture
    from cok.rulesets.mighty_kingdoms.words import when

    state = campaign.state
    return dataclasses.asdict(map_picture(state, f"{campaign.name} — {when(state)}"))


def artefacts(campaign: Campaign) -> dict[str, Any]:
    """Every artefact brought back from a quest (5.7), and who holds it (a kingdom, or `pool`)."""
    return {
        "artefacts": [
            {"id": a.id, "name": a.name, "points": a.points, "holder": a.holder}
            for a in campaign.state.artefacts.values()
        ]
    }


def _kingdom(campaign: Campaign, typed: str) -> str:
    """A kingdom's id from its id or name as typed, refused in every game's one wording."""
    from cok.core.errors import RuleError
    from cok.rulesets.mighty_kingdoms.rules.setup import find_player

    if not typed:
        raise RuleError("give the kingdom: `player`")
    return find_player(campaign.state, typed)


QUERIES: dict[str, Query] = {
    "status": status,
    "kingdoms": kingdoms,
    "armies": armies,
    "battles": battles,
    # for its pages (`table/`): what a kingdom may do now and the choices of its forms
    "offers": offers,
    "targets": targets,
    "towers": towers,
    "phase": phase,
    "recalls": recalls,
    "rules": rules,
    "artefacts": artefacts,
    "picture": picture,
}
