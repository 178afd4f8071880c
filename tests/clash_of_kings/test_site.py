"""The campaign's static site and map picture: structure, escaping, and a real browser."""

from __future__ import annotations

import re
from pathlib import Path
from xml.etree import ElementTree

import pytest

from ..conftest import EXAMPLE, Cok, older_pages_never_show, rewritten_since, site_marks


@pytest.fixture
def site(example: Path, tmp_path: Path) -> Path:
    out = tmp_path / "public"
    run = Cok(example)("site", str(out))
    assert run.exit_code == 0, run.stderr
    return out


def test_the_home_page_shows_the_points_limit_standings_map_and_battles(site: Path) -> None:
    home = (site / "index.html").read_text()
    assert re.search(r'id="points-limit">Points limit this week: <strong>30</strong>', home)
    assert 'class="limit-badge"' in home and ">30</span>" in home
    assert home.count('class="player-row"') == 6
    assert "<svg" in home and 'class="campaign-map"' in home
    latest = re.findall(r"<li><bdi>(week \d+ — [^<]*)</bdi></li>", home)
    assert len(latest) == 10
    assert latest[0].startswith("week 5 — Sara (attacker) beat Dany at Hornwood")


def test_every_player_has_a_linked_page_with_holdings_history_and_chart(site: Path) -> None:
    home = (site / "index.html").read_text()
    links = re.findall(r'href="players/([a-z0-9_-]+)\.html"', home)
    assert sorted(links) == ["aaron", "dany", "jon", "matt", "sara", "tim"]
    sara = (site / "players" / "sara.html").read_text()
    assert "<td>Winterfell</td><td>castle</td>" in sara
    assert "Sara (attacker) beat Aaron at Last Hearth" in sara
    assert sara.count("<circle") == 5  # CP at the end of each of the five weeks
    assert 'href="../style.css"' in sara


def test_the_log_is_newest_first_in_the_words_of_cok_log(site: Path, example: Path) -> None:
    page = (site / "log.html").read_text()
    entries = re.findall(r"<li class=\"[^\"]*\"><bdi class=\"text\">([^<]*)</bdi>", page)
    words = Cok(example)("log").stdout
    assert entries[0] == "week 5 — Tim +1 CP by the organiser: hosted the week 5 games: organiser bonus"
    for entry in entries[:5]:
        assert entry.replace("&#39;", "'") in words
    assert 'class="other voided"' in page


def test_the_map_picture_draws_every_location_and_route(site: Path, example: Path, tmp_path: Path) -> None:
    svg = ElementTree.parse(site / "map.svg").getroot()
    ns = {"s": "http://www.w3.org/2000/svg"}
    groups = svg.findall(".//s:g[@class='locations']/s:g", ns)
    assert len(groups) == 100
    kinds = {g.get("class") for g in groups}
    assert kinds == {"location castle", "location fort", "location village", "location region"}
    lines = svg.findall(".//s:g[@class='routes']/s:line", ns)
    assert len(lines) == 142
    assert sum(1 for line in lines if line.get("stroke-dasharray")) == 28  # the sea routes
    legend = "".join(svg.find(".//s:g[@class='legend']", ns).itertext())
    assert all(name in legend for name in ("Dany", "Sara", "Tim"))
    drawn = list(svg.find(".//s:g[@class='legend']", ns))
    sara = next(i for i, e in enumerate(drawn) if e.text == "Sara")
    swatch, mark = drawn[sara - 2], drawn[sara - 1]  # her colour, and her mark written on it
    assert mark.get("class") == "mark" and mark.text == "S"
    winterfell = next(g for g in groups if g.findtext("s:title", namespaces=ns).startswith("Winterfell"))
    assert winterfell.find("s:rect", ns).get("fill") == swatch.get("fill")
    assert winterfell.find("s:text[@class='mark']", ns).text == "S"  # Sara's, written on her castle
    alone = tmp_path / "westeros.svg"
    assert Cok(example)("map", "--svg", str(alone)).exit_code == 0
    assert ElementTree.parse(alone).getroot().tag.endswith("svg")


