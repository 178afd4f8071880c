"""No True King's reads, by name: the one home of each document `cok ntk … --json`, the pages
at the table and `GET /api/<name>` show (`service.queries.read`). None holds a sealed loyalty
card before the game is over (docs/no-true-king.md)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from cok.core.ruleset import Campaign, Query

RULESET = "no-true-king"


def status(campaign: Campaign) -> dict[str, Any]:
    """`cok ntk status --json`: the round, the phase, whose turn it is and whom the ledger waits for."""
    from cok.rulesets.no_true_king.documents import status_doc

    return status_doc(campaign.name, campaign.state)


def board(campaign: Campaign) -> dict[str, Any]:
    """`cok ntk board --json`: per area, who controls it, its troops and flag."""
    from cok.rulesets.no_true_king.documents import board_doc

    return {"campaign": campaign.name, "ruleset": RULESET, "areas": board_doc(campaign.state)}


def houses(campaign: Campaign) -> dict[str, Any]:
    """`cok ntk houses --json`: per house, its ranking, holdings, troops and cards held by whom."""
    from cok.rulesets.no_true_king.documents import houses_table_doc

    return {"campaign": campaign.name, "ruleset": RULESET, "houses": houses_table_doc(campaign.state)}


QUERIES: dict[str, Query] = {"status": status, "board": board, "houses": houses}
