"""One site engine for every game (issue #26): the same Jinja environment with autoescaping,
the same layout and style sheet; a hostile name in any game's campaign is text on every page;
colours for players, kingdoms and houses that colour-blind readers tell apart too."""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path
from xml.etree import ElementTree

import pytest

from cok.render import palette

from .conftest import Cok
from .games import GAMES, begun, command, scene

HOSTILE = "<script>alert(\"x\")</script> & 'Bo'"


def hostile(tmp_path: Path, game: str) -> Path:
    """The game's first scenario, the campaign and every display name (`--name`) hostile."""
    cok = begun(tmp_path, game, None, "c", "--name", HOSTILE)
    for step in scene(game).steps:
        named = [HOSTILE if before == "--name" else arg for before, arg in zip(("", *step), step, strict=False)]
        run = cok(*command(game, *named))
        assert run.exit_code == 0, run.stderr
    return cok.cwd


class Reading(HTMLParser):
    """A page as a browser reads it: its elements, and its text with every entity decoded."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: set[str] = set()
        self.text: list[str] = []
        self.attributes: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.add(tag)
        self.attributes += [value or "" for _, value in attrs]

    def handle_data(self, data: str) -> None:
        self.text.append(data)


@pytest.mark.parametrize("game", GAMES)
def test_a_hostile_name_is_text_on_every_page_of_every_game(
    tmp_path: Path, game: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COK_DATA_DIR", str(tmp_path / "data"))
    cok = Cok(tmp_path)
    folder = hostile(tmp_path, game)
    assert cok("site", "out", "-C", str(folder)).exit_code == 0
    pages = [p for p in (tmp_path / "out").rglob("*") if p.suffix in (".html", ".svg")]
    assert len(pages) >= 3
    for page in pages:
        source = page.read_text()
        assert "<script" not in source, page
        if page.suffix == ".svg":
            picture = ElementTree.parse(page).getroot()  # still well-formed XML
            assert HOSTILE in "".join(picture.itertext()), page
            continue
        read = Reading()
        read.feed(source)
        assert "script" not in read.tags, page
        assert HOSTILE in "".join(read.text), page  # the name, as written, shown as text
    home = (tmp_path / "out" / "index.html").read_text()
    assert "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt; &amp; &#39;Bo&#39;" in home


@pytest.mark.parametrize("game", GAMES)
def test_every_game_builds_its_pages_on_the_shared_layout_and_style_sheet(
    tmp_path: Path, game: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from importlib import resources

    monkeypatch.setenv("COK_DATA_DIR", str(tmp_path / "data"))
    cok = Cok(tmp_path)
    folder = hostile(tmp_path, game)
    assert cok("site", "out", "-C", str(folder)).exit_code == 0
    shared = resources.files("cok.render").joinpath("templates/style.css").read_text(encoding="utf-8")
    from cok.core.publish import SITE_MARK

    written = (tmp_path / "out" / "style.css").read_text()
    assert written.replace(f"/* {SITE_MARK} */\n", "", 1).startswith(shared)  # after cok's mark
    for page in (tmp_path / "out").rglob("*.html"):
        text = page.read_text()
        assert '<header class="top">' in text and '<main id="main"' in text and "<footer>Built by cok" in text, page


@pytest.mark.parametrize("game", GAMES)
def test_a_games_pages_are_listed_once_for_the_sites_header_and_the_servers(
    tmp_path: Path, game: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The site's header and the served bar link the same pages, from the one list the game's
    `web().pages` holds: its `base.html` writes no link of its own (issue #51)."""
    import re
    from importlib import resources

    from .games import ruleset

    web = ruleset(game).web()
    assert web is not None
    package = type(ruleset(game)).__module__ + ".site"
    base = resources.files(package).joinpath("templates/base.html").read_text(encoding="utf-8")
    assert "<a " not in base and "block nav" not in base
    monkeypatch.setenv("COK_DATA_DIR", str(tmp_path / "data"))
    folder = hostile(tmp_path, game)
    assert Cok(tmp_path)("site", "out", "-C", str(folder)).exit_code == 0
    for page in (tmp_path / "out").rglob("*.html"):
        nav = re.search(r'<nav aria-label="The campaign">(.*?)</nav>', page.read_text(), re.S)
        assert nav is not None, page
        root = "../" * (len(page.relative_to(tmp_path / "out").parts) - 1)
        linked = re.findall(r'<a href="([^"]*)">([^<]*)</a>', nav[1])
        assert linked == [(root + file, label) for label, file in web.pages], page


