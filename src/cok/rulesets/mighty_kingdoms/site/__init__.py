"""The campaign's static web site and its hex map picture (`cok site`, `cok map --svg`).

Pages come from Jinja2 templates with autoescaping on and `for_markup` as the finalizer,
so every name from the campaign's files is shown as text. Nothing here reads the clock:
the same log gives the same files, byte for byte.
"""

from __future__ import annotations

from importlib import resources
from typing import TYPE_CHECKING

from jinja2 import Environment, PackageLoader, StrictUndefined

from cok.core.text import for_markup

if TYPE_CHECKING:
    from cok.core.campaign import Campaign
    from cok.rulesets.mighty_kingdoms.rules.state import State
    from cok.rulesets.mighty_kingdoms.site.svg import MapPicture


def environment() -> Environment:
    return Environment(
        loader=PackageLoader("cok.rulesets.mighty_kingdoms.site", "templates"),
        autoescape=True,
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        finalize=for_markup,
    )


def picture(name: str, state: State) -> MapPicture:
    from cok.rulesets.mighty_kingdoms.site.pages import when
    from cok.rulesets.mighty_kingdoms.site.svg import map_picture

    return map_picture(state, f"{name} — {when(state)}")


def _svg(m: MapPicture, env: Environment) -> str:
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + env.get_template("map.svg").render(m=m)


def campaign_map_svg(campaign: Campaign) -> str:
    """`cok map --svg`: the map of the campaign's state, as a standalone SVG document."""
    return _svg(picture(campaign.name, campaign.state), environment())


def site_pages(campaign: Campaign) -> dict[str, str]:
    """The site's files, by path relative to its folder (the core writes them)."""
    from cok.rulesets.mighty_kingdoms.site.pages import site_data, when

    site = site_data(campaign)
    env = environment()
    m = picture(site.name, site.state)
    now = when(site.state)
    pages: dict[str, str] = {
        "index.html": env.get_template("index.html").render(site=site, root="", m=m, now=now),
        "log.html": env.get_template("log.html").render(site=site, root="", now=now),
        "map.svg": _svg(m, env),
        "style.css": resources.files("cok.rulesets.mighty_kingdoms.site")
        .joinpath("templates/style.css")
        .read_text(encoding="utf-8"),
    }
    for page in site.kingdoms:
        pages[f"kingdoms/{page.id}.html"] = env.get_template("kingdom.html").render(
            site=site, root="../", k=page, now=now
        )
    return pages
