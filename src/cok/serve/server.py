"""One campaign served: its warm campaign, the links, the sessions and the bad-token limiter, and
how its pages are made (the bar, the templates). Each app keeps its own in `app.state.server`,
which every route reaches with `server_of(request)`; the routes are listed in `app.py`."""

from __future__ import annotations

import asyncio
import datetime as dt
import hashlib
import hmac
import secrets
from collections.abc import Callable
from pathlib import Path
from typing import Any

from jinja2 import Environment
from markupsafe import Markup
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response

from cok.core import deadlines
from cok.core.errors import RuleError
from cok.links.invites import Keys
from cok.render import markup
from cok.render.site import Page
from cok.serve import due as due_bar
from cok.serve.alarm import Alarm, Sleep
from cok.serve.awaiting import asking
from cok.serve.kit import Web
from cok.serve.limiter import Limiter
from cok.serve.once import Replies, Sent
from cok.serve.once import token as once_token
from cok.serve.sessions import COOKIE, Session, Sessions
from cok.serve.threads import in_thread
from cok.serve.warm import NO_BACKUP, Backup, Version, WarmCampaign, Who


def version_of(signature: object) -> str:
    """A version as a page carries it: short, and saying nothing of the files' sizes or times."""
    import hashlib

    return hashlib.sha256(repr(signature).encode()).hexdigest()[:16]


class Server:
    """One campaign served: its warm campaign, the links, the sessions and the bad-token limiter."""

    def __init__(
        self,
        folder: Path,
        backup: Backup = NO_BACKUP,
        *,
        clock: Callable[[], dt.datetime] = deadlines.now,
        sleep: Sleep = asyncio.sleep,
    ) -> None:
        self.warm = WarmCampaign(folder, backup)
        #: the ledger's time (`COK_NOW` honoured; a test's own clock): the pages' due times and the alarm's
        self.clock = clock
        #: the campaign's one timer (started and stopped with the application: app.py), armed
        #: again by every write its followers hear of
        self.alarm = Alarm(self.warm.due_times, self.warm.ring, clock=clock, sleep=sleep)
        self.warm.followers.heard.append(self.alarm.rearm)
        self.keys = Keys(folder)
        self.sessions = Sessions.of_campaign(folder)
        self.limiter = Limiter()
        self.sent = Sent()  # the forms' one-time tokens spent, and the recordings' pages
        self.replies = Replies()  # the API's answers kept for an Idempotency-Key sent again
        self._confirming = secrets.token_bytes(32)  # this run's: a question asked before a restart is asked again
        self._web: Web | None = None
        self._env: Environment | None = None

    # --- who asks ------------------------------------------------------------------------------

    def session(self, request: Request) -> Session | None:
        """The phone's session, while its link still stands (`cok invite --revoke` ends it)."""
        found = self.sessions.find(request.cookies.get(COOKIE))
        if found is None:
            return None
        if self.keys.current(found.link):
            return found
        self.sessions.end(request.cookies.get(COOKIE))
        return None

    def confirmation(self, token: str) -> str:
        """The hidden field of the page that asks before signing in with a link: only this
        server's own page carries it, so another site cannot post the sign-in for the phone."""
        return hmac.new(self._confirming, token.encode(), hashlib.sha256).hexdigest()

    def confirms(self, token: str, given: str | None) -> bool:
        return given is not None and hmac.compare_digest(given.encode(), self.confirmation(token).encode())

    @staticmethod
    def who(session: Session | None) -> Who | None:
        return None if session is None else Who(session.link.name, session.link.organiser)

    @staticmethod
    def address(request: Request) -> str:
        return request.client.host if request.client else "unknown"

    # --- the game's pages ------------------------------------------------------------------------

    def web(self) -> Web:
        if self._web is None:
            ruleset = self.warm.view().ruleset
            self._web = ruleset.web() or Web()
        return self._web

    def env(self) -> Environment:
        if self._env is None:
            from cok.render.site import SHARED

            packages = ["cok.serve"]
            if self.web().templates:
                packages.append(str(self.web().templates))
            packages.append(SHARED)  # the one head every page extends (document.html)
            self._env = markup.environment(packages)
            self._env.globals["once"] = once_token  # a form's one-time token: serve/once.py
            self._env.globals["backup"] = self.warm.backup  # --push's state: templates/backup.html
            self._env.globals["troubles"] = self.warm.troubles  # followers that failed: the same
            self._env.globals["words"] = self.web().words  # a field in the words of the game's forms
        return self._env

    def bar(self, request: Request, session: Session | None, view: Version | None = None) -> str:
        """The bar at the top of every page; a page shown for a GET carries its campaign's
        version, so that live.js refreshes it when anyone records (a page answering a POST
        never: refreshing it would send the form again)."""
        who = self.who(session)
        actions = [a for a in self.web().actions if who is not None and (who.organiser or not a.organiser)]
        actions = [a for a in actions if a.when is None or (view is not None and a.when(view.campaign.state))]
        live = view is not None and request.method in ("GET", "HEAD")
        shown = view or self.warm.view()
        people = shown.people()  # the bar names people as the pages do: "Tim recorded …"
        return (
            self.env()
            .get_template("bar.html")
            .render(
                root=root(request),
                here=request.url.path,  # the page shown: aria-current in the header
                campaign=shown.campaign.name,
                pages=self.web().pages,
                people=people,
                who=who,
                name=people.get(who.name, who.name) if who and not who.organiser else None,
                actions=actions,
                csrf=session.csrf if session else "",
                version=version_of(view.signature) if live and view is not None else None,
                asking=asking(shown, who),  # docs/confirm.md
                due=self.due(shown, who, people),  # docs/deadlines.md: templates/due.html
            )
        )

    def due(self, view: Version, who: Who | None, people: dict[str, str]) -> due_bar.Bar:
        """The due bar's lines for this visitor (their own waits first) and its forms."""
        found = view.dues()
        campaign = view.campaign
        player = None
        if who is not None and not who.organiser:
            try:
                player = view.ruleset.player(campaign.state, who.name)
            except RuleError:
                player = who.name
        allowed = view.schedule().extensions if found else 0
        return due_bar.bar(
            campaign, found, people, player, self.clock(), organiser=who is not None and who.organiser, allowed=allowed
        )

    def render(
        self, request: Request, session: Session | None, template: str, status: int = 200, **values: Any
    ) -> Response:
        view = self.warm.view()
        html = (
            self.env()
            .get_template(template)
            .render(
                root=root(request),
                bar=Markup(self.bar(request, session, view)),  # rendered with autoescape on
                campaign=view.campaign.name,
                who=self.who(session),
                csrf=session.csrf if session else "",
                status=status,
                back=back_to(request),
                home=self.web().pages[0][0] if self.web().pages else "Standings",
                **values,
            )
        )
        return HTMLResponse(html, status)


