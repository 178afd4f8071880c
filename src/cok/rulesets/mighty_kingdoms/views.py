"""The tables and lines `cok mk` shows at a terminal (plain aligned text when piped)."""

from __future__ import annotations

from typing import Any

from cok.render.views import Cell, Grid, Line
from cok.rulesets.mighty_kingdoms.rules.state import State


def status_views(name: str, state: State, doc: dict[str, Any]) -> list[Any]:
    """`cok mk status` from its document (`cok mk status --json`)."""
    if doc["phase"] == "setup":
        when = "Setup"
    elif doc["season"] == "winter":
        when = f"Year {doc['year']}, winter"
    else:
        when = f"Year {doc['year']}, month {doc['month']} of summer"
    lines: list[Any] = [Line.of(f"{name} — {when}, {doc['phase']} phase", "bold")]
    if state.order:
        lines.append(f"player order: {', '.join(state.kingdoms[p].name for p in state.order)}")
    from cok.rulesets.mighty_kingdoms.rules.summer import describe  # the summer rules: here only

    lines.append(f"next: {describe(state).split(': waiting for ', 1)[1]}")
    if any(d["due"] for d in doc["due"]):
        lines.append(due_grid(state, doc["due"]))
    if doc["absent"]:
        names = ", ".join(_name(state, p) for p in doc["absent"])
        lines.append(Line.of(f"absent: {names} — defaults recorded as soon as a phase opens", "yellow"))
    return lines


def due_grid(state: State, due: list[dict[str, Any]]) -> Grid:
    """What the ledger waits for and when each is due (issue 48), judged at the ledger's clock
    (`COK_NOW`): "Thu 3 Dec 20:00 — in 2 days", in the campaign's time zone."""
    import datetime as dt

    from cok.core.deadlines import moment, now, when, zone

    found = zone(state.clock.tz)
    tz = found if not isinstance(found, str) else dt.UTC
    at = now()
    grid = Grid("waiting for, and when it is due", [("who", "left"), ("waiting for", "left"), ("due", "fixed")])
    for d in due:
        who = _name(state, d["player"]) if d["player"] else "the organisers"
        if d["absent"]:
            who = f"{who} (absent)"
        moment_due = moment(d["due"]) if d["due"] else None
        said = when(moment_due, at, tz) if moment_due else "no deadline"
        late = moment_due is not None and moment_due <= at
        grid.add(Cell(who, "bold"), d["what"], Cell(said, "red" if late else None))
    return grid


def _name(state: State, player: str) -> str:
    kingdom = state.kingdoms.get(player)
    return kingdom.name if kingdom is not None else player


def kingdoms_grid(name: str, state: State, doc: dict[str, Any]) -> Grid:
    """`cok mk kingdoms` from its document (`--json`); the state names the tiles."""
    grid = Grid(
        f"{name} — kingdoms",
        [
            ("kingdom", "left"),
            ("capital", "left"),
            ("tiles", "right"),
            ("holds", "left"),
            ("armies", "right"),
            ("gold", "right"),
            ("food", "right"),
        ],
    )
    for k in doc["kingdoms"]:
        grid.add(
            Cell(f"{k['name']} ({k['race']})", "bold"),
            state.map.label(k["capital"]) if k["capital"] else Cell("none", "red"),
            str(k["tiles"]),
            f"{k['villages']}V {k['cities']}C {k['fortresses']}F",
            str(len(k["armies"])),
            str(k["gold"]),
            str(k["food"]),
        )
    notes = ["holds: villages (V), cities (C) and fortresses (F); a capital is counted apart"]
    for k in doc["kingdoms"]:
        for art in k["artefacts"]:
            notes.append(
                f"{k['name']} holds {art['id']} {art['name'] or ''} ({art['points']} points)".replace("  ", " ")
            )
        for tile, may in k.get("recruit_terrain", {}).items():
            allowed = [w for w, ok in (("monsters", may["monsters"]), ("war machines", may["war_machines"])) if ok]
            may_recruit = " and ".join(allowed) or "neither monsters nor war machines"
            notes.append(f"{k['name']}'s fortress at {state.map.label(tile)} may recruit {may_recruit}")
    grid.caption = "\n".join(notes)
    if not state.kingdoms:
        grid.caption = "no kingdoms yet: found one with `cok mk kingdom PLAYER --race R --capital T …`"
    return grid


def armies_grid(state: State, doc: dict[str, Any]) -> Grid:
    """`cok mk armies` from its document (`--json`); the state names the tiles."""
    grid = Grid(
        "armies",
        [("army", "left"), ("tile", "left"), ("points", "right"), ("state", "left"), ("order", "left")],
    )
    for a in doc["armies"]:
        stance = "upright" if a["upright"] else "on its side"
        if a.get("deployed") is False:
            stance += ", to deploy"
        order = a["order"] or "—"
        if a.get("to"):
            order += f" → {state.map.label(a['to'])}"
        if a["order"] and state.armies[a["id"]].resolved:
            order += " (done)"
        grid.add(Cell(a["id"], "bold"), state.map.label(a["tile"]), str(a["points"]), stance, order)
    if not grid.rows:
        grid.caption = "no armies"
    return grid


def battles_views(state: State, doc: dict[str, Any]) -> list[Any]:
    """`cok mk battles` from its document (`--json`); the state names the tiles."""
    if not doc["battles"]:
        return [Line.of("No tile holds armies of two kingdoms with one of them upright: no battle to fight.")]
    views: list[Any] = []
    if doc["attacker"]:
        views.append(Line.of(f"{doc['attacker']} chooses the next battle.", "bold"))
    kow = state.settings.kings_of_war
    for b in doc["battles"]:
        title = (
            f"{state.map.label(b['tile'])} — held by {b['holder'] or 'nobody'}, {b['settlement'] or 'no settlement'}"
        )
        grid = Grid(title, [("kingdom", "left"), ("army", "left"), ("points", "right"), ("state", "left")])
        if not kow:
            grid.columns.append(("Defence", "right"))
        for side in b["sides"]:
            for a in side["armies"]:
                stance = ("upright" if a["upright"] else "on its side") + (", defending" if a["defending"] else "")
                cells = [side["player"], a["id"], str(a["points"]), stance]
                if not kow:
                    cells.append(str(a.get("defence", "—")))
                grid.add(*cells)
        caption = f"board {b['board']}"
        if b["benefit"]:
            caption += f"; defended by {', '.join(b['defended_by'])}: {b['benefit']}"
        grid.caption = caption
        views.append(grid)
    return views


def standings_grid(name: str, state: State) -> Grid:
    from cok.rulesets.mighty_kingdoms.rules.ranking import ranked

    grid = Grid(
        f"{name} — kingdoms",
        [
            ("#", "right"),
            ("kingdom", "left"),
            ("settlements", "right"),
            ("tiles", "right"),
            ("armies", "right"),
            ("capital", "left"),
        ],
    )
    absent = False
    for rank, k in ranked(state):
        absent = absent or k["absent"]
        grid.add(
            str(rank),
            Cell(f"{k['name']} (absent)" if k["absent"] else k["name"], "bold"),
            str(k["settlements"]),
            str(k["tiles"]),
            str(k["armies"]),
            "held" if k["capital"] else Cell("lost", "red"),
        )
    grid.caption = "Mighty Kingdoms names no winner: ranked by settlements, then tiles."
    if absent:
        grid.caption += "\n(absent): missed deadlines in a row; its defaults are recorded as soon as a phase opens."
    return grid
