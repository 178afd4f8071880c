"""The one Jinja environment factory: every page, picture and piece of HTML `cok` makes comes
from templates rendered by an environment made here (issue #36), so that every one escapes
what it shows and shows it the same way (`shown`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from jinja2 import ChoiceLoader, Environment, PackageLoader, StrictUndefined
from markupsafe import Markup

from cok.core.text import for_markup


def environment(packages: Sequence[str]) -> Environment:
    """An environment reading the `templates/` folder of each package in turn (the first
    that has a template wins), autoescaping everything a campaign's files hold."""
    return Environment(
        loader=ChoiceLoader([PackageLoader(p, "templates") for p in packages]),
        autoescape=True,
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        finalize=shown,
    )


def shown(value: Any) -> Any:
    """What a `{{ }}` shows: text from the campaign without the characters a page cannot
    hold; markup a template made itself (a macro's drawing, the server's bar) as it is."""
    return value if isinstance(value, Markup) else for_markup(value)
