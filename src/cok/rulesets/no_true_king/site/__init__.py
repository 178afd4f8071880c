"""The static site of a No True King game (`cok site`, `cok map --svg`): the board drawn in
SVG, the house ranking, where the game stands, the latest combats, the log — and, once the
game is over, the loyalty cards and scores. Pages come from the shared site engine
(`cok.render.site`: Jinja2 with autoescaping, so every name is shown as text) and this
game's templates. The same state always gives the same bytes."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from jinja2 import Environment

from cok.render import site as engine
from cok.rulesets.no_true_king.site.board import board_picture, n

if TYPE_CHECKING:
    from cok.core.campaign import Campaign
    from cok.rulesets.no_true_king.rules.state import State
    from cok.rulesets.no_true_king.site.pages import SiteData

GAME = "cok.rulesets.no_true_king.site"
#: The site's pages as every page's header names them (label, file), home first: the one
#: list, which the served pages' header reads too (`table.web().pages`).
PAGES = (("The game", "index.html"), ("The log", "log.html"), ("The board", "board.html"))


def environment() -> Environment:
    """The shared site engine with this game's templates (`templates/`)."""
    env = engine.environment(GAME, PAGES)
    env.filters["n"] = n
    return env


def board_svg(state: State, title: str, env: Environment | None = None) -> str:
    """The board as a standalone SVG document (`cok map --svg`, the site's `board.svg`)."""
    picture = board_picture(state, title)
    return (env or environment()).get_template("document.svg").render(picture="board.svg", b=picture)


def index_page(site: SiteData, env: Environment | None = None) -> str:
    env = env or environment()
    return engine.page(env, "index.html", site=site, root="", b=board_picture(site.state, site.name))


def log_page(site: SiteData, campaign: Campaign, env: Environment | None = None, served: bool = False) -> str:
    """The whole log, newest first: a game is a few hundred events, so one page. `served`:
    its newest events only (`SERVED_LOG`, folded), numbered as in the whole log."""
    if served:
        entries = site.newest
    else:
        entries = list(campaign.told())
        entries.reverse()
    start = site.events if served else None
    return engine.page(env or environment(), "log.html", site=site, root="", entries=entries, start=start)


def site_pages(campaign: Campaign, served: bool = False) -> Iterator[tuple[str, str]]:
    """The site's files, by path relative to its folder. `served`: as `cok serve` shows
    them after every recording (the log's newest events only, issue #37)."""
    from cok.rulesets.no_true_king.site.pages import site_data

    site = site_data(campaign)
    env = environment()
    yield "index.html", index_page(site, env)
    yield "log.html", log_page(site, campaign, env, served)
    yield "board.svg", board_svg(site.state, site.name, env)
    # opened on its own on a phone: a page keeping it at its own size in a frame (issue #35)
    b = board_picture(site.state, site.name)
    yield (
        "board.html",
        engine.page(env, "picture.html", site=site, root="", b=b, svg="board.svg", heading="The board", focus=None),
    )
    yield "style.css", engine.stylesheet(GAME)
