"""The static site of a No True King game: the board drawn in SVG (each area in its
controlling house's colour, troops, flags, crowns, barrels and forts), the house ranking,
where the game stands, the log, and — once over — the loyalty cards and scores."""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING

from cok.core.text import for_markup
from cok.rulesets.no_true_king.documents import houses_doc
from cok.rulesets.no_true_king.rules.scores import final_standings
from cok.rulesets.no_true_king.rules.state import State
from cok.rulesets.no_true_king.rules.turns import waits_text

if TYPE_CHECKING:
    from cok.core.campaign import Campaign

COLOURS = {
    "baratheon": "#e8c547",
    "stark": "#9aa7b0",
    "lannister": "#b8322f",
    "greyjoy": "#2f2f2f",
    "tyrell": "#4f8a3c",
}
INK = {"greyjoy": "#ffffff", "lannister": "#ffffff"}
WIDTH, HEIGHT = 800, 1450


def _e(text: object) -> str:
    return escape(str(for_markup(str(text))))


def colour(house: str | None) -> str:
    if house is None:
        return "#f4efe1"
    return COLOURS.get(house, "#%06x" % (hash(house) & 0xAAAAAA))


def board_svg(state: State, title: str) -> str:
    """The board as a standalone SVG document."""
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + board_picture(state, title)


