"""A form's events recorded from a phone, the same for every form of the server and the games:
who may is decided first; a question of the rules becomes a form (nothing written until it is
answered); a refusal is shown in `cok check`'s words; a recording redirects to a page that shows
it, which a reload reads again and never records (`/recorded/<key>`). `POST /record` is the
rules' question answered."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from cok.core.dice import ENTROPY
from cok.core.text import in_page_words
from cok.serve.once import Shown
from cok.serve.server import Server, page, root, server_of
from cok.serve.signed import Signed, signed_in
from cok.serve.threads import in_thread
from cok.serve.warm import Asked, Committed, Draft, Recording, Refusal, Refused, Who

#: The most events one form may record (a form makes one today; a void's cascade, made by the
#: server from the log, is not a form's and has no such bound).
MAX_DRAFTS = 20


@signed_in()
async def recorded_form(request: Request, signed: Signed) -> Response:
    """The rules' question answered (or the same battle confirmed): the drafts again, with
    the answers given so far."""
    form = signed.form
    try:
        drafts = [Draft(str(d["type"]), dict(d["fields"])) for d in json.loads(form.get("drafts", ""))]
        answers = json.loads(form.get("answers", "") or "{}")
        if not isinstance(answers, dict):
            raise TypeError
    except (ValueError, TypeError, KeyError, RecursionError):
        raise HTTPException(400, "this form's events are not readable: start again from its page") from None
    answers.update(_answers(form))
    if form.get("entropy"):  # a roll sent again: this phone's new random bytes (docs/dice.md)
        answers[ENTROPY] = form["entropy"]
    again, preview = form.get("again") == "1", form.get("preview") == "1"
    return await record_drafts(request, signed, drafts, answers, again=again, preview=preview)


async def recorded_page(request: Request) -> Response:
    """What a recording showed, read again (a reload records nothing): the recorder's own."""
    server = server_of(request)
    shown = server.sent.pages.get(request.path_params["key"])
    who = server.who(server.session(request))
    if shown is None or who is None or shown.who != who.name:
        raise HTTPException(404, "no such recording to show (a restarted server forgets them): see Activity")
    return await page(request, "recorded.html", recording=shown)


def _answers(form: Mapping[str, str]) -> dict[str, Any]:
    """Answers to the rules' question from its form: `answer:FIELD` (a choice, or `decline:F`
    for a declined one) and `number:FIELD:KEY` (a whole number per key)."""
    answers: dict[str, Any] = {}
    for name, value in form.items():
        if name.startswith("answer:"):
            field = name.split(":", 1)[1]
            if value.startswith("decline:"):
                answers[value.split(":", 1)[1]] = False
            elif value:
                answers[field] = value
        elif name.startswith("confirm:"):
            answers[name.split(":", 1)[1]] = True
        elif name.startswith("number:"):
            _, field, key = name.split(":", 2)
            if value.strip().isdigit():
                answers.setdefault(field, {})[key] = int(value)
            else:
                raise HTTPException(400, f"{key}: a whole number, 0 or more (got {value!r})")
    return answers


async def record_drafts(
    request: Request,
    signed: Signed,
    drafts: Sequence[Draft],
    answers: dict[str, Any],
    again: bool = False,
    preview: bool = False,
) -> Response:
    """Record the events a form made: who may is decided first; a question of the rules becomes
    a form (nothing written until it is answered); a refusal is shown in `cok check`'s words.
    `preview`: what it would change (`--dry-run`), with a form that records it."""
    server, who = server_of(request), signed.who
    if len(drafts) > MAX_DRAFTS:
        problem = f"one form records at most {MAX_DRAFTS} events; this one holds {len(drafts)}: nothing was recorded"
        return await page(request, "refused.html", 413, problems=[problem])
    barred = await in_thread(server.warm.refusal, drafts, who, answers)
    if barred is not None:
        return await page(request, "refused.html", 403, problems=[barred])
    once = None if preview else await form_once(request)  # a preview records nothing: its form's token stays
    sent = _sent(drafts, answers)
    before = await _sent_before(request, server, who, once, sent, preview)
    if before is not None:  # this form was sent before: asked, as the same battle twice is
        return await page(request, "sent-again.html", 409, before=before, **_carried(drafts, answers))
    try:
        done = await in_thread(server.warm.record, drafts, who, answers=answers, again=again, dry_run=preview)
    except Asked as asked:
        server.sent.released(once)
        return await _asked(request, drafts, answers, asked, once)
    except Committed as committed:  # something WAS written: never "nothing was written"
        server.sent.released(once)
        return await _committed(request, drafts, answers, committed)
    except Refused as refused:
        server.sent.released(once)
        return await _refused(request, who, drafts, refused)
    except BaseException:
        server.sent.released(once)
        raise
    if preview:  # what would change, then "Record it" with the form's own token: nothing written yet
        token = await form_once(request)
        carried = {**_carried(drafts, answers), "again": "1" if again else "", "carried_once": token or ""}
        return await page(request, "preview.html", 200, recording=done, **carried)
    response = recorded(request, who, done, once)
    view = await in_thread(server.warm.view)
    server.sent.last_of(who.name, sent, view.signature, server.sent.tokens.get(once or "") or _shown(who, done))
    return response


