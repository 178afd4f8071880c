"""No True King's tables at a terminal: status, board, houses, standings."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any

from cok.core.deadlines import Due, when
from cok.render.views import Cell, Grid, Line, View
from cok.rulesets.no_true_king.documents import houses_table_doc
from cok.rulesets.no_true_king.rules.scores import final_standings
from cok.rulesets.no_true_king.rules.state import State
from cok.rulesets.no_true_king.rules.turns import free_spaces, waits_text


def due_lines(state: State, now: dt.datetime, due: Sequence[Due] | None = None) -> list[View | str]:
    """When each turn waited for is due, as a player reads it at `now` in the campaign's zone
    (issue 48), and who is absent (their turns pass as they open)."""
    from cok.rulesets.no_true_king.documents import dues

    lines: list[View | str] = []
    for item in dues(state) if due is None else due:
        if item.due is None:
            continue
        said = when(item.due, now, state.clock.zone())
        absent = " (absent: it passes as it opens)" if item.absent else ""
        lines.append(f"{item.wait.who}'s {item.wait.step} is due {said}{absent}.")
    if state.clock.absent:
        lines.append("Absent: " + ", ".join(sorted(state.clock.absent)) + " (their turns pass when they open).")
    return lines


def status_views(
    name: str, state: State, now: dt.datetime | None = None, due: Sequence[Due] | None = None
) -> list[View | str]:
    lines: list[View | str] = [Line.of(name, "bold")]
    if state.phase == "setup":
        lines.append(f"Setup: {len(state.players)} conspiracies joined.")
    else:
        lines.append(f"Round {state.round} of {state.rounds}; first player {state.first}; phase {state.phase}.")
    if state.active:
        lines.append(f"Turn: {state.active}.")
    lines.append(f"Waiting for: {waits_text(state)}.")
    if now is not None:
        lines += due_lines(state, now, due)
    if state.agents:
        grid = Grid("Agents", [("house", "fixed"), ("space", "left"), ("player", "fixed")])
        for (house, space), player in sorted(state.agents.items()):
            grid.add(house, space, player)
        lines.append(grid)
    if state.phase == "placement":
        lines.append("Free spaces: " + ", ".join(f"{h} {s}" for h, s in free_spaces(state)))
    return lines


def board_grid(areas: list[dict[str, Any]]) -> Grid:
    """`cok ntk board` from its document's `areas` (`--json`)."""
    grid = Grid(
        "The board",
        [
            ("area", "left"),
            ("house", "fixed"),
            ("footmen", "right"),
            ("knights", "right"),
            ("ships", "right"),
            ("flag", "left"),
        ],
    )
    for row in areas:
        if row["house"] is None:
            continue
        grid.add(
            row["area"],
            row["house"],
            str(row["footmen"] or ""),
            str(row["knights"] or ""),
            str(row["ships"] or ""),
            row["flag"] or "",
        )
    return grid


def houses_grid(houses: list[dict[str, Any]]) -> Grid:
    """`cok ntk houses` from its document's `houses` (`--json`)."""
    grid = Grid(
        "Houses",
        [
            ("rank", "right"),
            ("house", "fixed"),
            ("crowns", "right"),
            ("castles", "right"),
            ("towns", "right"),
            ("barrels", "right"),
            ("troops (f/k/s)", "left"),
            ("cards held", "left"),
            ("deck", "right"),
        ],
    )
    for row in houses:
        troops = row["troops"]
        cards = ", ".join(f"{p} {n}" for p, n in row["cards"].items())
        grid.add(
            str(row["rank"]),
            row["id"],
            str(row["crowns"]),
            str(row["castles"]),
            str(row["towns"]),
            str(row["barrels"]),
            f"{troops['footmen']}/{troops['knights']}/{troops['ships']}",
            cards,
            str(row["deck"]),
        )
    return grid


def standings_views(name: str, state: State) -> list[View | str]:
    views: list[View | str] = [houses_grid(houses_table_doc(state))]
    grid = Grid(
        f"{name}: conspiracies",
        [
            ("rank", "right"),
            ("player", "fixed"),
            ("symbol", "left"),
            ("score", "right"),
            ("revealed", "right"),
            ("cards", "left"),
        ]
        + ([("loyalty", "left"), ("ahead by", "left")] if state.phase == "over" else []),
    )
    for st in final_standings(state):
        who = state.players[st.player]
        cells: list[str | Cell] = [
            str(st.rank or ""),
            Cell(who.name + (" (absent)" if who.id in state.clock.absent else ""), "bold" if st.rank == 1 else None),
            who.symbol,
            "" if st.score is None else str(st.score),
            str(st.revealed),
            ", ".join(f"{h} {n}" for h, n in st.cards.items()),
        ]
        if state.phase == "over":
            cells += [" > ".join((who.card or [])[:4]), st.decided_by or ""]
        grid.add(*cells)
    views.append(grid)
    if state.phase != "over":
        views.append(f"Scores come once the game is over ({waits_text(state)}).")
    return views
