"""What the Clash of Kings commands show: tables and lines (see `cok.render.views`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cok.render.views import Cell, Grid, Line, View

if TYPE_CHECKING:
    from cok.rulesets.clash_of_kings.modes import Mode
    from cok.rulesets.clash_of_kings.rules.scoring import Standing
    from cok.rulesets.clash_of_kings.rules.state import State
    from cok.rulesets.clash_of_kings.rules.where import Where


STEP_WORDS = {
    "adjacent-to-attacker": "adjacent to the attacker",
    "adjacent-to-defender": "no location adjacent to the attacker: adjacent to the defender",
    "any-unoccupied": "nothing adjacent to either player: any unoccupied location",
    "defender-village": "no unoccupied location: the defender's villages",
    "defender-fort": "no unoccupied location: the defender's forts",
    "defender-castle": "no unoccupied location: the defender's castles",
    "any-location": "both fight as the Brotherhood: any location",
    "none": "no legal location at all: only an organiser's override can place this battle",
}
DECIDED_WORDS = {
    "fewer-territories": "holds fewer territories",
    "given": "won the roll-off",
    "brotherhood": "the Brotherhood never chooses",
}


def standings_grid(name: str, state: State, rows: list[Standing]) -> Grid:
    grid = Grid(
        f"{name} — week {state.week}, points limit {state.limit}",
        [
            ("#", "right"),
            ("player", "left"),
            ("faction", "left"),
            ("CP", "right"),
            ("territory", "right"),
            ("bonus", "right"),
            ("holds", "left"),
            ("W-L", "right"),
            ("", "left"),
        ],
    )
    for s in rows:
        grid.add(
            str(s.rank),
            Cell(s.player.name, "bold"),
            s.player.faction,
            Cell(str(s.cp), "bold"),
            str(s.territory_cp),
            str(s.bonus_cp),
            f"{s.castles}C {s.forts}F {s.villages}V",
            f"{s.wins}-{s.losses}",
            Cell("supply lines", "yellow") if s.supply_lines else "",
        )
    bonuses = [f"{s.player.name}: {castle} — {text}" for s in rows for castle, text in s.castle_bonuses]
    if bonuses:
        grid.caption = "Castle bonuses (the organiser's, not counted in CP):\n" + "\n".join(bonuses)
    if not rows:
        grid.caption = "no players yet: add one with `cok join PLAYER --faction F`"
    return grid


def locations_grid(state: State, names: list[str], title: str) -> Grid:
    grid = Grid(
        title,
        [
            ("location", "left"),
            ("kind", "left"),
            ("CP", "right"),
            ("occupant", "left"),
            ("home", "left"),
            *([("bonus", "left")] if any(state.geo.locations[n].bonus for n in names) else []),
        ],
    )
    bonuses = len(grid.columns) == 6
    for name in names:
        loc = state.geo.locations[name]
        occupant = state.holder.get(name)
        grid.add(
            name,
            loc.kind,
            str(loc.value),
            Cell(state.players[occupant].name, "bold") if occupant else Cell("—", "dim"),
            ", ".join(loc.home),
            *([loc.bonus or ""] if bonuses else []),
        )
    if not any(loc.bonus for loc in state.geo.locations.values()):
        grid.caption = "No castle has a bonus: an organiser adds one as `bonus: …` on a castle in the map file."
    return grid


def where_views(state: State, found: Where, who: dict[str, str], roll_off: bool = False) -> list[View]:
    """Who chooses, and a table of the legal locations (one per possible attacker on a roll-off)."""
    if found.decided_by == "roll-needed":
        a, b = found.players
        out: list[View] = [
            Line.of(
                f"{who[a]} and {who[b]} hold the same number of territories: roll off (D6); "
                "the winner is the attacker and chooses.",
                "bold",
            )
        ]
        for option in found.options:
            out.extend(where_views(state, option, who, roll_off=True)[1:])
        grids = [view for view in out if isinstance(view, Grid)]
        for grid in grids[:-1]:  # a note about the map is said once, after the last table
            grid.caption = None
        return out
    if found.attacker is None:
        head = Line.of("Both fight as the Brotherhood Without Banners: nobody chooses, nothing is occupied.")
    else:
        why = DECIDED_WORDS.get(found.decided_by, found.decided_by)
        head = Line.of(
            f"{who[found.attacker]} attacks ({why}) and chooses where to fight {who[found.defender or '']}.", "bold"
        )
    if found.attacker is None:  # the head line already says both fight as the Brotherhood
        title = "Any location: nobody chooses"
    else:
        who_may = (
            f"If {who[found.attacker]} wins the roll-off" if roll_off else f"Where {who[found.attacker]} may attack"
        )
        title = f"{who_may} — {STEP_WORDS[found.step or 'none']}"
    return [head, locations_grid(state, found.locations or [], title)]


def modes_grid(modes: list[Mode]) -> Grid:
    grid = Grid("Game modes", [("mode", "left"), ("name", "left"), ("in short", "left")])
    for mode in modes:
        grid.add(mode.id, mode.name, mode.summary)
    return grid


def mode_lines(mode: Mode) -> list[Line]:
    lines = [
        Line((Cell(mode.name, "bold"), Cell(f"  ({mode.id})"))),
        Line.of(mode.summary),
        Line.of(""),
        Line.of(f"Deployment: {mode.deployment}"),
    ]
    for title, items in (("Set-up", mode.setup), ("Special rules", mode.rules), ("Scoring", mode.scoring)):
        lines += [Line.of(""), Line.of(title, "bold"), *(Line.of(f"  • {item}") for item in items)]
    return lines
