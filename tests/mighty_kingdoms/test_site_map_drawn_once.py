"""Issue 37: Mighty Kingdoms' map is drawn once for the home page and map.svg of a version
of the site (every page after a recording is made after them), and both hold exactly what
drawing it in each gave: the map's own document, and the home page's map section."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from cok.core.campaign import open_campaign
from cok.render import site
from cok.rulesets.mighty_kingdoms import site as mk_site

EXAMPLE = Path(__file__).resolve().parents[1].parent / "campaigns" / "mighty-kingdoms"


def test_the_home_page_and_map_svg_are_made_from_one_drawing_of_the_map(tmp_path: Path) -> None:
    site._FOLDS.clear()
    campaign = open_campaign(Path(shutil.copytree(EXAMPLE, tmp_path / "mk")))
    env = mk_site.environment()
    template = env.get_template("map.svg")
    drawings: list[int] = []
    drawing = template.root_render_func

    def counted(context: Any) -> Any:
        drawings.append(1)
        return drawing(context)

    template.root_render_func = counted  # type: ignore[method-assign]
    try:
        pages = mk_site.site_pages(campaign, served=True)
        made = dict(next(pages) for _ in range(3))
    finally:
        template.root_render_func = drawing  # type: ignore[method-assign]
    assert list(made) == ["index.html", "map.svg", "map.html"]
    assert len(drawings) == 2  # once for the home page and map.svg, once in map.html's frame
    m = mk_site.picture(campaign.name, campaign.state)
    alone = env.get_template("document.svg").render(picture="map.svg", m=m)
    assert made["map.svg"] == alone
    inline = template.render(m=m)
    assert inline in made["index.html"] and inline in made["map.html"]
