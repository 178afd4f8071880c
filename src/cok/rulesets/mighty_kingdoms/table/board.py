"""The hex map on a kingdom's page: the site's own picture (`site/svg.py`, the same map as
`cok map --svg`), with the tiles an army may move into drawn as links, so that a player taps
a tile to give the order. Plain SVG, no script: a link works on every phone."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from markupsafe import Markup


def board(
    m: Mapping[str, Any],
    targets: Sequence[tuple[str, str, str]] = (),
    chosen: str | None = None,
    around: str | None = None,
) -> Markup:
    """The map (`m`: the `picture` read) with `targets` — (tile, label, link) — outlined and
    tappable; `chosen`, the tile picked, filled. Drawn by the site's templates (`board.html`,
    `targets.svg`), which escape every name.
    `around`: the tile a phone's frame opens on (the army's), the map kept at its own size so
    that its tiles are big enough to tap and its labels to read."""
    from cok.rulesets.mighty_kingdoms.site import environment
    from cok.rulesets.mighty_kingdoms.site.svg import SIZE, centre, corners, points

    links = [
        {
            "tile": tile,
            "href": href,
            "label": label,
            "outline": points(corners(*centre(tile), size=36.0)),
            "picked": tile == chosen,
        }
        for tile, label, href in targets
    ]
    focus = None
    if around is not None:
        x, y = centre(around)  # the tile and its neighbours
        focus = {"left": x - float(m["x"]) - 2.5 * SIZE, "top": y - float(m["y"]) - 2.5 * SIZE, "size": 5 * SIZE}
    return Markup(environment().get_template("board.html").render(m=m, targets=links, focus=focus))
