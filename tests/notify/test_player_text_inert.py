"""Issue 46: text a player wrote reaches a chat inert — mentions (`@everyone`, `@here`,
`<@123>`, `<@&456>`, `<#…>`, Slack's `<!channel>`, Matrix's `@room`) and markup links are
neutralised in each service's own way, so that only the mentions cok adds itself notify
anyone; on Discord, Apprise's own switch (`ping=`: the allowed mentions) names cok's alone."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
import requests

from cok.notify.destinations import Destination
from cok.notify.inert import allowing, inert
from tests.conftest import Cok

HOSTILE = "@everyone @here <@123> <@&456> [free prize](https://evil.example/x)"
URLS = {
    "Discord": "discord://123456789012345678/aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789",
    "Slack": "slack://T1JJ3T3L2/A1BRTD4JD/TIiajkdnlazkcOXrIdevi7FQ/#wargames",
    "Matrix": "matrix://s3cr3tt0k3n@127.0.0.1:9/?mode=matrix",
    "json": "json://127.0.0.1:9/hook",
}
#: what would notify someone, or hide a link, if a chat read it as its own syntax
LIVE = [
    re.compile(r"(?<![\w\u200d])@(everyone|here|room|channel)\b"),
    re.compile(r"(<|&lt;)@&?\d+(>|&gt;)"),
    re.compile(r"(<|&lt;)[#!]\w+(>|&gt;)"),
    re.compile(r"\[[^\]]*\]\("),
    re.compile(r"(<|&lt;)https?://"),
]


@pytest.fixture
def posted(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, dict[str, Any]]]:
    """Every request Apprise makes, kept (host, JSON body) and answered 200: nothing leaves."""
    kept: list[tuple[str, dict[str, Any]]] = []

    def send(self: Any, request: Any, **kwargs: Any) -> Any:
        kept.append((urlsplit(request.url).hostname or "", json.loads(request.body or b"{}")))
        answer = requests.Response()
        answer.status_code, answer._content = 200, b"ok"
        return answer

    monkeypatch.setattr(requests.Session, "send", send)
    return kept


def _text(body: dict[str, Any]) -> str:
    """The message a service's payload carries (Discord's content, Slack's attachment…)."""
    if body.get("attachments"):
        return str(body["attachments"][0].get("text", ""))
    return str(body.get("content") or body.get("text") or body.get("message") or body.get("body") or "")


@pytest.mark.parametrize("service", list(URLS))
def test_a_disputes_hostile_reason_reaches_the_organisers_nudge_inert(
    service: str, example: Path, posted: list[tuple[str, dict[str, Any]]]
) -> None:
    cok = Cok(example)
    cok("invite", "--organiser", "Ann", "--mention", "<@1>" if service == "Discord" else "@ann")
    assert cok("notify", "add", URLS[service], "--only", "nudge").exit_code == 0
    fought = ("battle", "tim", "matt", "--at", "Ghost Hill", "--vp", "tim=7", "--vp", "matt=5")
    assert cok(*fought, "--override", "a friendly game", env={"COK_BY": "tim"}).exit_code == 0
    target = json.loads(cok("log", "--json").stdout)["events"][-1]["id"]
    assert cok("dispute", target, "--reason", HOSTILE, env={"COK_BY": "matt"}).exit_code == 0
    assert cok("notify", "send").exit_code == 0
    texts = [_text(body) for _host, body in posted]
    settle = [t for t in texts if "to settle a dispute" in t]
    assert len(settle) == 1, texts
    said = settle[0].split("to settle a dispute:", 1)[1].split("Keep the result", 1)[0]  # the player's part
    assert not [p.pattern for p in LIVE if p.search(said)], said
    shown = said.replace("\u200d", "").replace("\\", "").replace("&lt;", "<").replace("&gt;", ">")
    assert HOSTILE.replace("&", "&amp;" if service == "Slack" else "&") in shown  # the reader still sees it
    cok_mention = "<@1>" if service == "Discord" else "@ann"
    assert settle[0].startswith(f"The ledger waits for {cok_mention} (organiser)")  # cok's own, live


def test_on_discord_the_allowed_mentions_name_only_the_one_cok_adds() -> None:
    url = URLS["Discord"]
    assert parse_qs(urlsplit(allowing(url, "<@1>")).query)["ping"] == ["<@1>"]
    assert parse_qs(urlsplit(allowing(url, "<@&77>")).query)["ping"] == ["<@&77>"]
    assert allowing(url, "@ann") == url  # no Discord mention: nothing to allow
    assert allowing(URLS["Slack"], "<@1>") == URLS["Slack"]  # Apprise has no such switch for Slack


def test_the_discord_url_allows_cok_s_mention_alone_when_the_words_hold_a_mention(example: Path) -> None:
    from cok.notify import outbox

    cok = Cok(example)
    cok("invite", "--organiser", "Ann", "--mention", "<@1>")
    cok("invite", "tim", "--mention", "<@1234>")
    cok("notify", "add", URLS["Discord"], "--only", "nudge")
    fought = ("battle", "matt", "tim", "--at", "Ghost Hill", "--vp", "matt=7", "--vp", "tim=5")
    assert cok(*fought, "--override", "a friendly game", env={"COK_BY": "matt"}).exit_code == 0
    target = json.loads(cok("log", "--json").stdout)["events"][-1]["id"]
    assert cok("dispute", target, "--reason", HOSTILE, env={"COK_BY": "tim"}).exit_code == 0
    again = ("battle", "matt", "tim", "--at", "Sunspear", "--vp", "matt=7", "--vp", "tim=5")
    assert cok(*again, "--override", "a friendly game", "--again", env={"COK_BY": "matt"}).exit_code == 0
    given: list[tuple[str, str]] = []
    outbox.send(example, sender=lambda d, text: given.append((d.url, text)) or True)
    settle = [(url, text) for url, text in given if "to settle a dispute" in text]
    assert len(settle) == 1 and parse_qs(urlsplit(settle[0][0]).query)["ping"] == ["<@1>"]
    assert settle[0][1].startswith("The ledger waits for <@1> (organiser)")
    tims = [url for url, text in given if text.startswith("The ledger waits for <@1234>: to confirm")]
    assert len(tims) == 1 and "ping=" not in tims[0]  # nothing in its words to fear: posted as it is


def test_each_service_neutralises_in_its_own_way() -> None:
    assert inert("[a](b)", "discord") == "\\[a\\]\u200d(b)"  # Discord's Markdown escapes
    assert inert("[a](b)", "slack") == "[a]\u200d(b)"  # Slack has no backslash escape
    assert inert("<!channel> @here", "slack") == "<\u200d!channel> @\u200dhere"
    assert inert("@room", "matrix") == "@\u200droom"
    assert inert("mail me at ana@example.org", "other") == "mail me at ana@\u200dexample.org"
    assert inert("3 < 4 and 5 > 2", "other") == "3 < 4 and 5 > 2"  # nothing else changes


def test_a_destination_url_keeps_its_own_query_when_told_whom_to_allow() -> None:
    url = "discord://1/2?avatar=no"
    allowed = Destination(allowing(url, "<@9>"))
    assert parse_qs(urlsplit(allowed.url).query) == {"avatar": ["no"], "ping": ["<@9>"]}
