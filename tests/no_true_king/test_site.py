"""No True King's site, built from the shipped example: the revealed loyalty tokens in words,
the latest combats on the home page, the log newest first (issue #29)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from cok.rulesets.no_true_king.site.pages import revealed_words

from ..conftest import ROOT, Cok

EXAMPLE = ROOT / "campaigns" / "no-true-king-example"


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    base = tmp_path_factory.mktemp("ntk")
    shutil.copytree(EXAMPLE, base / "example")
    run = Cok(base / "example")("site", str(base / "site"))
    assert run.exit_code == 0, run.stderr
    return base / "site"


def test_the_revealed_loyalty_tokens_are_said_in_words() -> None:
    assert revealed_words(["", "tyrell", "baratheon", "", "stark"]) == (
        "tyrell in 2nd place, baratheon in 3rd place, stark left over"
    )
    assert revealed_words([""] * 5) == "none revealed"


def test_the_conspiracies_table_says_which_tokens_were_revealed_in_words(site: Path) -> None:
    home = (site / "index.html").read_text()
    assert "<th>loyalty tokens revealed</th>" in home
    cells = re.findall(r'<td class="wrap" data-label="revealed">([^<]*)</td>', home)
    assert len(cells) == 3
    assert all(re.fullmatch(r"(?:[a-z]+ (?:in [1-4](?:st|nd|rd|th) place|left over)(?:, )?)+", c) for c in cells)


def test_the_home_page_shows_the_latest_combats_newest_first(site: Path) -> None:
    home = (site / "index.html").read_text()
    latest = home.split("<h2>Latest combats</h2>", 1)[1].split("</ul>", 1)[0]
    combats = re.findall(r"<li><bdi>([^<]*)</bdi></li>", latest)
    assert 0 < len(combats) <= 10 and all("a combat:" in c for c in combats)
    log = (site / "log.html").read_text()
    everything = re.findall(r"<li(?: class=\"voided\")?><bdi>([^<]*)</bdi></li>", log)
    fought = [text for text in everything if "a combat:" in text]
    assert combats == fought[: len(combats)]  # the log's newest combats, in its order


def test_the_log_lists_the_newest_event_first(site: Path) -> None:
    log = (site / "log.html").read_text()
    assert '<ol class="log" reversed>' in log
    entries = re.findall(r"<li(?: class=\"voided\")?><bdi>([^<]*)</bdi></li>", log)
    assert "The game is over" in entries[0]
    assert entries[-1] == "ana joins the game with the crown and a sealed loyalty card."


def test_a_held_land_area_carries_its_houses_initial_not_only_its_colour(site: Path) -> None:
    from xml.etree import ElementTree

    svg = "{http://www.w3.org/2000/svg}"
    root = ElementTree.parse(site / "board.svg").getroot()
    held = 0
    for area in root.iter(f"{svg}g"):
        if area.get("class") != "area" or area.find(f"{svg}ellipse") is not None:
            continue  # a sea: ringed in its house's colour, its ships' pill says whose
        holder = (area.findtext(f"{svg}title") or "").split(";")[0].split(": ")[1]
        marks = [t.text for t in area.iter(f"{svg}text") if t.get("class") == "mark"]
        assert marks == ([] if holder == "nobody" else [holder[0].upper()]), area.get("data-area")
        held += holder != "nobody"
    assert held > 10
