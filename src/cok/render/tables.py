"""Rich tables and panels for people at a terminal (plain text when piped or NO_COLOR)."""

from __future__ import annotations

import sys

from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

from cok.modes import Mode
from cok.rules.scoring import Standing
from cok.rules.state import State
from cok.rules.where import Where

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


def console(stderr: bool = False) -> Console:
    stream = sys.stderr if stderr else sys.stdout
    width = None if stream.isatty() else 120
    return Console(stderr=stderr, markup=False, highlight=False, width=width, soft_wrap=True)


def _table(title: str | None = None) -> Table:
    return Table(title=title, box=box.SIMPLE_HEAD, title_justify="left", title_style="bold")


def standings_table(name: str, state: State, rows: list[Standing]) -> Table:
    table = _table(f"{name} — week {state.week}, points limit {state.limit}")
    for col, justify in (
        ("#", "right"),
        ("player", "left"),
        ("faction", "left"),
        ("CP", "right"),
        ("territory", "right"),
        ("bonus", "right"),
        ("holds", "left"),
        ("W-L", "right"),
        ("", "left"),
    ):
        table.add_column(col, justify=justify)  # type: ignore[arg-type]
    for s in rows:
        holds = f"{s.castles}C {s.forts}F {s.villages}V"
        flag = Text("supply lines", style="yellow") if s.supply_lines else Text("")
        table.add_row(
            str(s.rank),
            Text(s.player.name, style="bold"),
            s.player.faction,
            Text(str(s.cp), style="bold"),
            str(s.territory_cp),
            str(s.bonus_cp),
            holds,
            f"{s.wins}-{s.losses}",
            flag,
        )
    if not rows:
        table.caption = "no players yet: add one with `cok join PLAYER --faction F`"
    return table


def locations_table(state: State, names: list[str], title: str) -> Table:
    table = _table(title)
    for col in ("location", "kind", "CP", "occupant", "home", "bonus"):
        table.add_column(col, justify="right" if col == "CP" else "left")
    for name in names:
        loc = state.geo.locations[name]
        occupant = state.holder.get(name)
        table.add_row(
            name,
            loc.kind,
            str(loc.value),
            Text(state.players[occupant].name, style="bold") if occupant else Text("—", style="dim"),
            ", ".join(loc.home),
            loc.bonus or "",
        )
    return table


def where_renderables(state: State, found: Where, who: dict[str, str]) -> list[Table | Text]:
    if found.decided_by == "roll-needed":
        a, b = found.players
        out: list[Table | Text] = [
            Text(
                f"{who[a]} and {who[b]} hold the same number of territories: roll off (D6); "
                "the winner is the attacker and chooses.",
                style="bold",
            )
        ]
        for option in found.options:
            out.extend(where_renderables(state, option, who)[1:])
        return out
    if found.attacker is None:
        head = Text("Both fight as the Brotherhood Without Banners: nobody chooses, nothing is occupied.")
    else:
        why = DECIDED_WORDS.get(found.decided_by, found.decided_by)
        head = Text(
            f"{who[found.attacker]} attacks ({why}) and chooses where to fight {who[found.defender or '']}.",
            style="bold",
        )
    title = f"If {who[found.attacker]} attacks" if found.attacker else "Any location"
    table = locations_table(state, found.locations or [], f"{title} — {STEP_WORDS[found.step or 'none']}")
    return [head, table]


def mode_table(modes: list[Mode]) -> Table:
    table = _table("Game modes")
    table.add_column("mode")
    table.add_column("name")
    table.add_column("in short")
    for mode in modes:
        table.add_row(mode.id, mode.name, mode.summary)
    return table


def mode_text(mode: Mode) -> Text:
    text = Text()
    text.append(f"{mode.name}", style="bold")
    text.append(f"  ({mode.id})\n{mode.summary}\n\nDeployment: {mode.deployment}\n")
    for title, items in (("Set-up", mode.setup), ("Special rules", mode.rules), ("Scoring", mode.scoring)):
        text.append(f"\n{title}\n", style="bold")
        for item in items:
            text.append(f"  • {item}\n")
    return text