def board_picture(state: State, title: str) -> str:
    board = state.board
    at = {name: (a.at[0] + 52, a.at[1] + 40) if a.at else (0.0, 0.0) for name, a in board.areas.items()}
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" width="{WIDTH}" height="{HEIGHT}"'
        ' font-family="Georgia, serif" role="img">',
        f"<title>{_e(title)}</title>",
        f'<rect width="{WIDTH}" height="{HEIGHT}" fill="#dfe9ef"/>',
        f'<text x="16" y="26" font-size="18" font-weight="bold">{_e(title)}</text>',
    ]
    for a, b in sorted(board.borders):
        if a < b:
            (x1, y1), (x2, y2) = at[a], at[b]
            sea = board.areas[a].sea or board.areas[b].sea
            dash = ' stroke-dasharray="5 4"' if sea else ""
            out.append(f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="#8a7f6a" stroke-width="1.4"{dash}/>')
    for name, area in board.areas.items():
        x, y = at[name]
        house = state.controller(name)
        fill = colour(house) if house else ("#b9d3e3" if area.sea else "#f4efe1")
        ink = INK.get(house or "", "#1d1d1d")
        shape = (
            f'<ellipse cx="{x}" cy="{y}" rx="44" ry="26" fill="{fill}" stroke="#2b4c66" stroke-width="1.5"/>'
            if area.sea
            else f'<rect x="{x - 46}" y="{y - 26}" width="92" height="52" rx="8" fill="{fill}" stroke="#4a3b22"'
            f' stroke-width="{3 if area.fort == "castle" else 2 if area.fort == "town" else 1}"/>'
        )
        label = _e(house or "free") if house else ("sea" if area.sea else "")
        out.append(f'<g class="area" data-area="{_e(name)}"><title>{_e(name)}: {label}</title>{shape}')
        out.append(f'<text x="{x}" y="{y - 12}" font-size="9.5" text-anchor="middle" fill="{ink}">{_e(name)}</text>')
        icons = "♛" * area.crowns + "⛁" * area.barrels + {"castle": "♜♜", "town": "♜"}.get(area.fort or "", "")
        if icons:
            out.append(f'<text x="{x}" y="{y + 1}" font-size="10" text-anchor="middle" fill="{ink}">{icons}</text>')
        force = state.troops.get(name)
        pieces = []
        if force:
            pieces = [f"{n}{k}" for n, k in zip(force[1:], ("f", "k", "s"), strict=True) if n]
        flag = state.flags.get(name)
        text = " ".join(pieces) + (" ⚑" if flag else "")
        if text.strip():
            out.append(
                f'<text x="{x}" y="{y + 17}" font-size="11" font-weight="bold" text-anchor="middle" fill="{ink}">'
                f"{_e(text.strip())}</text>"
            )
        out.append("</g>")
    out += _legend(state)
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _legend(state: State) -> list[str]:
    lines = ['<g class="legend">']
    y = 1395
    for i, house in enumerate(state.board.houses):
        x = 20 + i * 145
        lines.append(f'<rect x="{x}" y="{y}" width="18" height="18" fill="{colour(house)}" stroke="#333"/>')
        lines.append(
            f'<text x="{x + 24}" y="{y + 14}" font-size="13">{_e(house)} (rank {state.ranks.get(house, "")})</text>'
        )
    lines.append(
        f'<text x="20" y="{y + 44}" font-size="12">f footmen, k knights, s ships, ⚑ flag; ♛ crown, ⛁ barrel,'
        " ♜♜ castle (+4), ♜ town (+2); dashed: a sea border</text>"
    )
    lines.append("</g>")
    return lines


STYLE = """body{font-family:Georgia,serif;margin:1.5em auto;max-width:1200px;color:#222;background:#faf7ef}
table{border-collapse:collapse;margin:.6em 0}td,th{border:1px solid #c9bfa5;padding:.25em .6em;text-align:left}
th{background:#efe6cf}.swatch{display:inline-block;width:.9em;height:.9em;border:1px solid #333;margin-right:.3em}
.layout{display:flex;flex-wrap:wrap;gap:1.5em;align-items:flex-start}td{white-space:nowrap}
.side{flex:1;min-width:280px;font-size:.92em}.board{flex:0 1 800px}
.board svg{max-width:100%;height:auto}
nav a{margin-right:1em}.dim{color:#777}"""


def _page(title: str, body: str) -> str:
    return (
        f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>{_e(title)}</title>'
        f'<link rel="stylesheet" href="style.css"></head><body>\n<nav><a href="index.html">The game</a>'
        f'<a href="log.html">The log</a><a href="board.svg">The board</a></nav>\n{body}\n</body></html>\n'
    )


def site_pages(campaign: Campaign) -> dict[str, str]:
    state: State = campaign.state
    name = campaign.name
    return {
        "index.html": _page(name, _index(state, name)),
        "log.html": _page(f"{name}: the log", _log(campaign)),
        "board.svg": board_svg(state, name),
        "style.css": STYLE + "\n",
    }


def _index(state: State, name: str) -> str:
    parts = [f"<h1>{_e(name)}</h1>"]
    if state.phase == "setup":
        parts.append(f"<p>Setup: {len(state.players)} conspiracies joined.</p>")
    else:
        parts.append(
            f"<p>Round <b>{state.round}</b> of {state.rounds}; first player <b>{_e(state.first)}</b>; "
            f"phase <b>{_e(state.phase)}</b>.</p>"
        )
    parts.append(f"<p>Waiting for: {_e(waits_text(state))}.</p>")
    side = ["<h2>House ranking</h2><table><tr><th>rank</th><th>house</th><th>crowns</th><th>castles</th>"
            "<th>towns</th><th>barrels</th></tr>"]  # fmt: skip
    for row in houses_doc(state):
        swatch = f'<span class="swatch" style="background:{colour(row["id"])}"></span>'
        side.append(
            f"<tr><td>{row['rank']}</td><td>{swatch}{_e(row['id'])}</td><td>{row['crowns']}</td>"
            f"<td>{row['castles']}</td><td>{row['towns']}</td><td>{row['barrels']}</td></tr>"
        )
    side.append("</table>")
    if state.agents:
        side.append("<h2>Agents on the action spaces</h2><table><tr><th>house</th><th>space</th><th>player</th></tr>")
        for (house, space), player in sorted(state.agents.items()):
            side.append(f"<tr><td>{_e(house)}</td><td>{_e(space)}</td><td>{_e(player)}</td></tr>")
        side.append("</table>")
    parts.append(
        f'<div class="layout"><div class="board">{board_picture(state, name)}</div>'
        f'<div class="side">{"".join(side)}</div></div>'
    )
    parts.append(_players(state))
    return "\n".join(parts)


def _players(state: State) -> str:
    over = state.phase == "over"
    head = "<th>rank</th><th>score</th><th>loyalty card (1–4, left)</th><th>ahead by</th>" if over else ""
    rows = [
        f"<h2>Conspiracies</h2><table><tr><th>player</th><th>symbol</th><th>tokens shown</th><th>cards</th>{head}</tr>"
    ]
    for st in final_standings(state):
        who = state.players[st.player]
        shown = ", ".join(f"{i + 1 if i < 4 else 'left'}: {h}" for i, h in enumerate(who.shown) if h) or "none"
        cards = ", ".join(f"{h} {n}" for h, n in st.cards.items()) or "none"
        extra = ""
        if over:
            card = ", ".join(who.card or [])
            extra = f"<td>{st.rank}</td><td>{st.score}</td><td>{_e(card)}</td><td>{_e(st.decided_by or '')}</td>"
        rows.append(
            f"<tr><td>{_e(who.name)}</td><td>{_e(who.symbol)}</td><td>{_e(shown)}</td><td>{_e(cards)}</td>{extra}</tr>"
        )
    rows.append("</table>")
    if not over:
        rows.append('<p class="dim">Loyalty cards and scores are shown once the game is over.</p>')
    return "".join(rows)


def _log(campaign: Campaign) -> str:
    rows = ["<h1>The log</h1><ol>"]
    for told in campaign.history():
        style = ' class="dim"' if told.voided else ""
        rows.append(f"<li{style}>{_e(told.text)}</li>")
    rows.append("</ol>")
    return "".join(rows)
