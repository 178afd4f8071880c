"""`cok standings` and `cok check` read without Typer (`cok.cli.shortcut`) do what Typer's
commands do: the same output, the same words on standard error, the same exit code; and
every line the shortcut does not plainly understand is left to Typer."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from cok.cli import shortcut
from cok.core.errors import RuleError
from cok.main import main
from cok.rulesets.clash_of_kings import RULESET

from .conftest import EXAMPLE

Outcome = tuple[object, str, str]


@pytest.fixture
def example(tmp_path: Path) -> Path:
    """A copy of the example campaign (its map its own)."""
    folder = tmp_path / "campaigns" / "example"
    shutil.copytree(EXAMPLE, folder)
    return folder


def by_main(
    args: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], *, typer: bool = False
) -> Outcome:
    """The exit code, output and errors of `cok ARGS`; with `typer`, never taking the shortcut."""
    with monkeypatch.context() as patched:
        patched.setattr("sys.argv", ["cok", *args])
        if typer:
            patched.setattr(shortcut, "read", lambda args: None)
        try:
            main()
            code: object = 0
        except SystemExit as exit:
            code = exit.code or 0
    out, err = capsys.readouterr()
    return code, out, err


def plain_lines(folder: Path) -> list[list[str]]:
    c = str(folder)
    return [
        ["standings", "-C", c],
        ["standings", "--campaign", c, "--json"],
        ["standings", f"--campaign={c}", "--no-cache"],
        ["standings", "--json", "--no-cache", "-C", c],
        ["--color", "never", "standings", "-C", c],
        ["--color=always", "standings", "-C", c],
        ["--color", "auto", "standings", "--json", "-C", c],
        ["check", "-C", c],
        ["check", "--campaign", c, "--json", "--no-cache"],
        ["--color=never", "check", f"--campaign={c}"],
    ]


def other_lines(folder: Path) -> list[list[str]]:
    c = str(folder)
    return [
        ["standings", "-C", c, "--help"],
        ["-h", "standings"],
        ["--color", "sometimes", "standings", "-C", c],
        ["--color", "never", "--color", "always", "standings", "-C", c],
        ["standings", "-C"],
        ["standings", "-C", c, "-C", c],
        ["standings", "-C", c, "--jsn"],
        ["standings", "-C", c, "extra"],
        ["standings", "-C", c, "--", "--json"],
        ["standings", f"-C{c}"],
        ["standings", f"-C={c}"],
        ["standings", "--campaign="],
        ["standings", "-C", "--json"],
        ["standings", "--json=yes", "-C", c],
        ["-C", c, "standings"],
        ["standing", "-C", c],
        ["locations", "-C", c],
        ["check", "-C", c, "--al"],
        ["check", "--all", "--all", "-C", c],
        ["check", "-C", c, "--help"],
        ["check", "standings", "-C", c],
    ]


def test_a_plain_line_is_read_as_typer_reads_it(example: Path) -> None:
    c = str(example)
    assert shortcut.read(["standings", "-C", c]) == ("standings", None, {"campaign": c})
    assert shortcut.read(["--color=never", "standings", "--json", f"--campaign={c}", "--no-cache"]) == (
        "standings",
        "never",
        {"as_json": True, "campaign": c, "no_cache": True},
    )
    assert shortcut.read(["standings"]) == ("standings", None, {})
    assert shortcut.read(["check", "--all", "--no-cache"]) == ("check", None, {"every": True, "no_cache": True})


@pytest.mark.parametrize("name", sorted(shortcut.COMMANDS))
def test_the_shortcut_knows_every_option_of_the_command_and_no_other(name: str) -> None:
    """Typer's command and the shortcut must agree on the options: a new option there is
    then either known here too, or left to Typer (an unknown option is)."""
    import typer.main

    from cok.cli.shared import app

    command = typer.main.get_command(app).commands[name]  # type: ignore[attr-defined]
    spelled = {name: param.name for param in command.params for name in param.opts if name not in ("-h", "--help")}
    assert spelled == {**shortcut.COMMANDS[name].values, **shortcut.COMMANDS[name].flags}


def test_any_other_line_is_left_to_typer(example: Path) -> None:
    for args in other_lines(example):
        assert shortcut.read(args) is None, args


def test_on_windows_a_wildcard_is_left_to_typer_which_expands_it(
    example: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    line = ["standings", "-C", str(example.parent / "ex*")]
    assert shortcut.read(line) is not None
    monkeypatch.setattr(os, "name", "nt")
    assert shortcut.read(line) is None
    assert shortcut.read(["standings", "-C", str(example)]) is not None


def test_while_a_shell_completes_typer_reads_every_line(example: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("_COK_COMPLETE", "complete_bash")
    assert shortcut.read(["standings", "-C", str(example)]) is None


def test_the_shortcut_says_and_shows_what_typer_does(
    example: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    for args in [*plain_lines(example), *other_lines(example)]:
        assert by_main(args, monkeypatch, capsys) == by_main(args, monkeypatch, capsys, typer=True), args


def _rule_broken(campaign: object) -> object:
    raise RuleError("no standings for `player: tim`")


def _bug(campaign: object) -> object:
    raise ZeroDivisionError("a bug")


def _machine_says_no(campaign: object) -> object:
    raise PermissionError(13, "Permission denied", "somewhere")


@pytest.mark.parametrize(
    "spoil",
    [
        pytest.param(lambda folder: (folder / "events.yaml").write_text("- type: week\n  limit: lots\n"), id="bad log"),
        pytest.param(lambda folder: (folder / "campaign.yaml").unlink(), id="no campaign"),
        pytest.param(lambda folder: (folder / "events.yaml").unlink() or (folder / "events.yaml").mkdir(), id="dir"),
        pytest.param(_rule_broken, id="rule"),
        pytest.param(_bug, id="bug"),
        pytest.param(_machine_says_no, id="os"),
    ],
)
def test_a_refused_standings_says_what_typer_says(
    example: Path, spoil: Callable[..., object], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    if spoil in (_rule_broken, _bug, _machine_says_no):
        monkeypatch.setattr(RULESET, "standings", spoil)  # the game's member, as every command reaches it
    else:
        spoil(example)
    monkeypatch.delenv("COK_DEBUG", raising=False)
    for args in plain_lines(example)[:3]:
        got = by_main(args, monkeypatch, capsys)
        assert got[0] == 1 and got[2], got
        assert got == by_main(args, monkeypatch, capsys, typer=True), args


def test_a_check_that_finds_problems_says_what_typer_says(
    example: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    with (example / "events.yaml").open("a") as log:
        log.write("- type: week\n  limit: lots\n- type: battle\n  players: [tim]\n")
    for args in [line for line in plain_lines(example) if "check" in line]:
        got = by_main(args, monkeypatch, capsys)
        assert got[0] == 1 and "events.yaml" in got[1] + got[2], got
        assert got == by_main(args, monkeypatch, capsys, typer=True), args


LONG_STANDINGS = """
import sys
from cok.cli import shortcut
from cok.core.ruleset import Standings
from cok.rulesets.clash_of_kings import reports
reports.standings_report = lambda campaign: Standings(lambda: [f"line {i}" for i in range(100_000)], dict)
if sys.argv[1] == "typer":
    shortcut.read = lambda args: None
