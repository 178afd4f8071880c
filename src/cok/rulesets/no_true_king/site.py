"""The static site of a No True King game: the board drawn in SVG (each land area in its
controlling house's colour, the seas as seas, troops, flags, crowns, barrels and forts, a
legend), the house ranking, where the game stands, the log, and — once over — the loyalty
cards and scores. The pages share the look of the other games' sites (a header bar with the
game's name and the round, margins, tables that scroll on narrow screens, a framed board);
the style sheet is `site_assets/style.css`. The same state always gives the same bytes."""

from __future__ import annotations

import zlib
from collections.abc import Iterable
from html import escape
from importlib.resources import files
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
LAND, SEA, SEA_EDGE, LAND_EDGE = "#f4efe1", "#a9cbe0", "#2b5f86", "#4a3b22"
#: The board file places areas on a 700 x 1350 sheet; spread out to this scale, and apart
#: where they still touch, so that no two areas hide each other.
SCALE_X, SCALE_Y = 1.45, 1.1
BOX_W, BOX_H = 128, 70  # a land area's box; a sea's ellipse fits in the same room
GAP = 12
MARGIN = 80
TOP = 56  # the title's room


def _e(text: object) -> str:
    return escape(str(for_markup(str(text))))


def colour(house: str | None) -> str:
    if house is None:
        return LAND
    return COLOURS.get(house, "#%06x" % (zlib.crc32(house.encode()) & 0xAAAAAA))


def ink(fill: str) -> str:
    """Black or white, whichever reads better on `fill` (#rrggbb)."""
    r, g, b = (int(fill[i : i + 2], 16) for i in (1, 3, 5))
    return "#1d1d1d" if 0.299 * r + 0.587 * g + 0.114 * b > 150 else "#ffffff"


def _n(value: float) -> str:
    """A coordinate, rounded so that the output is the same on every machine."""
    return f"{value:.1f}".rstrip("0").rstrip(".")


def layout(state: State) -> tuple[dict[str, tuple[float, float]], float, float]:
    """Each area's centre on the drawing, and the drawing's width and height: the board
    file's positions scaled, then pushed apart (a fixed number of passes, in name order)
    where two areas would overlap."""
    names = sorted(state.board.areas)
    pos = {}
    for name in names:
        at = state.board.areas[name].at or (0.0, 0.0)
        pos[name] = [at[0] * SCALE_X, at[1] * SCALE_Y]
    need_x, need_y = BOX_W + GAP, BOX_H + GAP
    for _ in range(60):
        moved = False
        for i, a in enumerate(names):
            for b in names[i + 1 :]:
                pa, pb = pos[a], pos[b]
                dx, dy = pb[0] - pa[0], pb[1] - pa[1]
                over_x, over_y = need_x - abs(dx), need_y - abs(dy)
                if over_x <= 0 or over_y <= 0:
                    continue
                moved = True
                # push apart along the cheaper axis, half each
                if over_x * BOX_H < over_y * BOX_W:
                    step = (over_x / 2 + 0.5) * (1 if dx >= 0 else -1)
                    pa[0] -= step
                    pb[0] += step
                else:
                    step = (over_y / 2 + 0.5) * (1 if dy >= 0 else -1)
                    pa[1] -= step
                    pb[1] += step
        if not moved:
            break
    min_x = min(p[0] for p in pos.values()) - BOX_W / 2 - MARGIN / 2
    min_y = min(p[1] for p in pos.values()) - BOX_H / 2 - TOP
    placed = {name: (round(p[0] - min_x, 1), round(p[1] - min_y, 1)) for name, p in pos.items()}
    width = max(p[0] for p in placed.values()) + BOX_W / 2 + MARGIN / 2
    height = max(p[1] for p in placed.values()) + BOX_H / 2 + 20
    return placed, round(width), round(height)


def board_svg(state: State, title: str) -> str:
    """The board as a standalone SVG document."""
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + board_picture(state, title)


def _lines(name: str) -> list[str]:
    """An area's name on one line, or two if it is long."""
    if len(name) <= 15 or " " not in name:
        return [name]
    words = name.split(" ")
    best = min(range(1, len(words)), key=lambda i: abs(len(" ".join(words[:i])) - len(" ".join(words[i:]))))
    return [" ".join(words[:best]), " ".join(words[best:])]


