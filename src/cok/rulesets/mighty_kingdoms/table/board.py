"""The hex map on a kingdom's page: the site's own picture (`site/svg.py`, the same map as
`cok map --svg`), with the tiles an army may move into drawn as links, so that a player taps
a tile to give the order. Plain SVG, no script: a link works on every phone."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from markupsafe import Markup, escape

if TYPE_CHECKING:
    from cok.rulesets.mighty_kingdoms.rules.state import State


def board(name: str, state: State, targets: Sequence[tuple[str, str]] = (), chosen: str | None = None) -> Markup:
    """The map with `targets` — (tile, link) pairs — outlined and tappable; `chosen`, the tile
    picked, filled. Every name in it is escaped by the site's template; the links here."""
    from cok.rulesets.mighty_kingdoms.site import environment, picture
    from cok.rulesets.mighty_kingdoms.site.svg import centre, corners, points

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
    return Markup(svg[:end] + layer + svg[end:])