sys.argv = ["cok", *sys.argv[2:]]
from cok.main import main
main()
"""


@pytest.mark.parametrize("way", ["shortcut", "typer"])
def test_a_reader_gone_away_ends_it_quietly_with_1(example: Path, way: str) -> None:
    """`cok standings | head -1` on a long table: exit 1, not a word on standard error."""
    reading, writing = os.pipe()
    os.close(reading)
    try:
        run = subprocess.run(
            [sys.executable, "-c", LONG_STANDINGS, way, "standings", "-C", str(example)],
            stdout=writing,
            stderr=subprocess.PIPE,
            text=True,
            timeout=60,
        )
    finally:
        os.close(writing)
    assert (run.returncode, run.stderr) == (1, "")


def test_the_command_word_is_the_first_word_that_is_no_option_nor_its_value() -> None:
    """`main` builds only the command a line runs: the word it names, never an option's value."""
    assert shortcut.command_word(shortcut.in_order(["-C", "DIR", "battle", "tim", "matt"])) == "battle"
    assert shortcut.command_word(["--color", "never", "where", "tim"]) == "where"
    assert shortcut.command_word(["--color=never", "--", "where"]) is None
    assert shortcut.command_word(["--help"]) is None


def test_a_campaign_named_before_the_command_is_read_after_it_as_git_takes_c() -> None:
    assert shortcut.in_order(["-C", "DIR", "battle", "tim"]) == ["battle", "-C", "DIR", "tim"]
    assert shortcut.in_order(["--campaign=DIR", "standings"]) == ["standings", "--campaign=DIR"]
    assert shortcut.in_order(["-C", "DIR", "mk", "status"], groups=["mk"]) == ["mk", "status", "-C", "DIR"]
    assert shortcut.in_order(["battle", "-C", "DIR"]) == ["battle", "-C", "DIR"]


@pytest.mark.parametrize(
    "command", [["locations"], ["standings"], ["mk", "status"]], ids=["locations", "standings", "group"]
)
def test_cok_c_dir_before_the_command_runs_that_command_in_dir(
    command: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = str(EXAMPLE if command[0] != "mk" else EXAMPLE.parent / "mighty-kingdoms")
    before = by_main(["-C", folder, *command], monkeypatch, capsys)
    after = by_main([*command, "-C", folder], monkeypatch, capsys)
    assert before == after and before[0] == 0 and before[1], before


def test_main_builds_the_command_named_not_the_campaign_before_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """`cok -C DIR battle …` took DIR for the command, and built every command for it."""
    import cok.main

    built: list[str] = []
    monkeypatch.setattr(cok.main, "_only", lambda name: built.append(name) or (lambda: None))
    monkeypatch.setattr("sys.argv", ["cok", "-C", str(EXAMPLE), "battle", "tim", "matt"])
    cok.main.main()
    assert built == ["battle"]
