"""`cok`'s own options (--version, --color) and the settings of its Typer apps: imported
only when a command line is read by Typer (`cok.main.build`)."""

from __future__ import annotations

import inspect
import re
from typing import Annotated, Any

import typer
from typer.core import TyperCommand

from cok import __version__

SETTINGS: dict[str, Any] = {
    "no_args_is_help": True,
    "add_completion": True,  # Typer's own: --install-completion, --show-completion
    "pretty_exceptions_enable": False,
    "rich_markup_mode": None,
    "context_settings": {"help_option_names": ["-h", "--help"]},
}


class Command(TyperCommand):
    """Every cok command: its usage line as Click conventionally writes it (`DIR`, `[TILE]`,
    never `{DIR}` or `[[TILE]]`), and the options it reads from its own words (`cok ntk begin
    --seats P…`, declared with `cok.cli.options.words`) in its list of options."""

    def collect_usage_pieces(self, ctx: Any) -> list[str]:
        """As Click's, less hidden arguments (words read for shell completion only)."""
        pieces = [self.options_metavar] if self.options_metavar else []
        for param in self.get_params(ctx):
            if not getattr(param, "hidden", False):
                pieces.extend(param.get_usage_pieces(ctx))
        return [_conventional(piece) for piece in pieces]

    def format_options(self, ctx: Any, formatter: Any) -> None:
        extra = list(getattr(inspect.unwrap(self.callback), "words", ())) if self.callback else []
        if not extra:
            super().format_options(ctx, formatter)
            return
        arguments: list[tuple[str, str]] = []
        options: list[tuple[str, str]] = []
        for param in self.get_params(ctx):
            record = param.get_help_record(ctx)
            if record is not None:
                (arguments if param.param_type_name == "argument" else options).append(record)
        if arguments:
            with formatter.section("Arguments"):
                formatter.write_dl(arguments)
        with formatter.section("Options"):
            formatter.write_dl([*extra, *options])


def _conventional(piece: str) -> str:
    """`{DIR}` → `DIR`, `[[TILE]]` → `[TILE]`, `{H H}...` → `H H...`, `{player}` → `PLAYER`."""
    piece = re.sub(r"^([{\[])([a-z][a-z_-]*)([}\]])", lambda m: m[1] + m[2].upper().replace("-", "_") + m[3], piece)
    piece = re.sub(r"^\{(.+)\}(\.\.\.)?$", r"\1\2", piece)
    return re.sub(r"^\[(\[.+\])\](\.\.\.)?$", r"\1\2", piece)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"cok {__version__}")
        raise typer.Exit()


def _color(value: str | None) -> str | None:
    from cok.render.output import COLORS, set_color

    if value is not None:
        from cok.cli.options import chosen

        value = chosen(value, COLORS, "--color")
    set_color(value or "auto")
    return value


def root(
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Show the version and exit.")
    ] = False,
    color: Annotated[
        str | None,
        typer.Option(
            "--color",
            metavar="WHEN",
            callback=_color,
            is_eager=True,
            help="Colours and tables: auto (at a terminal, unless NO_COLOR is set), always, never.",
        ),
    ] = None,
) -> None:
    """A campaign ledger for tabletop wargame campaigns."""
