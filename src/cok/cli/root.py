"""`cok`'s own options (--version, --color) and the settings of its Typer apps: imported
only when a command line is read by Typer (`cok.main.build`)."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from cok import __version__

SETTINGS: dict[str, Any] = {
    "no_args_is_help": True,
    "add_completion": True,  # Typer's own: --install-completion, --show-completion
    "pretty_exceptions_enable": False,
    "rich_markup_mode": None,
    "context_settings": {"help_option_names": ["-h", "--help"]},
}


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
