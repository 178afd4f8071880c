"""Writing the static site: HTML pages and the map picture, from Jinja2 templates with
autoescaping on, so every name from the campaign's files is shown as text."""

from __future__ import annotations

from importlib import resources

from jinja2 import Environment, PackageLoader, StrictUndefined

from cok.core.campaign import Campaign
from cok.core.text import for_markup
from cok.rulesets.clash_of_kings.site.views import (
    LogPage,
    MapPicture,
    SiteData,
    colours,
    cp_chart,
    log_pages,
    map_picture,
    site_data,
)

LATEST = 10


def environment() -> Environment:
    return Environment(
        loader=PackageLoader("cok.rulesets.clash_of_kings.site", "templates"),
        autoescape=True,
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        finalize=for_markup,
    )


def map_svg(site: SiteData, env: Environment | None = None) -> str:
    """The map picture alone, as a standalone SVG document."""
    return _svg(map_picture(site.state, site.colours, f"{site.name} — week {site.week}"), env or environment())


def campaign_map_svg(campaign: Campaign) -> str:
    """`cok map --svg`: the map of the campaign's state (no history needed)."""
    state = campaign.state
    return _svg(map_picture(state, colours(state), f"{campaign.name} — week {state.week}"), environment())


def _svg(picture: MapPicture, env: Environment) -> str:
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + env.get_template("map.svg").render(m=picture)


def site_pages(campaign: Campaign) -> dict[str, str]:
    """The site's files, by path relative to its folder (the core writes them)."""
    site = site_data(campaign)
    env = environment()
    picture = map_picture(site.state, site.colours, f"{site.name} — week {site.week}")
    pages: dict[str, str] = {
        "index.html": env.get_template("index.html").render(
            site=site, root="", m=picture, latest=[e for e in site.entries if e.battle][:LATEST]
        ),
        "map.svg": map_svg(site, env),
        "style.css": resources.files("cok.rulesets.clash_of_kings.site")
        .joinpath("templates/style.css")
        .read_text(encoding="utf-8"),
    }
    logs: list[LogPage | None] = [*log_pages(site.weeks)] or [None]  # an empty log: one empty page
    for log in logs:
        name = log.file if log else "log.html"
        pages[name] = env.get_template("log.html").render(site=site, root="", page=log, pages=logs)
    for page in site.players:
        pages[f"players/{page.id}.html"] = env.get_template("player.html").render(
            site=site, root="../", p=page, chart=cp_chart(page.cp_by_week)
        )
    return pages
