"""The `--json` documents of No True King (contract §5). Nothing secret before the end: no
loyalty card appears until the game is over, draws are counts of a house's cards."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from cok.rulesets.no_true_king.rules.ranking import holdings, in_rank_order
from cok.rulesets.no_true_king.rules.scores import final_standings
from cok.rulesets.no_true_king.rules.state import State
from cok.rulesets.no_true_king.rules.turns import waiting_for

if TYPE_CHECKING:
    from cok.core.deadlines import Due

RULESET = "no-true-king"


def dues(state: State) -> list[Due]:
    """Each turn waited for with its due time (issue 48), soonest first, from the log and the
    settings alone (`state.clock`), so every copy of the campaign agrees (what
    `service.deadlines.pending` gives for an opened campaign)."""
    from cok.core.deadlines import pending
    from cok.rulesets.no_true_king.deadlines import waits

    return pending(state.clock, waits(state))


def status_doc(
    name: str, state: State, due: Sequence[Due] | None = None, absent: Sequence[str] | None = None
) -> dict[str, Any]:
    """`waiting_for` as the turn says it; `due`: each wait with its due time (ISO 8601 with its
    offset, null without a deadline), soonest first; `absent`: the conspiracies whose turns
    pass as they open (issue 48)."""
    waits = []
    for wait in waiting_for(state):
        item: dict[str, Any] = {"what": wait.what, "player": wait.player}
        if wait.what == "resolve":
            item["agents"] = [{"house": h, "space": s} for h, s in wait.agents]
        if wait.what == "place":
            item["free"] = [{"house": h, "space": s} for h, s in wait.free]
        if wait.what == "card" and state.fight_at is not None:
            item["house"], item["area"] = state.fight_at
            item["played"] = [{"player": p, "card": c} for p, c in state.table]
        waits.append(item)
    return {
        "campaign": name,
        "ruleset": RULESET,
        "round": state.round,
        "rounds": state.rounds,
        "first": state.first,
        "phase": state.phase,
        "turn": state.active,
        "waiting_for": waits,
        "due": [d.document() for d in (dues(state) if due is None else due)],
        "absent": sorted(state.clock.absent) if absent is None else list(absent),
        "agents": [{"house": h, "space": s, "player": p} for (h, s), p in sorted(state.agents.items())],
    }


def houses_doc(state: State) -> list[dict[str, Any]]:
    found = []
    for house in in_rank_order(state.ranks, state.board.houses):
        crowns, castles, towns, barrels = holdings(state, house)
        found.append(
            {
                "id": house,
                "rank": state.ranks[house],
                "crowns": crowns,
                "castles": castles,
                "towns": towns,
                "barrels": barrels,
            }
        )
    return found


def standings_doc(name: str, state: State) -> dict[str, Any]:
    over = state.phase == "over"
    players = []
    for standing in final_standings(state):
        who = state.players[standing.player]
        item: dict[str, Any] = {
            "id": who.id,
            "name": who.name,
            "symbol": who.symbol,
            "revealed": standing.revealed,
            "cards": standing.cards,
            "score": standing.score,
            "rank": standing.rank,
            "absent": who.id in state.clock.absent,  # missed deadlines in a row (issue 48)
        }
        if over:
            item["loyalty"] = who.card
            item["decided_by"] = standing.decided_by
        players.append(item)
    return {"campaign": name, "ruleset": RULESET, "over": over, "houses": houses_doc(state), "players": players}


def board_doc(state: State) -> list[dict[str, Any]]:
    rows = []
    for name, area in state.board.areas.items():
        force = state.troops.get(name)
        rows.append(
            {
                "area": name,
                "kind": area.kind,
                "house": state.controller(name),
                "footmen": force[1] if force else 0,
                "knights": force[2] if force else 0,
                "ships": force[3] if force else 0,
                "flag": state.flags.get(name),
            }
        )
    return rows


def houses_table_doc(state: State) -> list[dict[str, Any]]:
    rows = houses_doc(state)
    for row in rows:
        footmen, knights, ships = state.on_board(row["id"])
        row["troops"] = {"footmen": footmen, "knights": knights, "ships": ships}
        row["cards"] = {p: n for (p, h), n in state.held.items() if h == row["id"] and n}
        row["deck"] = state.board.deck_size(row["id"]) - state.drawn.get(row["id"], 0)
    return rows
