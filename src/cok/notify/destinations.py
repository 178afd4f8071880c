"""The chat destinations of a campaign (`cok notify add`): Apprise URLs, each a secret that
lets anyone post, kept 0600 in the user data folder with the kinds of posts it takes."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cok.core.folders import write_private
from cok.notify.home import campaign_home, read_json

#: What a destination takes unless `--only` says otherwise (issue 39: battles, voids, joins,
#: a new week / month / season / round, a game's end), plus the summaries and nudges.
KINDS = ("battle", "void", "join", "week", "month", "season", "round", "end", "summary", "nudge")
DEFAULT_KINDS = frozenset(KINDS)
DEFAULT_REMIND = 12 * 3600  # seconds before a nudge is posted again


@dataclass(frozen=True)
class Destination:
    url: str
    only: frozenset[str] = field(default=DEFAULT_KINDS)
    #: a player's (or organiser's) own destination, a direct message: only their nudges go
    #: there, instead of the club's channel (`cok notify add URL --player tim`)
    player: str | None = None

    @property
    def key(self) -> str:
        """A short name for it that reveals nothing of the URL (the outbox is keyed by it)."""
        return hashlib.sha256(self.url.encode()).hexdigest()[:12]

    @property
    def masked(self) -> str:
        """The URL as `list` shows it: the scheme and host, every path part and secret hidden."""
        return masked(self.url)


@dataclass(frozen=True)
class Settings:
    destinations: tuple[Destination, ...] = ()
    remind: int = DEFAULT_REMIND  # seconds
    server: str | None = None  # the public address of `cok serve`, for links in posts


def masked(url: str) -> str:
    scheme, sep, rest = url.partition("://")
    if not sep:
        return "***"
    rest = rest.split("@", 1)[-1]  # user:password@ goes entirely
    host, slash, _path = rest.partition("/")
    return f"{scheme}://{host[:3]}***" + ("/***" if slash else "")


def _file(folder: Path) -> Path:
    return campaign_home(folder) / "destinations.json"


def settings(folder: Path) -> Settings:
    data: Any = read_json(_file(folder))
    if not isinstance(data, dict):
        return Settings()
    try:
        kept = tuple(
            Destination(
                str(d["url"]),
                frozenset(str(k) for k in d.get("only", KINDS)),
                str(d["player"]) if d.get("player") else None,
            )
            for d in data.get("destinations", [])
        )
        remind = int(data.get("remind", DEFAULT_REMIND))
        server = data.get("server")
        return Settings(kept, remind, str(server) if server else None)
    except (KeyError, TypeError, ValueError):
        return Settings()


def keep(folder: Path, kept: Settings) -> None:
    write_private(
        _file(folder),
        {
            "campaign": str(Path(folder).resolve()),
            "destinations": [
                {"url": d.url, "only": sorted(d.only), **({"player": d.player} if d.player else {})}
                for d in kept.destinations
            ],
            "remind": kept.remind,
            "server": kept.server,
        },
    )


def kinds(typed: str | None) -> frozenset[str]:
    """`--only battle,void`: the kinds named; an unknown one is refused with the known ones."""
    if typed is None:
        return DEFAULT_KINDS
    named = frozenset(k.strip() for k in typed.split(",") if k.strip())
    unknown = sorted(named - DEFAULT_KINDS)
    if unknown or not named:
        raise ValueError(f"unknown kind {', '.join(unknown) or '(none)'}: the kinds are {', '.join(KINDS)}")
    return named


def delay(typed: str) -> int:
    """`12h`, `30m`, `2d`, `90s`: the seconds; anything else is refused."""
    found = re.fullmatch(r"\s*(\d+)\s*([smhd])\s*", typed)
    if not found:
        raise ValueError(f"a delay is a number and s, m, h or d, like 12h (got {typed!r})")
    return int(found[1]) * {"s": 1, "m": 60, "h": 3600, "d": 86400}[found[2]]
