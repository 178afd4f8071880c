"""The JSON API (docs/api.md): the same documents as `--json`, the history a page at a time,
and one event recorded per POST with a personal link's token (`Authorization: Bearer TOKEN`),
as a phone's form records it. Who asks is found by one door (`bearer.py`); every refusal is
the one error document (`problems.py`); what it accepts and answers is published at
`/api/openapi.json` (`cok.contract.openapi`). Nothing is written on any answer but 201."""

from __future__ import annotations

import json
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from cok.contract import documents
from cok.contract.openapi import NO, YES
from cok.core.dice import ENTROPY, ROLL
from cok.core.errors import Refused
from cok.core.write import not_text
from cok.serve.bearer import Caller, bearer
from cok.serve.problems import Problem
from cok.serve.server import server_of, version_of
from cok.serve.threads import in_thread
from cok.serve.warm import Draft, Recording, WarmCampaign, Who

#: Set by the ledger, never taken from a client.
METADATA = ("id", "at", "by")
#: What a POSTed event carries besides its fields, as a phone's form sends them: "roll it for
#: me" with the asker's own random bytes, and the answers to the rules' questions.
BESIDES = (ROLL, ENTROPY, "answers")
#: Deeper than this is never an event (a No True King resolve, the deepest, is five levels).
MAX_DEPTH = 16
#: A page of the history: this many events unless `limit` says fewer (or more, to MAX_PAGE).
PAGE, MAX_PAGE = 100, 1000

NOT_ONE_EVENT = "send one event: a JSON object with its `type` and fields, as in events.yaml"


def _deeper_than(value: Any, limit: int) -> bool:
    """Whether JSON nests deeper than `limit`, looked at without recursion."""
    level = [value]
    for _ in range(limit):
        level = (
            [
                v
                for item in level
                for v in (item.values() if isinstance(item, dict) else item)
                if isinstance(v, (dict, list))
            ]
            if level
            else []
        )
        if not level:
            return False
    return bool(level)


async def openapi(request: Request) -> Response:
    """`GET /api/openapi.json`: what this API accepts and answers (no campaign data in it)."""
    from cok.contract.openapi import document

    view = await in_thread(server_of(request).warm.view)
    return JSONResponse(await in_thread(document, view.ruleset))


async def version(request: Request) -> Response:
    """What a served page polls to refresh when anyone records (live.js): the campaign's
    version, which changes with its files (a phone's recording, or `cok` at a terminal)."""
    signature = server_of(request).warm.signature()  # a few stat calls, on the loop: no thread, no lock
    return JSONResponse(
        documents.written(documents.Version, version=version_of(signature)), headers={"cache-control": "no-store"}
    )


@bearer(public=True)
async def standings(request: Request, caller: Caller) -> Response:
    view = await in_thread(server_of(request).warm.view)
    return Response(await in_thread(view.standings_json), media_type="application/json")


@bearer(public=True, cookie=True)
async def read(request: Request, caller: Caller) -> Response:
    """`GET /api/<name>`: one of the game's reads, the document `--json` prints, for the
    holder of a link (its token, or a phone signed in with it); its status (`where`, `status`)
    open to all, as the standings are."""
    from cok.serve.bearer import CHALLENGE, UNSIGNED

    server = server_of(request)
    name = request.path_params["name"]
    if caller.who is None and name != server.web().status:
        raise Problem(401, UNSIGNED, headers=CHALLENGE)
    view = await in_thread(server.warm.view)
    known = view.names()
    if name not in known:
        raise Problem(404, f"no API /api/{name}; this game's reads: {', '.join(known)}", names=known)
    try:
        document = await in_thread(view.read, name, **dict(request.query_params))
    except Refused as refused:  # an argument the read does not take (the rules' own: RuleError, 422)
        raise Problem(400, *(p.message for p in refused.problems)) from None
    return JSONResponse(document)


@bearer(cookie=True)
async def log(request: Request, caller: Caller) -> Response:
    """`GET /api/log`: `cok log --json` a page at a time — the events after `since` (an
    event's id), at most `limit` of them — so a bot asks only for what is new."""
    since = request.query_params.get("since") or None
    limit = _whole(request.query_params.get("limit"), "limit", 1, MAX_PAGE, PAGE)
    player = request.query_params.get("player") or None
    unknown = sorted(set(request.query_params) - {"since", "limit", "player"})
    if unknown:
        raise Problem(400, f"log takes no {', '.join(f'`{u}`' for u in unknown)}: it takes `since`, `limit`, `player`")
    view = await in_thread(server_of(request).warm.view)
    page = await in_thread(view.history, since, limit, player)
    return JSONResponse(documents.written(documents.LogPage, **page))


@bearer(cookie=True)
async def dice(request: Request, caller: Caller) -> Response:
    """`GET /api/dice`: `cok dice --json`, every die cok rolled and whether it is verified."""
    if request.query_params:
        raise Problem(400, "dice takes no arguments")
    view = await in_thread(server_of(request).warm.view)
    found = await in_thread(view.dice)
    return JSONResponse(documents.written(documents.Dice, **found))


def _whole(given: str | None, name: str, least: int, most: int, default: int) -> int:
    if given is None:
        return default
    if not (given.isascii() and given.isdigit()) or not least <= int(given) <= most:
        raise Problem(400, f"`{name}` is a whole number from {least} to {most} (got {given[:20]!r})")
    return int(given)


