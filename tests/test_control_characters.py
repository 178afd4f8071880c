"""Control characters in the campaign's names never reach a terminal raw, and never make
the map picture or the site's pages ill-formed."""

from __future__ import annotations

import xml.dom.minidom
from pathlib import Path

from .conftest import Cok

BELL_AND_COLOUR = "Tim\x07\x1b[31m"


def test_a_name_with_control_characters_is_shown_escaped(cok: Cok) -> None:
    assert cok("join", "tim", "--faction", "martell", "--name", BELL_AND_COLOUR).exit_code == 0
    out = cok("standings").stdout + cok("log").stdout
    assert "\x1b" not in out and "\x07" not in out
    assert "Tim\\x07\\x1b[31m" in out


def test_the_map_picture_and_the_site_stay_well_formed(cok: Cok, tmp_path: Path) -> None:
    cok("join", "tim", "--faction", "martell", "--name", BELL_AND_COLOUR)
    assert cok("map", "--svg", str(tmp_path / "map.svg")).exit_code == 0
    xml.dom.minidom.parse(str(tmp_path / "map.svg"))  # raises when not well-formed XML
    assert cok("site", str(tmp_path / "site")).exit_code == 0
    page = (tmp_path / "site" / "players" / "tim.html").read_text()
    assert "\x1b" not in page and "\x07" not in page and "Tim\ufffd\ufffd[31m" in page


def test_an_error_quoting_a_name_shows_its_control_characters_escaped(campaign: Path) -> None:
    (campaign / "events.yaml").write_text('- type: battle\n  players: [a, b]\n  location: "\\e[2J"\n  winner: a\n')
    run = Cok(campaign)("check")
    assert run.exit_code == 1
    assert "\x1b" not in run.stderr