def back_to(request: Request) -> str | None:
    """The page of this server a form was sent from (a refusal's "Back to the form"): its path
    and query, never another site's address."""
    referer = request.headers.get("referer", "")
    base = str(request.base_url).rstrip("/")
    if request.method != "POST" or not referer.startswith(base + "/"):
        return None
    return referer[len(base) :]


def server_of(request: Request) -> Server:
    """The campaign served by the app this request reached (each `create_app` keeps its own, so
    several campaigns may be mounted in one process)."""
    server = request.app.state.server
    assert isinstance(server, Server)
    return server


async def page(request: Request, template: str, status: int = 200, **values: Any) -> Response:
    """A page of the server's (or the game's) templates, with the bar of the phone that asked,
    made in the thread pool (it reads the campaign)."""
    server = server_of(request)
    return await in_thread(server.render, request, server.session(request), template, status, **values)


def root(request: Request) -> str:
    """Where the app is served (a reverse proxy's --root-path): the prefix of every link."""
    return str(request.scope.get("cok.root", request.scope.get("root_path", ""))).rstrip("/")


def secure(request: Request) -> bool:
    """Https as the phone sees it (a reverse proxy saying so in X-Forwarded-Proto, when trusted)."""
    return request.url.scheme == "https"


def ended(request: Request) -> str | None:
    """What a phone whose cookie names no session any more is told (expired, signed out past a
    person's bound, or its link replaced): to open the same link again, which signs it in."""
    if not request.cookies.get(COOKIE):
        return None
    return (
        "your session on this phone has ended (after 30 days, or the link was replaced): open the same "
        "personal link again to sign in; if it no longer opens the campaign, ask the organiser for a new one"
    )


def from_elsewhere(request: Request) -> bool:
    """Whether another site sent the phone here (a link on a web page, a form posted from it):
    the browser says so in Sec-Fetch-Site; a link opened from a message or typed says `none`."""
    return request.headers.get("sec-fetch-site", "none") in ("cross-site", "same-site")


def with_bar(page: str, bar: str, server_root: str) -> str:
    """A page of the site made again with the server's bar in its `bar` block and the bar's
    style sheet (issue #36: rendered by the page's template, never spliced into its text)."""
    if not isinstance(page, Page):
        raise TypeError("a site's HTML page is made by cok.render.site.page, which keeps its template")
    return page.served(Markup(bar), server_root)  # the bar: rendered with autoescape on