@bearer()
async def events(request: Request, caller: Caller) -> Response:
    """`POST /api/events`: one event, its sender known by their link's token (Bearer)."""
    server = server_of(request)
    who = caller.who
    assert who is not None
    if not server.web().forms:
        raise Problem(403, "this game's campaigns are served read-only for now: record with cok at a terminal")
    body = await request.body()
    given = _one_event(body)
    key = request.headers.get("idempotency-key")
    if key is not None and not (0 < len(key) <= 200 and key.isprintable() and key.isascii()):
        raise Problem(400, "Idempotency-Key: up to 200 printable ASCII characters")
    sent_before = server.replies.first(who.name, key, body) if key is not None else None
    if sent_before is not None:
        return sent_before
    answer: Response | None = None
    try:
        answer = await one_event(request, who, given)
    finally:
        if key is not None and answer is not None and answer.status_code == 201:
            server.replies.keep(who.name, key, body, answer)
        elif key is not None:
            server.replies.release(who.name, key)  # nothing was recorded: the key may be sent again
    return answer


def _one_event(body: bytes) -> dict[str, Any]:
    """The body read as one event (a JSON object with its `type`), or the 400 that says why not."""
    try:
        given = json.loads(body)
    except (ValueError, UnicodeDecodeError):
        raise Problem(400, "the body is not JSON: send one event as a JSON object") from None
    except RecursionError:  # nested deeper than any event: not one event
        raise Problem(400, NOT_ONE_EVENT) from None
    if not isinstance(given, dict) or not isinstance(given.get("type"), str):
        raise Problem(400, NOT_ONE_EVENT)
    if _deeper_than(given, MAX_DEPTH):
        raise Problem(400, f"send one event: nested at most {MAX_DEPTH} levels deep, as in events.yaml")
    garbled = not_text(given)
    if garbled is not None:
        raise Problem(400, f"`{garbled}` holds a lone surrogate (\\ud800–\\udfff), which is not text: send UTF-8")
    return given


def _answers(given: dict[str, Any]) -> dict[str, Any]:
    """What the event carries besides its fields, as the phone's form gives them to the
    service: `roll_dice: true` (cok rolls, with the caller's own `entropy` if sent) and the
    `answers` to the rules' questions (`{FIELD: answer}`)."""
    answers = given.get("answers", {})
    if not isinstance(answers, dict):
        raise Problem(400, "`answers` is an object: {FIELD: answer} for each question the rules asked (409)")
    rolled = given.get(ROLL, False)
    if not isinstance(rolled, bool):
        raise Problem(400, f"`{ROLL}` is true (cok rolls the dice, fairly: docs/dice.md) or false")
    entropy = given.get(ENTROPY)
    if entropy is not None and not isinstance(entropy, str):
        raise Problem(400, f"`{ENTROPY}` is 16 to 64 random bytes in hex (32 to 128 hex digits)")
    # the entropy rolls only what cok rolls (`roll_dice`), as the phone's hidden field does
    return {**answers, **({ROLL: True} if rolled else {}), **({ENTROPY: entropy} if entropy is not None else {})}


async def one_event(request: Request, who: Who, given: dict[str, Any]) -> Response:
    from cok.contract.openapi import DICE_OWN

    warm = server_of(request).warm
    if given["type"] in DICE_OWN:
        raise Problem(
            422,
            f"a {given['type']} is written by cok itself (docs/dice.md): it commits a period's dice before their first "
            "roll and reveals the seed when the period ends; an organiser's `cok dice reveal` and `cok dice lost` "
            "are at a terminal",
        )
    dry_run, again = _yes_or_no(request, "dry_run"), _yes_or_no(request, "again")
    answers = _answers(given)
    fields = {k: v for k, v in given.items() if k != "type" and k not in BESIDES}
    draft = Draft(given["type"], fields)
    barred = await in_thread(warm.refusal, [draft], who, answers)
    if barred is not None:
        raise Problem(403, barred)
    sent = [k for k in METADATA if k in fields]
    if sent:
        named = ", ".join(f"`{k}`" for k in sent)
        raise Problem(422, f"{named}: set by the server, not given (leave them out)")
    done = await in_thread(_recorded, warm, draft, who, answers, dry_run=dry_run, again=again)
    told = done.told[0] if done.told else ""
    if dry_run:
        said = documents.written(documents.Recorded, id=None, told=told, dry_run=True, warnings=done.warnings)
        return JSONResponse(said, 200)
    return JSONResponse(
        documents.written(documents.Recorded, id=done.events[0].id, told=told, warnings=done.warnings), 201
    )


def _yes_or_no(request: Request, option: str) -> bool:
    """`?dry_run=1`, `?again=1` (also true, yes; 0, false, no: not); any other value is refused
    (400) before anything is decided: a dry run misread would be recorded for real."""
    given = request.query_params.get(option)
    if given is None or given in NO:
        return False
    if given in YES:
        return True
    raise Problem(400, f"`{option}`: {given!r} is not a yes or a no: give 1 (or 0)")


def routes() -> list[BaseRoute]:
    return [
        Route("/openapi.json", openapi),
        Route("/version", version),
        Route("/standings", standings),
        Route("/log", log),
        Route("/dice", dice),
        Route("/events", events, methods=["POST"]),
        Route("/{name}", read),
    ]


def _recorded(
    warm: WarmCampaign, draft: Draft, who: Who, answers: dict[str, Any], *, dry_run: bool, again: bool
) -> Recording:
    """The event recorded; a void names its event as `cok void` takes it (a unique start of
    its id, `@LINE`), and is refused, listing them, when later events stand on it."""
    target, reason, note = (draft.fields.get(k) for k in ("target", "reason", "note"))
    plain = set(draft.fields) <= {"target", "reason", "note"} and (note is None or isinstance(note, str))
    if draft.type == "void" and plain and isinstance(target, str) and isinstance(reason, str) and not answers:
        return warm.void(target, reason, who, note=note, dry_run=dry_run)
    return warm.record([draft], who, answers=answers, dry_run=dry_run, again=again)
