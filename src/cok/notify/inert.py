"""Text a player wrote reaches a chat inert (issue 46): a dispute's reason, a note, a name
never pings anyone nor hides a link, in each service's own syntax. Only the mention cok adds
itself (the handle `cok invite --mention` gave) is left live."""

from __future__ import annotations

import re
from urllib.parse import quote

#: Joins the `@` or `<` to what follows without showing anything: the chat no longer reads
#: `@everyone`, `<@123>`, `<!channel>` or `<https://…>` as its syntax, the reader still does.
JOINER = "\u200d"

#: `@` before a name: Discord's `@everyone`/`@here`, Slack's `@channel`, Matrix's `@room` and
#: `@user:server`, Telegram's `@username`.
_AT = re.compile(r"@(?=[\w&!#])")
#: `<` opening a service's own syntax: Discord's `<@123>`, `<@&456>`, `<#789>`, `<t:…>`,
#: Slack's `<!channel>`, `<!here>`, `<@U1>`, `<url|text>`, any `<https://…>` autolink.
_ANGLE = re.compile(r"<(?=[^\s<])")
#: `](` between a Markdown link's text and its address: `[free prize](https://evil.example/x)`.
_LINK = re.compile(r"\](?=\s*\()")
#: Discord's Markdown: a backslash makes its next character literal.
_DISCORD_MARKUP = re.compile(r"([\[\]])")
#: A Discord mention cok adds itself: a user's `<@123>` (or `<@!123>`), a role's `<@&456>`.
_DISCORD_HANDLE = re.compile(r"<@(?:!?(\d+)|&(\d+))>")


def service(url: str) -> str:
    """The service a destination's URL posts to, as far as its text's syntax goes."""
    scheme = url.partition("://")[0].lower()
    if scheme in ("discord", "slack", "matrix", "matrixs", "tgram"):
        return {"matrixs": "matrix"}.get(scheme, scheme)
    return "other"


def inert(text: str, to: str) -> str:
    """Player text made inert for service `to` (`service(url)`): no `@` mention, no
    `<…>` syntax and no Markdown link stays live; what the reader sees is unchanged
    (a zero-width joiner, and on Discord a backslash before a bracket, which it hides)."""
    text = _AT.sub("@" + JOINER, text)
    text = _ANGLE.sub("<" + JOINER, text)
    if to == "discord":  # Discord renders Markdown: its own escape keeps brackets literal
        text = _DISCORD_MARKUP.sub(r"\\\1", text)
    return _LINK.sub("]" + JOINER, text)


def allowing(url: str, handle: str) -> str:
    """A Discord destination told (Apprise's `ping=`) that the one mention cok added is the
    one allowed to notify: its allowed mentions then name that user or role alone. Other
    services have no such switch in Apprise: their URL is unchanged."""
    found = _DISCORD_HANDLE.fullmatch(handle.strip())
    if service(url) != "discord" or found is None:
        return url
    token = f"<@{found[1]}>" if found[1] else f"<@&{found[2]}>"
    return f"{url}{'&' if '?' in url else '?'}ping={quote(token, safe='')}"
