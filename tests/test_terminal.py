"""The terminal (#14): a pager for long output, 80 columns without broken words, --color."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from .conftest import Cok

ANSI = re.compile(r"\x1b\[[0-9;]*m")


@pytest.fixture
def terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    """Standard output as a terminal 80 columns wide."""
    monkeypatch.setattr("cok.render.output.at_terminal", lambda: True)
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.setenv("LINES", "24")


def test_long_output_at_a_terminal_goes_through_cok_pager(
    example: Path, terminal: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    paged = tmp_path / "paged.txt"
    monkeypatch.setenv("COK_PAGER", f"cat > {paged}")
    for command in ("log", "locations"):
        run = Cok(example)(command)
        assert run.exit_code == 0, run.stderr
        assert run.stdout == ""
        assert "Tarth" in paged.read_text()


def test_pager_falls_back_to_pager_then_less_frx(monkeypatch: pytest.MonkeyPatch) -> None:
    from cok.render.output import pager

    monkeypatch.delenv("COK_PAGER", raising=False)
    monkeypatch.delenv("PAGER", raising=False)
    assert pager() == "less -FRX"
    monkeypatch.setenv("PAGER", "most")
    assert pager() == "most"
    monkeypatch.setenv("COK_PAGER", "")
    assert pager() is None


def test_piped_output_never_goes_through_the_pager(
    example: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    paged = tmp_path / "paged.txt"
    monkeypatch.setenv("COK_PAGER", f"cat > {paged}")
    run = Cok(example)("log")
    assert "Tarth" in run.stdout and not paged.exists()
    assert not Cok(example)("log", "--json").stdout.startswith("\x1b")


def test_log_at_80_columns_labels_its_columns_and_breaks_no_word(
    example: Path, terminal: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COK_PAGER", "")
    run = Cok(example)("log")
    lines = [ANSI.sub("", line) for line in run.stdout.splitlines()]
    assert all(len(line) <= 80 for line in lines)
    assert any("event" in line and "what happened" in line for line in lines[:3])
    words = set(" ".join(lines).split())
    piped = Cok(example)  # the same history, one event a line
    monkeypatch.setattr("cok.render.output.at_terminal", lambda: False)
    for line in piped("log").stdout.splitlines():
        for word in line.split():
            assert word in words, word


def test_color_always_styles_piped_output_and_never_keeps_a_terminal_plain(
    example: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert ANSI.search(Cok(example)("--color", "always", "standings").stdout)
    assert not ANSI.search(Cok(example)("standings").stdout)
    monkeypatch.setattr("cok.render.output.at_terminal", lambda: True)
    monkeypatch.setenv("COK_PAGER", "")
    assert ANSI.search(Cok(example)("standings").stdout)
    never = Cok(example)("--color", "never", "standings")
    assert not ANSI.search(never.stdout) and "Dany" in never.stdout
    assert Cok(example)("--color", "sometimes", "standings").exit_code == 2


ESCAPE = re.compile(r"\x1b\[")


def test_no_color_at_a_terminal_prints_no_escape_code_at_all_as_color_never(
    example: Path, terminal: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COK_PAGER", "")
    monkeypatch.setenv("NO_COLOR", "1")
    for command in (("standings",), ("where", "tim", "matt"), ("log",)):
        run = Cok(example)(*command)
        assert run.exit_code == 0 and not ESCAPE.search(run.stdout), command
    assert ESCAPE.search(Cok(example)("--color", "always", "standings").stdout)


def test_piped_text_honours_columns_and_breaks_no_word(example: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    wide = Cok(example)("where", "tim", "matt").stdout
    monkeypatch.setenv("COLUMNS", "40")
    narrow = Cok(example)("where", "tim", "matt").stdout
    prose = [line for line in narrow.splitlines() if line and "  " not in line.strip()]
    assert prose and all(len(line) <= 40 for line in prose if " " in line)
    assert narrow.split() == wide.split()


def test_color_is_taken_after_the_command_too() -> None:
    from cok.cli.shortcut import in_order as root_options_first

    assert root_options_first(["where", "tim", "matt", "--color", "never"]) == [
        "--color",
        "never",
        "where",
        "tim",
        "matt",
    ]
    assert root_options_first(["log", "--color=always", "--", "--color"]) == ["--color=always", "log", "--", "--color"]


def test_color_after_the_command_styles_as_before_it(example: Path) -> None:
    import subprocess
    import sys

    def run(*args: str) -> str:
        done = subprocess.run(
            [sys.executable, "-m", "cok", *args], cwd=example, capture_output=True, text=True, check=False
        )
        assert done.returncode == 0, done.stderr
        return done.stdout

    assert ANSI.search(run("where", "tim", "matt", "--color", "always"))
    assert run("where", "tim", "matt", "--color", "always") == run("--color", "always", "where", "tim", "matt")
