"""One site engine for every game: a Jinja environment with autoescaping (every name from a
campaign's files is shown as text, `for_markup` taking out what a page cannot show), the
shared page layout and style sheet here, each game adding only its own templates and CSS.

A game's templates are found first, then these: a game's `base.html` extends `layout.html`."""

from __future__ import annotations

from importlib import resources
from typing import Any

from jinja2 import ChoiceLoader, Environment, PackageLoader, StrictUndefined
from markupsafe import Markup

from cok.core.text import for_markup

#: Where the shared templates and style sheet are.
SHARED = "cok.render"


def environment(game: str) -> Environment:
    """The templates of `game` (a package with a `templates/` folder), then the shared ones."""
    return Environment(
        loader=ChoiceLoader([PackageLoader(game, "templates"), PackageLoader(SHARED, "templates")]),
        autoescape=True,
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        finalize=_shown,
    )


def stylesheet(game: str) -> str:
    """The site's `style.css`: the shared rules, then the game's own (which may override them)."""
    shared = resources.files(SHARED).joinpath("templates/style.css").read_text(encoding="utf-8")
    own = resources.files(game).joinpath("templates/style.css")
    return shared + (own.read_text(encoding="utf-8") if own.is_file() else "")


def _shown(value: Any) -> Any:
    """What a `{{ }}` shows: text from the campaign without the characters a page cannot
    hold; markup a template made itself (a macro's drawing) as it is."""
    return value if isinstance(value, Markup) else for_markup(value)
