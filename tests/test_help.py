"""Help (#29): every option of every command, of every game, is in its command's list of
options (those a command reads from its own words too), and usage lines name arguments as
Click conventionally does (`DIR`, `[TILE]`, never `{DIR}`)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from cok.cli.options import said

from .conftest import COMMAND, ROOT, Cok


def commands(group: Any = COMMAND, path: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], Any]]:
    """Every command of the command line (Click's objects, as Typer builds them), by its words."""
    for name, command in sorted(group.commands.items()):
        if hasattr(command, "commands"):
            yield from commands(command, (*path, name))
        else:
            yield (*path, name), command


EVERY = list(commands())


def test_the_walk_finds_every_games_commands() -> None:
    found = {path for path, _ in EVERY}
    assert {("battle",), ("mk", "order"), ("ntk", "resolve"), ("void",)} <= found


@pytest.mark.parametrize(("path", "command"), EVERY, ids=[" ".join(p) for p, _ in EVERY])
def test_every_option_is_in_its_commands_list_of_options(path: tuple[str, ...], command: Any) -> None:
    run = Cok(ROOT)(*path, "--help")
    assert run.exit_code == 0, run.stderr
    listed = run.stdout.split("Options:", 1)[1]
    options = [param for param in command.params if param.param_type_name == "option" and not param.hidden]
    declared = {opt for param in options for opt in param.opts}
    declared |= {f"--{name}" for name in said(command.callback)} if command.callback else set()
    missing = [opt for opt in declared if not re.search(rf"(^|[\s,]){re.escape(opt)}(?![\w-])", listed, re.M)]
    assert missing == []
    usage = run.stdout.splitlines()[0]
    assert "{" not in usage and "[[" not in usage


def test_no_true_kings_word_commands_list_the_options_they_read() -> None:
    begin = Cok(ROOT)("ntk", "begin", "--help").stdout
    resolve = Cok(ROOT)("ntk", "resolve", "--help").stdout
    assert re.search(r"^\s+--seats\b", begin, re.M) and re.search(r"^\s+--first\b", begin, re.M)
    for option in ("--muster", "--move", "--draw", "--card", "--retreat", "--winner", "--then-move"):
        assert re.search(rf"^\s+{option}\b", resolve, re.M), option


def test_an_option_said_the_same_way_in_two_commands_is_declared_once() -> None:
    """An option with the same flags and help in two commands is one declaration they share
    (`cli/options.py`'s aliases, issue #51), never a copy that could drift from it."""
    import ast

    found: dict[tuple[Any, ...], list[str]] = {}
    for path in sorted((ROOT / "src" / "cok").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "Option":
                flags = tuple(a.value for a in node.args if isinstance(a, ast.Constant))
                helps = [k.value.value for k in node.keywords if k.arg == "help" and isinstance(k.value, ast.Constant)]
                found.setdefault((flags, *helps), []).append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert len(found) > 50  # the walk sees the options
    assert {said: where for said, where in found.items() if len(where) > 1} == {}
