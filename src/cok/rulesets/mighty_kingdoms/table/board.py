"""The hex map on a kingdom's page: the site's own picture (`site/svg.py`, the same map as
`cok map --svg`), with the tiles an army may move into drawn as links, so that a player taps
a tile to give the order. Plain SVG, no script: a link works on every phone."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from markupsafe import Markup, escape

if TYPE_CHECKING:
    from cok.rulesets.mighty_kingdoms.rules.state import State


def board(
    name: str,
    state: State,
    targets: Sequence[tuple[str, str]] = (),
    chosen: str | None = None,
    around: str | None = None,
) -> Markup:
    """The map with `targets` — (tile, link) pairs — outlined and tappable; `chosen`, the tile
    picked, filled. Every name in it is escaped by the site's template; the links here.
    `around`: the tile a phone's frame opens on (the army's), the map kept at its own size so
    that its tiles are big enough to tap and its labels to read."""
    from cok.rulesets.mighty_kingdoms.site import environment, picture
    from cok.rulesets.mighty_kingdoms.site.svg import SIZE, centre, corners, points

    m = picture(name, state)
    svg = environment().get_template("map.svg").render(m=m)
    links = []
    for tile, href in targets:
        outline = points(corners(*centre(tile), size=36.0))
        label = state.map.label(tile)
        picked = ' aria-current="true"' if tile == chosen else ""
        links.append(
            f'<a href="{escape(href)}" class="move-to" data-tile="{escape(tile)}"{picked}>'
            f"<title>Move to {escape(label)}</title>"
            f'<polygon points="{outline}"/></a>'
        )
    layer = f'<g class="targets">{"".join(links)}</g>'
    end = svg.rfind("</svg>")
    drawn = svg[:end] + layer + svg[end:]
    if around is None:
        return Markup(drawn)
    x, y = centre(around)
    left, top = x - float(m.x) - 2.5 * SIZE, y - float(m.y) - 2.5 * SIZE  # the tile and its neighbours
    focus = f"left: {left:.0f}px; top: {top:.0f}px; width: {5 * SIZE:.0f}px; height: {5 * SIZE:.0f}px"
    return Markup(
        f'<div class="mk-frame"><div class="mk-sheet">{drawn}'
        f'<div class="mk-focus" aria-hidden="true" style="{focus}"></div></div></div>'
    )
