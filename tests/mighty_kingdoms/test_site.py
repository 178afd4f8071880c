"""The Mighty Kingdoms site and hex map, built from a campaign played through the real CLI:
every tile drawn once and in hex order, kingdoms in their colours, armies standing or lying,
settlements and side features as the map file has them, names escaped, the same bytes twice."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

import pytest
import yaml
from typer.testing import CliRunner

from cok.core.history import Told
from cok.main import app
from cok.rulesets.mighty_kingdoms.site.pages import periods_of

from ..conftest import ROOT, older_pages_never_show, rewritten_since, site_marks

SVG = "{http://www.w3.org/2000/svg}"
STEP = {"n": (0, -1), "ne": (1, -1), "se": (1, 0), "s": (0, 1), "sw": (-1, 1), "nw": (-1, 0)}
EVIL = "<script>alert(1)</script>"


def cok(folder: Path, *args: str) -> str:
    result = CliRunner().invoke(app, [*args, "-C", str(folder)], catch_exceptions=False)
    assert result.exit_code == 0, result.stdout + result.stderr
    return result.stdout


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two kingdoms a tile apart: both armies march into 3,-5, ana wins, bo-1 lies on its side."""
    folder = tmp_path_factory.mktemp("mk") / "reaches"
    result = CliRunner().invoke(app, ["init", str(folder), "--ruleset", "mighty-kingdoms"], catch_exceptions=False)
    assert result.exit_code == 0, result.stdout + result.stderr
    steps = [
        "mk kingdom ana --name EVIL --race Elves --capital Emberhold --city 1,-4 --fortress 2,-5 "
        "--villages 0,-4 0,-5 --army 2,-5",
        "mk kingdom bo --race Orcs --capital Ironcrag --city 3,-4 --fortress 4,-3 --villages 4,-5 5,-5 --army 3,-4",
        "mk begin --order ana,bo",
        "mk order ana-1 move 3,-5",
        "mk order bo-1 move 3,-5",
        "mk resolve ana-1 --roll 3 4",
        "mk resolve bo-1",
        "mk battle 3,-5 --attacker ana --defender bo --dice ana-1=6 --dice bo-1=1 --allocate ana-1:bo-1 "
        "--allocate bo-1:ana-1 --retreat bo-1=3,-4",
        "mk reform --order ana,bo",
    ]
    for step in steps:
        cok(folder, *(EVIL if word == "EVIL" else word for word in step.split()))
    cok(folder, "mk", "order", "ana-1", "defend")
    slip = re.findall(r"^  id: (\S+)$", (folder / "events.yaml").read_text(), re.M)[-1]
    cok(folder, "void", slip, "--reason", "ana meant to move")
    return folder


@pytest.fixture(scope="module")
def site(played: Path) -> Path:
    out = played.parent / "public"
    cok(played, "site", str(out))
    return out


@pytest.fixture(scope="module")
def svg(site: Path) -> ElementTree.Element:
    return ElementTree.fromstring((site / "map.svg").read_bytes())


def map_tiles(played: Path) -> dict[str, dict[str, Any]]:
    data = yaml.safe_load((played / "map.yaml").read_text())
    return {f"{t['at'][0]},{t['at'][1]}": t for t in data["tiles"]}


def as_json(played: Path, *args: str) -> Any:
    return json.loads(cok(played, *args, "--json"))


def tile_polygons(svg: ElementTree.Element) -> list[ElementTree.Element]:
    return [p for p in svg.iter(f"{SVG}polygon") if "tile" in p.get("class", "").split()]


def corner_set(polygon: ElementTree.Element) -> set[tuple[float, float]]:
    return {(round(float(x)), round(float(y))) for x, y in (p.split(",") for p in polygon.get("points", "").split())}


def with_class(svg: ElementTree.Element, tag: str, cls: str) -> list[ElementTree.Element]:
    return [e for e in svg.iter(f"{SVG}{tag}") if cls in e.get("class", "").split()]