async def _sent_before(
    request: Request, server: Server, who: Who, once: str | None, sent: str, preview: bool
) -> Shown | None:
    """What this form recorded before, if it was sent already: its one-time token spent, or the
    same form from the same person with nothing recorded since (unless "record it again")."""
    before = server.sent.claim(once) if once else None
    if before is None and not preview and not await _confirmed(request):
        before = await in_thread(server.sent.repeated, who.name, sent, lambda: server.warm.view().signature)
        if before is not None:
            server.sent.released(once)
    return before


async def _asked(
    request: Request, drafts: Sequence[Draft], answers: dict[str, Any], asked: Asked, once: str | None
) -> Response:
    """The rules' question as a form carrying the drafts and the answers so far; the same
    events already in the log are said instead (unless the question is whether to repeat)."""
    server = server_of(request)
    view = await in_thread(server.warm.view)
    repeated = asked.question.kind == "repeated"  # the rules' own question: record the same again?
    if not repeated and (already := await in_thread(view.recorded_like, drafts)):
        return await page(request, "already.html", 409, told=already)
    question = asked.question
    carried = {**_carried(drafts, answers), "carried_once": once or ""}
    people = await in_thread(view.people)
    said = in_page_words(question.words, server.web().words, people)
    return await page(request, "question.html", 409, question=question, said=said, people=people, **carried)


async def _committed(
    request: Request, drafts: Sequence[Draft], answers: dict[str, Any], committed: Committed
) -> Response:
    """The first roll of a period with no commitment yet: the commitment was written (the
    phone's random bytes, made before it, are thrown away). The page says so, and sends the
    form again by itself with new bytes (live.js), so the player's one tap rolls."""
    fresh = {k: v for k, v in answers.items() if k != ENTROPY}
    return await page(request, "committed.html", 409, period=committed.period, **_carried(drafts, fresh))


async def _refused(request: Request, who: Who, drafts: Sequence[Draft], refused: Refused) -> Response:
    """The rules' refusal in the words of the game's forms (a ruling's hint for an organiser),
    or the same events already in the log."""
    server = server_of(request)
    view = await in_thread(server.warm.view)
    if (already := await in_thread(view.recorded_like, drafts)) is not None:
        return await page(request, "already.html", 409, told=already)
    rule = refused.rule if isinstance(refused, Refusal) else None  # the rules' words, for the page's
    named = await in_thread(view.people)
    told = (rule.with_hint() if who.organiser else str(rule)) if rule else None  # a ruling: an organiser's
    problems = [in_page_words(told, server.web().words, named)] if told else [p.message for p in refused.problems]
    return await page(request, "refused.html", 422, problems=problems)


def _sent(drafts: Sequence[Draft], answers: dict[str, Any]) -> str:
    """What a form sent, as one text: the same form sent again sends the same."""
    return json.dumps([[d.type, d.fields] for d in drafts] + [answers], sort_keys=True, default=str)


async def _confirmed(request: Request) -> bool:
    """Whether the form is the "record it again" of a form sent twice."""
    return request.method == "POST" and (await request.form()).get("sent_again") == "1"


def _shown(who: Who, done: Recording) -> Shown:
    after = done.document.get("next_turn")
    return Shown(who.name, tuple(done.told), tuple(done.warnings), after if isinstance(after, str) else None)


async def form_once(request: Request) -> str | None:
    """The one-time token a POSTed form carries (`once`), None without one (a script's form)."""
    if request.method != "POST":
        return None
    value = (await request.form()).get("once")
    return value if isinstance(value, str) and 0 < len(value) <= 64 else None


def recorded(request: Request, who: Who, done: Recording, once: str | None) -> Response:
    """After a recording, the phone is sent to a page that shows it (303): reloading that page
    reads it again and records nothing; the form's token is spent."""
    server = server_of(request)
    shown = _shown(who, done)
    server.sent.spent(once, shown)
    return RedirectResponse(f"{root(request)}/recorded/{server.sent.page(shown)}", 303)


def _carried(drafts: Sequence[Draft], answers: dict[str, Any]) -> dict[str, str]:
    """What the question's form carries back: the drafts and the answers given so far (a
    tampered copy is no worse than a POST to the API: who may record is checked again)."""
    return {
        "drafts": json.dumps([{"type": d.type, "fields": dict(d.fields)} for d in drafts]),
        "answers": json.dumps(answers),
    }
