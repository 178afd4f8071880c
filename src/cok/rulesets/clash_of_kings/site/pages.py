"""Writing the static site: HTML pages and the map picture, through the shared site engine
(`cok.render.site`: Jinja2 with autoescaping, so every name from the campaign's files is
shown as text) and this game's templates."""

from __future__ import annotations

from collections.abc import Iterator

from jinja2 import Environment

from cok.core.campaign import Campaign
from cok.render import site as engine
from cok.render.paging import Filler, Page, nearby
from cok.rulesets.clash_of_kings.site import PAGES
from cok.rulesets.clash_of_kings.site.shown import (
    LOG_PAGE_ENTRIES,
    SERVED_CHART_WEEKS,
    SERVED_PAGE_ENTRIES,
    MapPicture,
    PlayerPage,
    SiteData,
    colours,
    cp_chart,
    log_pages,
    map_picture,
    page_label,
    site_data,
    weeks_of,
)


def environment() -> Environment:
    """The shared site engine with this game's templates (`templates/`)."""
    return engine.environment("cok.rulesets.clash_of_kings.site", PAGES)


def campaign_map_svg(campaign: Campaign) -> str:
    """`cok map --svg`: the map of the campaign's state (no history needed)."""
    state = campaign.state
    return _svg(map_picture(state, colours(state), f"{campaign.name} — week {state.week}"), environment())


def _svg(picture: MapPicture, env: Environment) -> str:
    return env.get_template("document.svg").render(picture="map.svg", m=picture)


def site_pages(campaign: Campaign, served: bool = False) -> Iterator[tuple[str, str]]:
    """The site's files, by path relative to its folder, one at a time (the core writes
    each as it comes). The log and each player's battles are in pages of whole weeks,
    filled from the history read a second time, so one page is held at a time.
    `served`: the pages as `cok serve` shows them, after every recording: shorter pages
    (`SERVED_PAGE_ENTRIES`), each linking to the pages near it, and a player's chart of
    at most `SERVED_CHART_WEEKS` weeks, so that the newest pages cost what a small
    campaign's do (issue #37)."""
    per_page = SERVED_PAGE_ENTRIES if served else LOG_PAGE_ENTRIES
    site = site_data(campaign, per_page)
    env = environment()
    picture = map_picture(site.state, site.colours, f"{site.name} — week {site.week}")
    yield (
        "index.html",
        engine.page(env, "index.html", site=site, root="", m=picture, latest=site.latest, built=site.built),
    )
    yield "map.svg", _svg(picture, env)  # the picture on the home page, placed once
    # opened on its own on a phone: a page keeping it at its own size in a frame (issue #35)
    yield (
        "map.html",
        engine.page(
            env,
            "picture.html",
            site=site,
            root="",
            m=picture,
            svg="map.svg",
            heading="The map",
            focus=picture.focus,
            built=site.built,
        ),
    )
    yield "style.css", engine.stylesheet("cok.rulesets.clash_of_kings.site")
    if served:  # the pages as the fold cut them (planning them again is a pass over the weeks)
        logs = site.plans.get("log.html") or log_pages(site.week_entries, per_page)
        players = {
            p.id: (
                p,
                site.plans.get(f"players/{p.id}.html") or log_pages(p.battle_weeks, per_page, f"players/{p.id}.html"),
            )
            for p in site.players
        }
    else:
        logs = log_pages(site.week_entries)
        players = {p.id: (p, log_pages(p.battle_weeks, per_page, f"players/{p.id}.html")) for p in site.players}
    chart = SERVED_CHART_WEEKS if served else None
    # the newest pages first, from the site's data (no pass over the history)
    early: set[str] = set()
    newest = _shown(site, logs[0])
    if newest is not None:
        early.add(newest.file)
        yield newest.file, _log_page(env, site, newest, logs, served)
    for pid, (_, pages) in players.items():
        newest = _shown(site, pages[0])
        if newest is not None:
            early.add(newest.file)
            yield newest.file, _player_page(env, site, players[pid], newest, chart)
    if all(p.file in early for p in logs) and all(p.file in early for _, ps in players.values() for p in ps):
        return
    # the older pages, filled from the history read a second time
    fillers = {pid: Filler(_unfilled(pages), p.last_battles) for pid, (p, pages) in players.items()}
    log = Filler(_unfilled(logs), site.last_entries)
    for at, (week, told) in enumerate(weeks_of(campaign.told())):
        entry = site.entry(told)
        for page in log.add(week, entry, at):
            if page.file not in early:
                yield page.file, _log_page(env, site, page, logs, served)
        if entry.battle:
            for pid in told.players:
                if pid in fillers:
                    for page in fillers[pid].add(week, entry, at):
                        if page.file not in early:
                            yield page.file, _player_page(env, site, players[pid], page, chart)
    for page in log.close():
        if page.file not in early:
            yield page.file, _log_page(env, site, page, logs, served)
    for pid, filler in fillers.items():
        for page in filler.close():
            if page.file not in early:
                yield page.file, _player_page(env, site, players[pid], page, chart)


def _unfilled(pages: list[Page]) -> list[Page]:
    """Pages of their own to fill (the fold's are shared with the next version)."""
    return [Page(p.file, p.groups) for p in pages]


def _shown(site: SiteData, planned: Page) -> Page | None:
    """The newest page as the site's data holds it, its entries as the pages show them; an
    empty page as planned; None when the data does not hold it (the pass over the history
    fills it)."""
    kept = site.newest.get(planned.file)
    if kept is None or kept.groups != planned.groups:
        return planned if not planned.groups else None
    return Page(kept.file, kept.groups, {g: [site.entry(t) for t in told] for g, told in kept.entries.items()})


def _log_page(env: Environment, site: SiteData, page: Page, pages: list[Page], served: bool) -> str:
    listed = nearby(pages, page) if served else pages
    return engine.page(env, "log.html", site=site, root="", page=page, pages=listed, label=page_label, built="")


def _player_page(
    env: Environment, site: SiteData, player: tuple[PlayerPage, list[Page]], page: Page, chart: int | None
) -> str:
    """A player's page: who they are, what they hold, their CP week by week and their
    latest battles; their older battles on pages of their own, with the battles alone.
    `chart`: at most that many weeks drawn (served pages; every page links near it)."""
    p, pages = player
    newest = page.file == pages[0].file
    return engine.page(
        env,
        "player.html",
        site=site,
        root="../",
        p=p,
        chart=cp_chart(p.cp_by_week, most=chart) if newest else None,
        page=page,
        pages=pages if chart is None else nearby(pages, page),
        label=page_label,
        built="",
    )
