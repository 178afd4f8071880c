"""Issue 34: right-to-left override characters in a name or a note reversed the rest of the
line on the Activity and log pages and in `cok log`. At a terminal they are escaped as control
characters are; on a page, user text is isolated (`<bdi>`), and an override it opens is
closed at its end."""

from __future__ import annotations

import re
from pathlib import Path

from cok.core.text import for_markup, for_terminal

from .conftest import Cok

OVERRIDE = "Tim\u202eevil"


def test_cok_log_escapes_bidirectional_controls_as_control_characters(cok: Cok) -> None:
    assert cok("join", "tim", "--faction", "martell", "--name", OVERRIDE).exit_code == 0
    out = cok("log").stdout + cok("standings").stdout
    assert "\u202e" not in out
    assert "Tim\\u202eevil" in out


def test_every_bidirectional_control_is_escaped_at_a_terminal() -> None:
    controls = "\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
    shown = for_terminal(f"a{controls}b") + for_terminal(f"a{controls}b", one_line=True)
    assert not set(controls) & set(shown)


def test_an_override_in_a_value_is_closed_at_its_end_on_a_page() -> None:
    assert for_markup(OVERRIDE) == OVERRIDE + "\u202c"
    assert for_markup("a\u2067b\u202ec") == "a\u2067b\u202ec\u2069\u202c"
    assert for_markup("plain") == "plain" and for_markup("שלום") == "שלום"


def test_the_sites_log_isolates_each_entry(cok: Cok, tmp_path: Path) -> None:
    cok("join", "tim", "--faction", "martell", "--name", OVERRIDE)
    assert cok("site", str(tmp_path / "site")).exit_code == 0
    page = (tmp_path / "site" / "log.html").read_text()
    entries = re.findall(r"<bdi[^>]*>([^<]*)</bdi>", page)
    told = [e for e in entries if "\u202e" in e]
    assert told and all(e.endswith("\u202c") for e in told)