def test_a_paged_lists_links_to_its_pages_are_written_once() -> None:
    """Every game's log and each one's own pages link their pages through the one macro
    (`render/templates/paging.html`), never a copy of its markup (issue #51)."""
    rulesets = Path(__file__).resolve().parents[1] / "src" / "cok" / "rulesets"
    templates = sorted(rulesets.glob("*/site/templates/*.html"))
    assert templates
    copied = [t.relative_to(rulesets) for t in templates if 'class="log-pages"' in t.read_text()]
    assert copied == []
    paged = [t for t in templates if "page_links(" in t.read_text()]
    assert len(paged) >= 4  # Clash of Kings' log and players', Mighty Kingdoms' log and kingdoms'


@pytest.mark.parametrize("game", GAMES)
def test_a_voided_entry_says_so_in_a_word_on_every_page_that_lists_it(
    tmp_path: Path, game: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every list of the log's entries shows an entry through one macro (`latest.html`'s
    `entry`), and a voided one is struck out and says "voided": a strike-through alone is
    neither read aloud nor seen by everyone (issue #51: four copies, two of them silent)."""
    import re

    import yaml

    from .games import played

    monkeypatch.setenv("COK_DATA_DIR", str(tmp_path / "data"))
    folder = played(tmp_path, game)
    last = yaml.safe_load((folder / "events.yaml").read_text())[-1]
    cok = Cok(folder)
    voided = cok("void", str(last["id"]), "--reason", "a test", "--cascade")
    assert voided.exit_code == 0, voided.stdout + voided.stderr
    assert cok("site", str(tmp_path / "out")).exit_code == 0
    shown = 0
    for page in (tmp_path / "out").rglob("*.html"):
        for item in re.findall(r'<li class="[^"]*\bvoided\b[^"]*">.*?</li>', page.read_text(), re.S):
            shown += 1
            assert re.search(r">\s*voided\b", item), (page.name, item)
    assert shown >= 1  # the log, at least


def lab(channels: list[float]) -> tuple[float, float, float]:
    """CIE L*a*b* of linear sRGB channels."""
    x = (0.4124 * channels[0] + 0.3576 * channels[1] + 0.1805 * channels[2]) / 0.9505
    y = 0.2126 * channels[0] + 0.7152 * channels[1] + 0.0722 * channels[2]
    z = (0.0193 * channels[0] + 0.1192 * channels[1] + 0.9505 * channels[2]) / 1.089
    f = [t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116 for t in (x, y, z)]
    return (116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2]))


def linear(colour: str) -> list[float]:
    rgb = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    return [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb]


#: Machado, Oliveira and Fernandes (2009): how a colour looks without green or red cones.
DEUTERANOPIA = ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413), (-0.01182, 0.04294, 0.968881))
PROTANOPIA = ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216), (-0.003882, -0.048116, 1.051998))


def seen(colour: str, vision: tuple[tuple[float, ...], ...] | None) -> tuple[float, float, float]:
    channels = linear(colour)
    if vision is not None:
        channels = [min(1.0, max(0.0, sum(w * c for w, c in zip(row, channels, strict=True)))) for row in vision]
    return lab(channels)


@pytest.mark.parametrize(
    ("vision", "apart"), [(None, 20.0), (DEUTERANOPIA, 15.0), (PROTANOPIA, 15.0)], ids=["normal", "deut", "prot"]
)
def test_the_first_eight_colours_are_told_apart_by_colour_blind_readers_too(
    vision: tuple[tuple[float, ...], ...] | None, apart: float
) -> None:
    """Eight players, kingdoms or houses: any two colours at least `apart` (CIE76 ΔE)."""
    colours = palette.CATEGORIES[:8]
    close = [
        (a, b)
        for i, a in enumerate(colours)
        for b in colours[i + 1 :]
        if sum((p - q) ** 2 for p, q in zip(seen(a, vision), seen(b, vision), strict=True)) ** 0.5 < apart
    ]
    assert close == []


def test_a_holders_mark_is_the_shortest_start_of_its_name_no_other_shares() -> None:
    assert palette.initials({"sara": "Sara", "sam": "Sam", "jon": "Jon"}) == {"sara": "Sar", "sam": "Sam", "jon": "J"}
    assert palette.initials({"a": "Ana", "b": "Bo"}) == {"a": "A", "b": "B"}