def test_every_tile_of_the_map_is_drawn_once(played: Path, svg: ElementTree.Element) -> None:
    drawn = [p.get("data-tile") for p in tile_polygons(svg)]
    assert len(drawn) == len(map_tiles(played)) == 100
    assert sorted(drawn, key=str) == sorted(map_tiles(played))
    assert all(len(corner_set(p)) == 6 for p in tile_polygons(svg))


def test_neighbours_share_the_side_named_for_them(played: Path, svg: ElementTree.Element) -> None:
    """Flat-topped, axial: a tile and its neighbour share exactly one side (two corners), and
    the n neighbour is straight above, the s one straight below."""
    polygons = {p.get("data-tile"): p for p in tile_polygons(svg)}
    for tile in map_tiles(played):
        q, r = (int(v) for v in tile.split(","))
        mine = corner_set(polygons[tile])
        for side, (dq, dr) in STEP.items():
            other = f"{q + dq},{r + dr}"
            if other in polygons:
                assert len(mine & corner_set(polygons[other])) == 2, (tile, side)
    x = sorted(corner_set(polygons["0,0"]))
    above = sorted(corner_set(polygons["0,-1"]))
    assert [a[0] for a in above] == [b[0] for b in x] and above[0][1] < x[0][1]


def legend_colours(svg: ElementTree.Element) -> dict[str, str]:
    found = {}
    for group in with_class(svg, "g", "legend-kingdom"):
        swatch, label = group.find(f"{SVG}rect"), group.find(f"{SVG}text")
        assert swatch is not None and label is not None
        found[(label.text or "").rsplit(" (", 1)[0]] = swatch.get("fill", "")
    return found


def test_a_kingdoms_tiles_have_its_colour(played: Path, svg: ElementTree.Element) -> None:
    colours = legend_colours(svg)
    assert set(colours) == {EVIL, "bo"} and colours[EVIL] != colours["bo"]
    fills = {p.get("data-tile"): p.get("fill") for p in tile_polygons(svg)}
    for kingdom in as_json(played, "mk", "kingdoms")["kingdoms"]:
        assert fills[kingdom["capital"]] == colours[kingdom["name"]]
    assert fills["3,-5"] == colours[EVIL]  # explored by ana-1 and held after the battle
    assert fills["0,0"] not in colours.values()  # Kingsford: nobody has been there
    held = sum(1 for f in fills.values() if f in colours.values())
    assert held == sum(k["tiles"] for k in as_json(played, "mk", "kingdoms")["kingdoms"])


def test_each_army_has_a_marker_standing_or_lying(played: Path, svg: ElementTree.Element) -> None:
    armies = as_json(played, "mk", "armies")["armies"]
    markers = {g.get("data-army"): g for g in with_class(svg, "g", "army")}
    assert set(markers) == {a["id"] for a in armies} == {"ana-1", "bo-1"}
    for army in armies:
        marker = markers[army["id"]]
        assert ("upright" if army["upright"] else "side") in marker.get("class", "").split()
        rect, number = marker.find(f"{SVG}rect"), marker.find(f"{SVG}text")
        assert rect is not None and number is not None
        tall = float(rect.get("height", 0)) > float(rect.get("width", 0))
        assert tall == army["upright"]
        assert number.text == army["id"].rsplit("-", 1)[1]
    assert not next(a for a in armies if a["id"] == "bo-1")["upright"]


def test_settlements_have_their_symbols_in_their_tiles(played: Path, svg: ElementTree.Element) -> None:
    kingdoms = as_json(played, "mk", "kingdoms")["kingdoms"]
    places = with_class(svg, "g", "settlement")
    kinds = [next(c for c in p.get("class", "").split() if c != "settlement") for p in places]
    assert kinds.count("capital") == 2
    assert kinds.count("city") == sum(k["cities"] for k in kingdoms)
    assert kinds.count("fortress") == sum(k["fortresses"] for k in kingdoms)
    assert kinds.count("village") == sum(k["villages"] for k in kingdoms)
    polygons = {p.get("data-tile"): p for p in tile_polygons(svg)}
    capitals = [p for p in places if "capital" in p.get("class", "")]
    for kingdom, place in zip(kingdoms, capitals, strict=True):
        x, y = (float(v) for v in re.findall(r"-?[\d.]+", place.get("transform", "")))
        corners = corner_set(polygons[kingdom["capital"]])
        assert min(c[0] for c in corners) < x < max(c[0] for c in corners)
        assert min(c[1] for c in corners) < y < max(c[1] for c in corners)


