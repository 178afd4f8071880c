"""The board on the resolve form: the site's own picture (`site/board.py`, the same as `cok map
--svg`) with the areas the agent's house may use outlined — where it may move to (red where
that is a combat), where it may muster — kept at its own size in a frame that opens on the
house's troops, as Mighty Kingdoms' map opens on the army ordered."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from markupsafe import Markup


def board(picture: Mapping[str, Any], offered: Mapping[str, Any]) -> Markup:
    """The site's picture of the board (the `picture` read), with `offered`'s areas (an agent's
    offer, as the `resolving` read gives it) ringed and its frame on the house's troops
    (its `home`)."""
    from cok.rulesets.no_true_king.site import environment
    from cok.rulesets.no_true_king.site.board import BOX_H, BOX_W

    at = {a["name"]: (float(a["x"]), float(a["y"])) for a in picture["areas"]}
    marks: dict[str, str] = {}
    for m in offered["musters"]:
        marks[m["name"]] = "muster"
    for r in offered["routes"]:
        marks[r["to"]] = "fight" if r["against"] else marks.get(r["to"], "move")
    rings = [
        {
            "kind": kind,
            "area": name,
            "x": at[name][0] - BOX_W / 2 - 4,
            "y": at[name][1] - BOX_H / 2 - 4,
            "width": BOX_W + 8,
            "height": BOX_H + 8,
        }
        for name, kind in sorted(marks.items())
    ]
    mine = offered["home"]
    focus = None
    if mine:
        x, y = at[mine[0]]
        focus = {
            "area": mine[0],
            "left": x - 1.5 * BOX_W,
            "top": y - 2 * BOX_H,
            "width": 3 * BOX_W,
            "height": 4 * BOX_H,
        }
    env = environment()
    return Markup(env.get_template("board.html").render(b=picture, rings=rings, focus=focus))