def test_every_name_from_the_files_is_escaped(tmp_path: Path) -> None:
    cok = Cok(tmp_path)
    assert cok("init", "c", "--name", "Fire & <b>Blood</b>").exit_code == 0
    assert cok("join", "evil", "--faction", "stark", "--name", "<script>alert(1)</script>", "-C", "c").exit_code == 0
    assert cok("site", "out", "-C", "c").exit_code == 0
    for page in (tmp_path / "out").rglob("*.*"):
        text = page.read_text()
        assert "<script" not in text, page
        assert "<b>Blood" not in text, page
    home = (tmp_path / "out" / "index.html").read_text()
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in home
    assert "Fire &amp; &lt;b&gt;Blood&lt;/b&gt;" in home
    ElementTree.parse(tmp_path / "out" / "map.svg")  # still well-formed XML


def test_the_log_page_has_week_headings_and_each_voided_event_with_its_reason(site: Path) -> None:
    page = (site / "log.html").read_text()
    assert "<title>The campaign's log" in page
    headings = re.findall(r'<h2 id="week-(\d+)">Week \d+</h2>', page)
    assert headings == ["5", "4", "3", "2", "1"]
    week_5 = page.split('id="week-5"')[1].split('id="week-4"')[0]
    assert "week 5 — Tim +1 CP by the organiser" in week_5 and "week 4 —" not in week_5
    reasons = re.findall(r'<span class="void-reason">voided: <bdi>([^<]+)</bdi></span>', page)
    assert reasons and all(reasons)
    assert "recorded for the wrong player" in " ".join(reasons)


def label_boxes(svg: str) -> list[tuple[str, tuple[float, float, float, float]]]:
    """Every location name's box in the map picture, as its text element places it."""
    from cok.rulesets.clash_of_kings.site.shown import label_box

    ns = {"s": "http://www.w3.org/2000/svg"}
    root = ElementTree.fromstring(svg.encode())
    boxes = []
    for location in root.iterfind("s:g[@class='locations']/s:g", ns):
        text = location.find("s:text", ns)
        assert text is not None and text.text
        size = float(text.get("font-size", "13"))
        x, y = float(text.get("x", "0")), float(text.get("y", "0"))
        boxes.append((text.text, label_box(x, y, text.get("text-anchor", "start"), text.text, size)))
    return boxes


def test_no_two_map_labels_overlap(site: Path) -> None:
    boxes = label_boxes((site / "map.svg").read_text())
    assert len(boxes) > 90
    clashes = [
        (a, b)
        for i, (a, box_a) in enumerate(boxes)
        for b, box_b in boxes[i + 1 :]
        if box_a[0] < box_b[2] and box_b[0] < box_a[2] and box_a[1] < box_b[3] and box_b[1] < box_a[3]
    ]
    assert clashes == []


def test_no_map_label_leaves_the_picture(site: Path) -> None:
    svg = (site / "map.svg").read_text()
    x, y, width, height = map(float, re.search(r'viewBox="([^"]+)"', svg)[1].split())  # type: ignore[index]
    for name, (left, top, right, bottom) in label_boxes(svg):
        assert x <= left and right <= x + width and y <= top and bottom <= y + height, name


def test_player_colours_are_taken_from_the_shared_palette_by_faction_then_in_order() -> None:
    from cok.render import palette
    from cok.rulesets.clash_of_kings.site.shown import FACTION_COLOURS

    assert set(FACTION_COLOURS.values()) <= set(palette.CATEGORIES)
    assert palette.assign(["sara", "jon"], {"sara": palette.SKY, "jon": palette.SKY}) == {
        "sara": palette.SKY,
        "jon": palette.CATEGORIES[0],
    }


def test_at_390_px_the_standings_stack_each_value_under_its_column_name(site: Path) -> None:
    """On a phone each player's row is a card (tests/test_site_in_a_browser.py measures that
    it fits); every value keeps its column's name."""
    home = (site / "index.html").read_text()
    assert '<table class="standings stack">' in home
    row = home.split('class="player-row"')[1].split("</tr>")[0]
    labels = re.findall(r'data-label="([^"]+)"', row)
    assert labels == ["Faction", "CP", "Territory", "Bonus", "Holds", "W–L"]
    assert '<div class="map-frame" tabindex="0"' in home and 'href="map.html"' in home
    css = (site / "style.css").read_text()
    small = css.split("@media (max-width: 600px)")[1]
    assert "table.stack thead { display: none; }" in small and "attr(data-label)" in small


