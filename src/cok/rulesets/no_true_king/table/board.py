"""The board on the resolve form: the site's own picture (`site/board.py`, the same as `cok map
--svg`) with the areas the agent's house may use outlined — where it may move to (red where
that is a combat), where it may muster — kept at its own size in a frame that opens on the
house's troops, as Mighty Kingdoms' map opens on the army ordered."""

from __future__ import annotations

from typing import TYPE_CHECKING

from markupsafe import Markup, escape

if TYPE_CHECKING:
    from cok.rulesets.no_true_king.rules.state import State
    from cok.rulesets.no_true_king.table.offers import Offer


def board(state: State, offered: Offer, house: str) -> Markup:
    from cok.rulesets.no_true_king.site import environment
    from cok.rulesets.no_true_king.site.board import BOX_H, BOX_W, board_picture

    picture = board_picture(state, state.board.name)
    svg = environment().get_template("board.svg").render(b=picture)
    at = {a.name: (float(a.x), float(a.y)) for a in picture.areas}
    marks: dict[str, str] = {}
    for m in offered.musters:
        marks[m.name] = "muster"
    for r in offered.routes:
        marks[r.to] = "fight" if r.against else marks.get(r.to, "move")
    rings = []
    for name, kind in sorted(marks.items()):
        x, y = at[name]
        rings.append(
            f'<rect class="{kind}" data-area="{escape(name)}" x="{x - BOX_W / 2 - 4:.1f}" y="{y - BOX_H / 2 - 4:.1f}" '
            f'width="{BOX_W + 8}" height="{BOX_H + 8}" rx="12"/>'
        )
    end = svg.rfind("</svg>")
    drawn = svg[:end] + f'<g class="offered">{"".join(rings)}</g>' + svg[end:]
    mine = [a for a in state.board.areas if state.force(a, house) != (0, 0, 0)] or state.controlled(house)
    if not mine:
        return Markup(f'<div class="ntk-frame"><div class="ntk-sheet">{drawn}</div></div>')
    x, y = at[mine[0]]
    focus = f"left: {x - 1.5 * BOX_W:.0f}px; top: {y - 2 * BOX_H:.0f}px; width: {3 * BOX_W}px; height: {4 * BOX_H}px"
    return Markup(
        f'<div class="ntk-frame"><div class="ntk-sheet">{drawn}'
        f'<div class="ntk-focus" data-around="{escape(mine[0])}" aria-hidden="true" style="{focus}"></div></div></div>'
    )