def edges_with(tiles: dict[str, dict[str, Any]], feature: str) -> set[frozenset[str]]:
    found = set()
    for tile, data in tiles.items():
        q, r = (int(v) for v in tile.split(","))
        for side, drawn in (data.get("sides") or {}).items():
            if drawn == feature:
                dq, dr = STEP[side]
                found.add(frozenset({tile, f"{q + dq},{r + dr}"}))
    return found


def test_rivers_marshes_and_sides_are_drawn(played: Path, svg: ElementTree.Element) -> None:
    tiles = map_tiles(played)
    rivers = [t for t, d in tiles.items() if d.get("river")]
    assert len(with_class(svg, "path", "river")) >= len(rivers) > 0
    marsh = {p.get("data-tile") for p in with_class(svg, "polygon", "marsh")}
    assert marsh == {t for t, d in tiles.items() if d.get("marsh")} != set()
    assert len(with_class(svg, "line", "water")) == len(edges_with(tiles, "water")) > 0
    for feature in ("mountain", "forest"):
        groups = with_class(svg, "g", feature)
        assert len(groups) == len(edges_with(tiles, feature)) > 0
        assert all(g.findall(f"{SVG}polygon") for g in groups)  # peaks or trees along it


def test_each_water_side_is_drawn_on_the_side_the_map_names(played: Path, svg: ElementTree.Element) -> None:
    """Screen directions of a flat-topped hex: n straight up, ne up and right, se down and right…"""
    direction = {"n": (0, -1), "s": (0, 1), "ne": (0.866, -0.5), "se": (0.866, 0.5), "sw": (-0.866, 0.5),
                 "nw": (-0.866, -0.5)}  # fmt: skip
    middles = [
        ((float(e.get("x1", 0)) + float(e.get("x2", 0))) / 2, (float(e.get("y1", 0)) + float(e.get("y2", 0))) / 2)
        for e in with_class(svg, "line", "water")
    ]
    polygons = {p.get("data-tile"): corner_set(p) for p in tile_polygons(svg)}
    checked = 0
    for tile, data in map_tiles(played).items():
        corners = polygons[tile]
        cx, cy = sum(c[0] for c in corners) / 6, sum(c[1] for c in corners) / 6
        apothem = (max(c[1] for c in corners) - min(c[1] for c in corners)) / 2
        for side, feature in (data.get("sides") or {}).items():
            if feature == "water":
                dx, dy = direction[side]
                want = (cx + dx * apothem, cy + dy * apothem)
                assert any(abs(m[0] - want[0]) < 1.5 and abs(m[1] - want[1]) < 1.5 for m in middles), (tile, side)
                checked += 1
    assert checked > 20


def test_names_are_escaped_everywhere(site: Path) -> None:
    for path in site.rglob("*"):
        if path.suffix in (".html", ".svg"):
            text = path.read_text()
            assert "<script" not in text, path
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in (site / "index.html").read_text()
    assert "&lt;script&gt;" in (site / "kingdoms" / "ana.html").read_text()
    assert "&lt;script&gt;" in (site / "map.svg").read_text()
    named = [t for t in map_tiles(site.parent / "reaches").values() if t.get("name") == "Spine's End"]
    assert named and "Spine&#39;s End" in (site / "map.svg").read_text()


def test_the_pages_exist_and_link_up(site: Path) -> None:
    names = sorted(str(p.relative_to(site)) for p in site.rglob("*") if p.is_file() and p.name != ".cok-site")
    assert names == [
        "index.html",
        "kingdoms/ana.html",
        "kingdoms/bo.html",
        "log.html",
        "map.html",
        "map.svg",
        "style.css",
    ]
    home = (site / "index.html").read_text()
    assert home.count("<svg") == 1 and 'class="campaign-map"' in home
    assert "source names no winner" in home
    assert re.search(r"<dt>Phase</dt><dd>orders</dd>", home)
    assert "an order for ana-1, bo-1" in home
    rows = re.findall(r'href="kingdoms/([a-z]+)\.html"', home)
    assert rows == ["ana", "bo"]  # ana holds 3,-5 too: 8 tiles to 7, on 5 settlements each
    ana = (site / "kingdoms" / "ana.html").read_text()
    assert ana.count('class="army-row"') == 1 and "Battle at 3,-5" in ana
    bo = (site / "kingdoms" / "bo.html").read_text()
    assert "on its side" in bo and "No winter yet." in bo