def _crown(x: float, y: float) -> str:
    return (
        f'<path d="M{_n(x - 6)} {_n(y + 4)}h12l1.5-9-4.5 4-3-6-3 6-4.5-4z" fill="#e7b416" stroke="#5a4300"'
        ' stroke-width="1"/>'
    )


def _barrel(x: float, y: float) -> str:
    return (
        f'<rect x="{_n(x - 4.5)}" y="{_n(y - 6)}" width="9" height="11" rx="3" fill="#b07a3c" stroke="#4a2f10"'
        f' stroke-width="1"/><path d="M{_n(x - 4.5)} {_n(y - 2.5)}h9M{_n(x - 4.5)} {_n(y + 1.5)}h9"'
        ' stroke="#4a2f10" stroke-width="1"/>'
    )


def _tower(x: float, y: float) -> str:
    return (
        f'<path d="M{_n(x - 5)} {_n(y + 5)}v-10h2.5v2.5h2.5v-2.5h2.5v2.5h2.5v-2.5h0v10z" fill="#d9d4c7"'
        ' stroke="#2e2a22" stroke-width="1"/>'
    )


def _flag(x: float, y: float, house: str) -> str:
    return (
        f'<rect x="{_n(x - 3)}" y="{_n(y - 9)}" width="15" height="17" rx="3" fill="#fbf8ef" fill-opacity=".9"/>'
        f'<path d="M{_n(x)} {_n(y + 6)}v-13" stroke="#2e2a22" stroke-width="1.3"/>'
        f'<path d="M{_n(x)} {_n(y - 7)}h9l-2.5 3.5 2.5 3.5h-9z" fill="{colour(house)}" stroke="#2e2a22"'
        ' stroke-width="1"/>'
    )


def _icons(x: float, y: float, crowns: int, barrels: int, fort: str | None) -> str:
    icons = [_crown] * crowns + [_barrel] * barrels + [_tower] * {"castle": 2, "town": 1}.get(fort or "", 0)
    if not icons:
        return ""
    step = 15
    left = x - step * (len(icons) - 1) / 2
    return "".join(draw(left + i * step, y) for i, draw in enumerate(icons))


def _troops_text(force: tuple[str, int, int, int] | None) -> str:
    if not force:
        return ""
    return " ".join(f"{n}{k}" for n, k in zip(force[1:], ("F", "K", "S"), strict=True) if n)


