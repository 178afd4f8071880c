"""What a game's pages for the table are made of (its `web()`), and what they are given when
a phone opens one (`Visit`). The game says what to ask and which events a form makes; the
server signs people in, checks the form's CSRF token and who may record, asks the rules'
questions and records, the same for every game."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from cok.serve.threads import in_thread

if TYPE_CHECKING:
    from starlette.requests import Request
    from starlette.responses import Response

    from cok.core.campaign import Campaign
    from cok.serve.warm import Draft, WarmCampaign, Who


@dataclass(frozen=True)
class Action:
    """A link in the bar of a signed-in phone: what they can do now."""

    label: str
    path: str  # under /play/
    organiser: bool = False  # shown to organisers only
    when: Callable[[Any], bool] | None = None  # shown only while this holds of the campaign's state


@dataclass(frozen=True)
class Form:
    """One of the game's pages under /play/: GET shows it, POST (CSRF checked) handles it."""

    path: str
    endpoint: Callable[[Visit], Awaitable[Response]]
    methods: tuple[str, ...] = ("GET",)
    organiser: bool = False  # only an organiser may open it


@dataclass(frozen=True)
class Web:
    """A game's pages at the table, registered through its Ruleset's `web()`."""

    actions: Sequence[Action] = ()
    forms: Sequence[Form] = ()
    #: the site's few pages as its own header names them (label, file), first the home page:
    #: the one header of every served page leads to them (issue #49); a game gives its site's
    #: own list (`site.PAGES`), so that the two headers never differ
    pages: Sequence[tuple[str, str]] = (("Standings", "index.html"),)
    templates: str | None = None  # the package holding its templates (they may extend "frame.html")
    status: str = "status"  # which of its reads is its status, open to all as the standings are
    #: an event's fields in the words its forms use, for the rules' messages on a page
    words: Mapping[str, str] = field(default_factory=dict)


@dataclass
class Visit:
    """One request to a game's page: who asks, and what the server offers the game."""

    request: Request
    warm: WarmCampaign
    who: Who | None
    root: str  # where the app is mounted (a reverse proxy's prefix), for links
    render: Callable[..., Response]
    #: record(drafts, answers={}): the answers a form already gives (roll it for me)
    record: Callable[..., Awaitable[Response]]
    form: Mapping[str, str] = field(default_factory=dict)  # a POST's fields, CSRF already checked

    async def campaign(self) -> Campaign:
        view = await in_thread(self.warm.view)
        return view.campaign

    async def trial(self, drafts: list[Draft]) -> None:
        """The drafts recorded as a dry run by this visitor, nothing written: Refused or
        Asked when the rules would refuse or ask (a preview's check before it is shown)."""
        assert self.who is not None
        await in_thread(self.warm.record, drafts, self.who, dry_run=True)

    def rolled_for_me(self) -> dict[str, Any]:
        """A form's "roll for me" as answers: the one answer every game reads, with the phone's
        own random bytes when it sent them (docs/dice.md)."""
        from cok.core.dice import ENTROPY, ROLL

        entropy = self.form.get("entropy", "")
        return {ROLL: True, **({ENTROPY: entropy} if entropy else {})}

    async def read(self, name: str, **args: Any) -> dict[str, Any]:
        """One of the game's reads (its `queries`), the document `GET /api/<name>` answers."""
        view = await in_thread(self.warm.view)
        return await in_thread(view.read, name, **args)