def test_the_log_is_grouped_by_month_newest_first(site: Path) -> None:
    log = (site / "log.html").read_text()
    headings = re.findall(r"<h2>([^<]*)</h2>", log)
    assert headings == ["Year 1, month 2", "Year 1, month 1", "Setup"]
    month_one = log.split("<h2>Year 1, month 1</h2>", 1)[1].split("<h2>", 1)[0]
    assert "The campaign begins" in month_one and "Battle at 3,-5" in month_one
    assert month_one.index("Month 1 of year 1 ends") < month_one.index("Battle at 3,-5") < month_one.index("begins")
    month_two = log.split("<h2>Year 1, month 2</h2>", 1)[1].split("<h2>", 1)[0]
    voided = re.findall(r'<li class="[a-z]+ voided"><bdi>([^<]*)', month_two)
    assert len(voided) == 1 and "ana-1" in voided[0] and "defend" in voided[0]
    assert len(re.findall(r'<li class="[a-z]+ voided">', log)) == 1  # the void itself stands


def told(kind: str, voided: bool = False) -> Told:
    return Told(1, None, None, kind, f"a {kind}", voided, (), {"type": kind})


def test_voided_events_move_no_boundary_and_winter_follows_the_sixth_reform() -> None:
    history = [told("kingdom"), told("begin"), told("reform", voided=True), told("order")]
    history += [told("reform") for _ in range(6)] + [told("winter"), told("feed"), told("spring"), told("order")]
    grouped: dict[int, tuple[str, list[str]]] = {}
    for period, heading, t in periods_of(history):
        grouped.setdefault(period, (heading, []))[1].append(t.type)
    found = list(grouped.values())
    assert found[0] == ("Setup", ["kingdom"])
    assert found[1] == ("Year 1, month 1", ["begin", "reform", "order", "reform"])
    assert [h for h, _ in found[2:7]] == [f"Year 1, month {m}" for m in range(2, 7)]
    assert found[7] == ("The winter of year 1", ["winter", "feed"])
    assert found[8] == ("Year 2, month 1", ["spring", "order"])


def test_the_same_state_gives_the_same_bytes(played: Path, site: Path, tmp_path: Path) -> None:
    again = tmp_path / "again"
    cok(played, "site", str(again))
    for name in ("map.svg", "index.html", "log.html", "kingdoms/ana.html"):
        assert (again / name).read_bytes() == (site / name).read_bytes(), name
    cok(played, "map", "--svg", str(tmp_path / "one.svg"))
    cok(played, "map", "--svg", str(tmp_path / "two.svg"))
    assert (tmp_path / "one.svg").read_bytes() == (tmp_path / "two.svg").read_bytes()
    ElementTree.fromstring((tmp_path / "one.svg").read_bytes())


