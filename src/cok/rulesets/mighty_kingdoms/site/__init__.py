"""The campaign's static web site and its hex map picture (`cok site`, `cok map --svg`).

Pages come from the shared site engine (`cok.render.site`: Jinja2 with autoescaping, so
every name from the campaign's files is shown as text) and this game's templates. Nothing here reads the clock:
the same log gives the same files, byte for byte.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from jinja2 import Environment
from markupsafe import Markup

from cok.render import site as engine

if TYPE_CHECKING:
    from cok.core.campaign import Campaign
    from cok.rulesets.mighty_kingdoms.rules.state import State
    from cok.rulesets.mighty_kingdoms.site.svg import MapPicture

#: The site's pages as every page's header names them (label, file), home first: the one
#: list, which the served pages' header reads too (`table.web().pages`).
PAGES = (("Kingdoms", "index.html"), ("Log", "log.html"), ("Map", "map.html"))


def environment() -> Environment:
    """The shared site engine with this game's templates (`templates/`)."""
    return engine.environment("cok.rulesets.mighty_kingdoms.site", PAGES)


def picture(name: str, state: State) -> MapPicture:
    from cok.rulesets.mighty_kingdoms.site.svg import map_picture
    from cok.rulesets.mighty_kingdoms.words import when

    return map_picture(state, f"{name} — {when(state)}")


def _svg(m: MapPicture, env: Environment) -> str:
    return env.get_template("document.svg").render(picture="map.svg", m=m)


def campaign_map_svg(campaign: Campaign) -> str:
    """`cok map --svg`: the map of the campaign's state, as a standalone SVG document."""
    return _svg(picture(campaign.name, campaign.state), environment())


def site_pages(campaign: Campaign, served: bool = False) -> Iterator[tuple[str, str]]:
    """The site's files, by path relative to its folder, one at a time (the core writes
    each as it comes). The log and each kingdom's history are in pages of whole months,
    filled from the history read a second time, so one page is held at a time.
    `served`: as `cok serve` shows them after every recording: shorter pages
    (`SERVED_PAGE_ENTRIES`), each linking to the pages near it, and a kingdom's newest
    winters gathered (`SERVED_WINTERS`) (issue #37)."""
    from cok.render.paging import Filler, Page, nearby
    from cok.rulesets.mighty_kingdoms.site import pages as data
    from cok.rulesets.mighty_kingdoms.site.pages import log_pages, periods_of, site_data
    from cok.rulesets.mighty_kingdoms.words import when

    per_page = data.SERVED_PAGE_ENTRIES if served else data.LOG_PAGE_ENTRIES
    site = site_data(campaign, per_page, data.SERVED_WINTERS if served else None)
    env = environment()
    m = picture(site.name, site.state)
    now = when(site.state)
    # the map drawn once for the home page and map.svg: each page after a recording is made
    # after them (a third of a kingdom's page, at any size)
    drawn = Markup(env.get_template("map.svg").render(m=m))
    yield "index.html", engine.page(env, "index.html", site=site, root="", m=m, now=now, drawn=drawn)
    yield "map.svg", env.get_template("document.svg").render(picture="drawn.svg", drawn=drawn)
    # opened on its own on a phone: a page keeping it at its own size in a frame (issue #35)
    yield (
        "map.html",
        engine.page(
            env, "picture.html", site=site, root="", m=m, svg="map.svg", heading="The map", focus=None, now=now
        ),
    )
    yield "style.css", engine.stylesheet("cok.rulesets.mighty_kingdoms.site")
    if served:  # the pages as the fold cut them (planning them again is a pass over the months)
        logs = site.plans.get("log.html") or log_pages(site.period_entries, per_page=per_page)
        kingdoms = {
            k.id: (
                k,
                site.plans.get(f"kingdoms/{k.id}.html") or log_pages(k.periods, f"kingdoms/{k.id}.html", per_page),
            )
            for k in site.kingdoms
        }
    else:
        logs = log_pages(site.period_entries)
        kingdoms = {k.id: (k, log_pages(k.periods, f"kingdoms/{k.id}.html")) for k in site.kingdoms}

    def listed(pages: list[Page], page: Page) -> list[Page]:
        return nearby(pages, page) if served else pages

    def log_page(page: Page) -> str:
        return engine.page(env, "log.html", site=site, root="", now=now, page=page, pages=listed(logs, page))

    def kingdom_page(pid: str, page: Page) -> str:
        k, pages = kingdoms[pid]
        return engine.page(
            env, "kingdom.html", site=site, root="../", k=k, now=now, page=page, pages=listed(pages, page)
        )

    def shown(planned: Page) -> Page | None:  # the newest page as the site's data holds it
        kept = site.newest.get(planned.file)
        if kept is not None and kept.groups == planned.groups:
            return kept
        return planned if not planned.groups else None  # else: filled by the pass below

    # the newest pages first, from the site's data (no pass over the history)
    early: set[str] = set()
    newest = shown(logs[0])
    if newest is not None:
        early.add(newest.file)
        yield newest.file, log_page(newest)
    for pid, (_, pages) in kingdoms.items():
        newest = shown(pages[0])
        if newest is not None:
            early.add(newest.file)
            yield newest.file, kingdom_page(pid, newest)
    if all(p.file in early for p in logs) and all(p.file in early for _, ps in kingdoms.values() for p in ps):
        return
    # the older pages, filled from the history read a second time
    fillers = {pid: Filler([Page(p.file, p.groups) for p in pages], k.last) for pid, (k, pages) in kingdoms.items()}
    log = Filler([Page(p.file, p.groups) for p in logs], site.last)  # of their own: the fold's are shared
    for at, (period, _, told) in enumerate(periods_of(campaign.told())):
        for page in log.add(period, told, at):
            if page.file not in early:
                yield page.file, log_page(page)
        for pid in told.players:
            if pid in fillers:
                for page in fillers[pid].add(period, told, at):
                    if page.file not in early:
                        yield page.file, kingdom_page(pid, page)
    for page in log.close():
        if page.file not in early:
            yield page.file, log_page(page)
    for pid, filler in fillers.items():
        for page in filler.close():
            if page.file not in early:
                yield page.file, kingdom_page(pid, page)