def board_picture(state: State, title: str) -> str:
    board = state.board
    at, width, height = layout(state)
    legend_y = height + 10
    full = legend_y + 118
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {full}" width="{width}" height="{full}"'
        ' font-family="Georgia, serif" role="img">',
        f"<title>{_e(title)}</title>",
        f'<rect width="{width}" height="{full}" fill="#cfe0ea"/>',
        f'<text x="20" y="34" font-size="24" font-weight="bold" fill="#1d1d1d">{_e(title)}</text>',
        '<g class="borders" fill="none">',
    ]
    for a, b in sorted(board.borders):
        if a < b:
            (x1, y1), (x2, y2) = at[a], at[b]
            sea = board.areas[a].sea or board.areas[b].sea
            style = (
                'stroke="#2b5f86" stroke-width="1.6" stroke-dasharray="6 5" stroke-opacity=".6"'
                if sea
                else 'stroke="#6b5a3a" stroke-width="2.2" stroke-opacity=".75"'
            )
            out.append(f'<line x1="{_n(x1)}" y1="{_n(y1)}" x2="{_n(x2)}" y2="{_n(y2)}" {style}/>')
    out.append("</g>")
    for name in sorted(board.areas):
        out.append(_area(state, name, at[name]))
    out += _legend(state, legend_y, width)
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _area(state: State, name: str, xy: tuple[float, float]) -> str:
    area = state.board.areas[name]
    x, y = xy
    house = state.controller(name)
    force = state.troops.get(name)
    flag = state.flags.get(name)
    if area.sea:
        fill, edge = SEA, colour(house) if house else SEA_EDGE
        text = "#12324a"
        shape = (
            f'<ellipse cx="{_n(x)}" cy="{_n(y)}" rx="{BOX_W / 2 - 2}" ry="{BOX_H / 2 - 2}" fill="{fill}"'
            f' stroke="{edge}" stroke-width="{4 if house else 1.5}"/>'
            f'<path d="M{_n(x - 26)} {_n(y + 10)}q6.5-5 13 0t13 0t13 0t13 0" fill="none" stroke="#ffffff"'
            ' stroke-width="1.3" stroke-opacity=".8"/>'
        )
    else:
        fill = colour(house)
        text = ink(fill)
        thick = {"castle": 3.5, "town": 2.5}.get(area.fort or "", 1.2)
        shape = (
            f'<rect x="{_n(x - BOX_W / 2)}" y="{_n(y - BOX_H / 2)}" width="{BOX_W}" height="{BOX_H}" rx="9"'
            f' fill="{fill}" stroke="{LAND_EDGE}" stroke-width="{thick}"/>'
        )
    who = f"{house}" if house else ("open sea" if area.sea else "nobody")
    tip = [f"{name}: {who}"]
    if force:
        tip.append(f"{force[1]} footmen, {force[2]} knights, {force[3]} ships")
    if flag:
        tip.append(f"{flag}'s flag")
    parts = [f'<g class="area" data-area="{_e(name)}"><title>{_e("; ".join(tip))}</title>{shape}']
    lines = _lines(name)
    one = len(lines) == 1
    top = (y - (8 if one else 14)) if area.sea else (y - BOX_H / 2 + (15 if one else 14))
    for i, line in enumerate(lines):
        parts.append(
            f'<text x="{_n(x)}" y="{_n(top + i * 12)}" font-size="12" font-weight="bold" text-anchor="middle"'
            f' fill="{text}">{_e(line)}</text>'
        )
    icon_y = y + (0 if len(lines) == 1 else 5)
    if not area.sea:
        # the icons sit on a paper strip, to read on any house's colour
        count = area.crowns + area.barrels + {"castle": 2, "town": 1}.get(area.fort or "", 0)
        if count:
            half = 15 * count / 2 + 3
            parts.append(
                f'<rect x="{_n(x - half)}" y="{_n(icon_y - 9)}" width="{_n(2 * half)}" height="17" rx="4"'
                ' fill="#fbf8ef" fill-opacity=".9"/>'
            )
        parts.append(_icons(x, icon_y, area.crowns, area.barrels, area.fort))
    pieces = _troops_text(force)
    if pieces or flag:
        base = y + BOX_H / 2 - 9
        pill = max(len(pieces) * 8.2 + 14, 0) if pieces else 0
        total = pill + (14 if flag else 0)
        left = x - total / 2
        if pieces and force:
            parts.append(
                f'<rect x="{_n(left)}" y="{_n(base - 9)}" width="{_n(pill)}" height="16" rx="8" fill="#ffffff"'
                f' stroke="{colour(force[0])}" stroke-width="2"/>'
                f'<text x="{_n(left + pill / 2)}" y="{_n(base + 3.5)}" font-size="12" font-weight="bold"'
                f' text-anchor="middle" fill="#1d1d1d" font-family="Verdana, sans-serif">{_e(pieces)}</text>'
            )
        if flag:
            parts.append(_flag(left + pill + 4, base, flag))
    parts.append("</g>")
    return "".join(parts)