def test_a_long_log_is_in_linked_pages_of_whole_months_holding_every_event_once(tmp_path: Path) -> None:
    from cok.rulesets.mighty_kingdoms.site import pages

    example = tmp_path / "campaigns" / "mighty-kingdoms"
    shutil.copytree(ROOT / "campaigns" / "mighty-kingdoms", example)
    whole, paged = tmp_path / "whole", tmp_path / "paged"
    cok(example, "site", str(whole))
    pages.log_pages.__defaults__ = ("log.html", 40)
    try:
        cok(example, "site", str(paged))
    finally:
        pages.log_pages.__defaults__ = ("log.html", pages.LOG_PAGE_ENTRIES)
    entry = re.compile(r"<li class=\"[a-z]+(?: voided)?\">.*?</li>")
    found = [e for page in sorted(paged.glob("log*.html")) for e in entry.findall(page.read_text())]
    assert len(list(paged.glob("log-*.html"))) > 2 and 'href="log-1.html"' in (paged / "log.html").read_text()
    assert sorted(found) == sorted(entry.findall((whole / "log.html").read_text()))
    months = [re.findall(r"<h2>([^<]*)</h2>", page.read_text()) for page in paged.glob("log*.html")]
    assert sum(len(m) for m in months) == len({h for m in months for h in m})  # no month split over two pages
    history = re.compile(r"<h2>History</h2>.*?</ol>", re.S)
    for kingdom in (whole / "kingdoms").glob("*.html"):
        own = sorted(paged.glob(f"kingdoms/{kingdom.stem}*.html"))
        found = [li for page in own for li in re.findall(r"<li.*?</li>", history.findall(page.read_text())[0])]
        assert sorted(found) == sorted(re.findall(r"<li.*?</li>", history.findall(kingdom.read_text())[0]))


def test_a_rebuild_after_one_new_event_rewrites_only_the_pages_it_changed(tmp_path: Path) -> None:
    """An older page of the log or of a kingdom's history holds only what never changes: its
    armies, gold and rank are on the newest page alone."""
    from cok.rulesets.mighty_kingdoms.site import pages

    example = tmp_path / "campaigns" / "mighty-kingdoms"
    shutil.copytree(ROOT / "campaigns" / "mighty-kingdoms", example)
    out = tmp_path / "public"
    pages.log_pages.__defaults__ = ("log.html", 40)
    try:
        cok(example, "site", str(out))
        before = site_marks(out)
        cok(example, "mk", "order", "bo-4", "defend")
        cok(example, "site", str(out))
    finally:
        pages.log_pages.__defaults__ = ("log.html", pages.LOG_PAGE_ENTRIES)
    assert (out / "kingdoms" / "bo-1.html").exists()
    older_pages_never_show(out, "season-badge", ["index.html", "log.html", "kingdoms/bo.html"])  # today's month
    assert rewritten_since(before, out) == ["index.html", "kingdoms/bo.html", "log.html"]


def test_the_home_page_shows_the_latest_battles_newest_first(site: Path) -> None:
    home = (site / "index.html").read_text()
    latest = home.split("<h2>Latest battles</h2>", 1)[1].split("</ul>", 1)[0]
    battles = re.findall(r"<li><bdi>([^<]*)</bdi></li>", latest)
    assert len(battles) == 1 and battles[0].startswith("Battle at 3,-5")


def test_the_legend_shows_the_wizards_tower_only_where_the_map_has_one(played: Path) -> None:
    from cok.core.campaign import open_campaign
    from cok.rulesets.mighty_kingdoms.site import _svg, environment, picture

    def legend_words(svg: str) -> set[str | None]:
        root = ElementTree.fromstring(svg.split("\n", 1)[1].encode())
        legend = next(g for g in root.iter(f"{SVG}g") if g.get("class") == "legend")
        return {t.text for t in legend.iter(f"{SVG}text")}

    state = open_campaign(played, use_cache=False).state
    assert not state.towers
    without = legend_words(_svg(picture("c", state), environment()))
    assert {"village", "city", "fortress", "marsh", "river"} <= without
    assert "wizard's tower" not in without and "tower" not in without
    state.towers.add("0,0")
    with_one = legend_words(_svg(picture("c", state), environment()))
    assert {"wizard's tower", "tower"} <= with_one


def test_a_held_tile_carries_its_kingdoms_mark_not_only_its_colour(played: Path, svg: ElementTree.Element) -> None:
    marks = [t.text for g in with_class(svg, "g", "marks") for t in g.iter(f"{SVG}text")]
    from cok.render.palette import initials

    kingdoms = as_json(played, "mk", "kingdoms")["kingdoms"]
    mark = initials({k["id"]: k["name"] for k in kingdoms})
    assert mark == {"ana": "S", "bo": "B"}  # ana's name is EVIL: its first letter, S
    assert sorted(marks) == sorted(mark[k["id"]] for k in kingdoms for _ in range(k["tiles"]))