def test_the_log_is_in_pages_of_whole_weeks_each_no_longer_than_the_limit() -> None:
    from cok.rulesets.clash_of_kings.site.shown import log_pages, page_label

    pages = log_pages({5: 2, 6: 6, 7: 1, 8: 4, 9: 3}, per_page=5)
    assert [p.groups for p in pages] == [(9,), (7, 8), (6,), (5,)]  # a 6-entry week alone
    assert [p.file for p in pages] == ["log.html", "log-3.html", "log-2.html", "log-1.html"]
    assert [page_label(p) for p in pages] == ["week 9", "weeks 7–8", "week 6", "week 5"]


def test_the_log_pages_are_counted_from_the_oldest_week_so_a_full_page_never_changes() -> None:
    from cok.rulesets.clash_of_kings.site.shown import log_pages

    before = log_pages({1: 3, 2: 2, 3: 1}, per_page=5)
    after = log_pages({1: 3, 2: 2, 3: 4}, per_page=5)  # the newest week grew
    assert before[-1] == after[-1] and before[-1].groups == (1, 2) and before[-1].file == "log-1.html"


def test_a_long_log_is_split_into_linked_pages_holding_every_entry_once(example: Path, tmp_path: Path) -> None:
    from cok.rulesets.clash_of_kings.site import shown

    whole, paged = tmp_path / "whole", tmp_path / "paged"
    assert Cok(example)("site", str(whole)).exit_code == 0
    shown.log_pages.__defaults__ = (5, "log.html")
    try:
        assert Cok(example)("site", str(paged)).exit_code == 0
    finally:
        shown.log_pages.__defaults__ = (shown.LOG_PAGE_ENTRIES, "log.html")
    entries = re.compile(r'<li class="(?:battle|other)[^"]*">.*?</li>', re.S)
    pages = sorted(paged.glob("log*.html"))
    assert len(pages) > 2 and 'href="log-1.html"' in (paged / "log.html").read_text()
    paged_entries = [e for page in pages for e in entries.findall(page.read_text())]
    assert sorted(paged_entries) == sorted(entries.findall((whole / "log.html").read_text()))
    battles = re.compile(r"<h2>Battles</h2>.*?</ul>", re.S)
    for player in (whole / "players").glob("*.html"):
        own = sorted(paged.glob(f"players/{player.stem}*.html"))
        found = [li for page in own for li in re.findall(r"<li.*?</li>", battles.findall(page.read_text())[0])]
        expected = re.findall(r"<li.*?</li>", battles.findall(player.read_text())[0])
        assert sorted(found) == sorted(expected), player.stem
    assert not list(whole.glob("log-*.html"))


def test_a_rebuild_after_one_new_event_rewrites_only_the_pages_it_changed(
    example: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An older page of the log or of a player's battles holds only what never changes."""
    from cok.rulesets.clash_of_kings.site import pages, shown

    out = tmp_path / "public"
    monkeypatch.setattr(pages, "LOG_PAGE_ENTRIES", 2)  # the players' battles on several pages
    shown.log_pages.__defaults__ = (5, "log.html")
    try:
        assert Cok(example)("site", str(out)).exit_code == 0
        before = site_marks(out)
        assert Cok(example)("adjust", "tim", "1", "--reason", "late painting").exit_code == 0
        rebuilt = Cok(example)("site", str(out))
    finally:
        shown.log_pages.__defaults__ = (shown.LOG_PAGE_ENTRIES, "log.html")
    assert (out / "players" / "tim-1.html").exists()
    older_pages_never_show(out, "limit-badge", ["index.html", "log.html", "players/tim.html"])  # today's week
    assert rewritten_since(before, out) == ["index.html", "log.html", "players/tim.html"]
    assert f"({len(before) - 1 - 3} unchanged)" in rebuilt.stdout  # not counting .cok-site, the record


def test_the_maps_focus_holds_every_held_location_and_the_whole_map_while_none_is() -> None:
    """What a phone's map frame opens on (#29): the held locations, else the whole map."""
    from cok.core.campaign import open_campaign
    from cok.rulesets.clash_of_kings.site.shown import map_picture

    state = open_campaign(EXAMPLE).state
    picture = map_picture(state, {}, "t")
    left, top, width, height = picture.focus
    held = [state.geo.locations[name].at for name in state.holder]
    assert held and all(left <= x - picture.x <= left + width and top <= y - picture.y <= top + height for x, y in held)
    unheld = state.copy()
    unheld.holder.clear()
    whole = map_picture(unheld, {}, "t")
    assert whole.focus == (0.0, 0.0, whole.width, whole.height)