def _legend(state: State, y: float, width: float) -> list[str]:
    lines = [
        f'<g class="legend"><rect x="10" y="{_n(y)}" width="{_n(width - 20)}" height="108" rx="8" fill="#fbf8ef"'
        ' stroke="#d9cfb4"/>'
    ]
    column = (width - 40) / max(len(state.board.houses), 1)
    for i, house in enumerate(state.board.houses):
        x = 24 + i * column
        rank = state.ranks.get(house)
        lines.append(
            f'<rect x="{_n(x)}" y="{_n(y + 14)}" width="20" height="20" rx="3" fill="{colour(house)}" stroke="#333"/>'
        )
        lines.append(
            f'<text x="{_n(x + 27)}" y="{_n(y + 29)}" font-size="15">{_e(house)}'
            f"{f' (rank {rank})' if rank else ''}</text>"
        )
    row = y + 62
    lines.append(_crown(30, row) + f'<text x="44" y="{_n(row + 5)}" font-size="14">crown</text>')
    lines.append(_barrel(120, row) + f'<text x="132" y="{_n(row + 5)}" font-size="14">barrel</text>')
    lines.append(
        _tower(212, row) + _tower(226, row) + f'<text x="240" y="{_n(row + 5)}" font-size="14">castle (+4)</text>'
    )
    lines.append(_tower(345, row) + f'<text x="358" y="{_n(row + 5)}" font-size="14">town (+2)</text>')
    lines.append(_flag(452, row, state.board.houses[0]) if state.board.houses else "")
    lines.append(f'<text x="468" y="{_n(row + 5)}" font-size="14">a house\'s flag</text>')
    lines.append(
        f'<rect x="590" y="{_n(row - 8)}" width="64" height="16" rx="8" fill="#fff" stroke="#555" stroke-width="2"/>'
        f'<text x="622" y="{_n(row + 4.5)}" font-size="12" font-weight="bold" text-anchor="middle"'
        ' font-family="Verdana, sans-serif">2F 1K</text>'
        f'<text x="662" y="{_n(row + 5)}" font-size="14">troops: F footmen, K knights, S ships</text>'
    )
    row += 30
    lines.append(
        f'<rect x="22" y="{_n(row - 9)}" width="34" height="18" rx="4" fill="{LAND}" stroke="{LAND_EDGE}"/>'
        f'<text x="64" y="{_n(row + 5)}" font-size="14">land, in its controlling house\'s colour</text>'
        f'<ellipse cx="370" cy="{_n(row)}" rx="18" ry="10" fill="{SEA}" stroke="{SEA_EDGE}" stroke-width="1.5"/>'
        f'<text x="396" y="{_n(row + 5)}" font-size="14">sea (ringed in the house\'s colour where ships are)</text>'
        f'<path d="M760 {_n(row)}h40" stroke="#6b5a3a" stroke-width="2.2"/>'
        f'<path d="M810 {_n(row)}h40" stroke="#2b5f86" stroke-width="1.6" stroke-dasharray="6 5"/>'
        f'<text x="858" y="{_n(row + 5)}" font-size="14">borders: land, sea</text>'
    )
    lines.append("</g>")
    return lines


def _style() -> str:
    return files("cok.rulesets.no_true_king").joinpath("site_assets", "style.css").read_text(encoding="utf-8")


def _page(state: State, name: str, title: str, body: str) -> str:
    if state.phase == "setup":
        label, value = "setup", "—"
    elif state.phase == "over":
        label, value = "game over", f"R{state.round}/{state.rounds}"
    else:
        label, value = state.phase, f"R{state.round}/{state.rounds}"
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f'<title>{_e(title)}</title>\n<link rel="stylesheet" href="style.css">\n</head>\n<body>\n'
        f'<header class="top">\n  <a class="brand" href="index.html">{_e(name)}</a>\n'
        '  <nav><a href="index.html">The game</a><a href="log.html">The log</a>'
        '<a href="board.svg">The board</a></nav>\n'
        f'  <div class="round-badge" title="Where the game stands"><span class="label">{_e(label)}</span>'
        f'<span class="value">{_e(value)}</span></div>\n</header>\n'
        f"<main>\n{body}\n</main>\n"
        "<footer>Built by cok from the campaign's event log · No True King.</footer>\n</body>\n</html>\n"
    )


def site_pages(campaign: Campaign) -> Iterable[tuple[str, str]]:
    """The site's files: a game is a few hundred events, so its log is one page."""
    state: State = campaign.state
    name = campaign.name
    return {
        "index.html": _page(state, name, name, _index(state, name)),
        "log.html": _page(state, name, f"{name}: the log", _log(campaign)),
        "board.svg": board_svg(state, name),
        "style.css": _style(),
    }.items()


def _index(state: State, name: str) -> str:
    parts = [f'<section class="hero">\n<h1>{_e(name)}</h1>']
    if state.phase == "setup":
        parts.append(f'<p class="when">Setup: {len(state.players)} conspiracies joined.</p>')
        facts = [("Phase", "setup"), ("Conspiracies", str(len(state.players)))]
    else:
        parts.append(f'<p class="when">Round {state.round} of {state.rounds}</p>')
        facts = [
            ("Round", f"{state.round} of {state.rounds}"),
            ("First player", state.first or "—"),
            ("Phase", state.phase),
            ("Seats", ", ".join(state.seats) or "—"),
        ]
    parts.append('<dl class="game">')
    parts += [f"<div><dt>{_e(k)}</dt><dd>{_e(v)}</dd></div>" for k, v in facts]
    parts.append("</dl>")
    parts.append(f'<p class="waiting">Waiting for: {_e(waits_text(state))}.</p>\n</section>')
    parts.append(
        '<section>\n<h2>House ranking</h2>\n<div class="scroll"><table>\n<thead><tr><th class="num">rank</th>'
        '<th>house</th><th class="num">crowns</th><th class="num">castles</th><th class="num">towns</th>'
        '<th class="num">barrels</th></tr></thead>\n<tbody>'
    )
    for row in houses_doc(state):
        swatch = f'<span class="swatch" style="background:{colour(row["id"])}"></span>'
        parts.append(
            f'<tr><td class="num">{row["rank"]}</td><td>{swatch}{_e(row["id"])}</td>'
            f'<td class="num strong">{row["crowns"]}</td><td class="num">{row["castles"]}</td>'
            f'<td class="num">{row["towns"]}</td><td class="num">{row["barrels"]}</td></tr>'
        )
    parts.append("</tbody></table></div>\n</section>")
    if state.agents:
        parts.append(
            '<section>\n<h2>Agents on the action spaces</h2>\n<div class="scroll"><table>\n'
            "<thead><tr><th>house</th><th>space</th><th>player</th></tr></thead>\n<tbody>"
        )
        for (house, space), player in sorted(state.agents.items()):
            swatch = f'<span class="swatch" style="background:{colour(house)}"></span>'
            parts.append(f"<tr><td>{swatch}{_e(house)}</td><td>{_e(space)}</td><td>{_e(player)}</td></tr>")
        parts.append("</tbody></table></div>\n</section>")
    parts.append(_players(state))
    parts.append(
        f'<section class="board">\n<h2>The board</h2>\n<div class="scroll">{board_picture(state, name)}</div>'
        '<p class="note"><a href="board.svg">The board on its own</a> (hover an area for its details).</p>\n</section>'
    )
    return "\n".join(parts)


def _players(state: State) -> str:
    over = state.phase == "over"
    head = (
        '<th class="num">rank</th><th class="num">score</th><th>loyalty card (1–4, left)</th><th>ahead by</th>'
        if over
        else ""
    )
    rows = [
        '<section>\n<h2>Conspiracies</h2>\n<div class="scroll"><table>\n<thead><tr><th>player</th><th>symbol</th>'
        f"<th>tokens shown</th><th>cards</th>{head}</tr></thead>\n<tbody>"
    ]
    for st in final_standings(state):
        who = state.players[st.player]
        shown = ", ".join(f"{i + 1 if i < 4 else 'left'}: {h}" for i, h in enumerate(who.shown) if h) or "none"
        cards = ", ".join(f"{h} {n}" for h, n in st.cards.items()) or "none"
        extra = ""
        if over:
            card = ", ".join(who.card or [])
            extra = (
                f'<td class="num">{st.rank}</td><td class="num strong">{st.score}</td><td>{_e(card)}</td>'
                f'<td class="wrap">{_e(st.decided_by or "")}</td>'
            )
        rows.append(
            f"<tr><td>{_e(who.name)}</td><td>{_e(who.symbol)}</td><td class='wrap'>{_e(shown)}</td>"
            f"<td>{_e(cards)}</td>{extra}</tr>"
        )
    rows.append("</tbody></table></div>")
    if not over:
        rows.append('<p class="caption">Loyalty cards and scores are shown once the game is over.</p>')
    rows.append("</section>")
    return "".join(rows)


def _log(campaign: Campaign) -> str:
    rows = ['<section>\n<h1>The log</h1>\n<ol class="log">']
    for told in campaign.told():
        style = ' class="voided"' if told.voided else ""
        rows.append(f"<li{style}>{_e(told.text)}</li>")
    rows.append("</ol>\n</section>")
    return "\n".join(rows)
