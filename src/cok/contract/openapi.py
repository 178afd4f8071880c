"""The API's published contract: an OpenAPI 3.1 document of one game's API, made from the models
the server reads and writes — the events' JSON Schema as `cok schema events` makes it, the
API's own documents (`documents.py`), the one error document — and from the game's reads as
`GET /api/<name>` answers them (their options from the reads' own signatures). It holds no
campaign data: served to anyone at `/api/openapi.json`, printed by `cok schema api`.

`API_VERSION` is a promise: within one major version a field or an operation is added, never
removed, renamed or given another meaning; the minor version counts what was added."""

from __future__ import annotations

import copy
import inspect
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel
from pydantic.json_schema import models_json_schema

from cok.contract import documents

if TYPE_CHECKING:
    from cok.core.ruleset import Ruleset

#: Major: a change a client must follow (none yet). Minor: what was added (docs/api.md).
API_VERSION = "1.1.0"
#: What the API answers of a campaign's log that is cok's own to write (docs/dice.md).
DICE_OWN = ("dice-commit", "dice-reveal", "dice-lost")
#: The dice' entropy as the service takes it (service.dice.ENTROPY_TEXT): 16 to 64 bytes in hex.
ENTROPY = "^[0-9a-fA-F]{32,128}$"
_REF = "#/components/schemas/"

_DOCUMENTS: tuple[type[BaseModel], ...] = (
    documents.Problems,
    documents.Asked,
    documents.Recorded,
    documents.Version,
    documents.LogPage,
    documents.Dice,
    documents.Campaigns,
)

_EXAMPLE_PROBLEMS = {
    "problems": [{"message": "give a personal link's token: Authorization: Bearer TOKEN (cok invite)"}]
}
_SAID = {
    400: "The request is not one this operation takes (not JSON, an option it does not take, a value it cannot).",
    401: "No token, or one that is no link's (RFC 6750: `WWW-Authenticate: Bearer`); after many wrong ones "
    "from one address, with `Retry-After` (and `retry_after`): wait before sending another.",
    403: "This link may not do this: the message says who may.",
    404: "Nothing of that name.",
    409: "The rules ask a question first: send the event again with `answers` (nothing was written); "
    "or a request with the same Idempotency-Key is being recorded: send it again in a moment.",
    413: "The body is over 1 MiB.",
    422: "Refused by the rules or the event's schema, in `cok check`'s words (nothing was written).",
}


def document(ruleset: Ruleset) -> dict[str, Any]:
    """The OpenAPI document of a campaign's API in this game."""
    schemas = _schemas(_DOCUMENTS)
    schemas.update(_posted(ruleset))
    schemas.update(_shaped(ruleset, schemas))
    web = ruleset.web()
    status = web.status if web is not None else None
    paths: dict[str, Any] = {
        "/api/openapi.json": {"get": _openapi_operation()},
        "/api/version": {
            "get": _operation(
                "version",
                "The campaign's version: it changes whenever anyone records (a page polls it to refresh).",
                "Version",
                {"version": "3f9a1c2e4b7d6a50"},
                public=True,
                statuses=(),
            )
        },
        "/api/log": {"get": _log_operation()},
        "/api/dice": {
            "get": _operation(
                "dice",
                "`cok dice --json`: every die cok rolled, with its period's commitment, verified from the "
                "revealed seed or waiting for it (docs/dice.md).",
                "Dice",
                {"commitments": [], "problems": []},
                statuses=(400, 401),
            )
        },
    }
    for name, parameters in _reads(ruleset):
        public = name in ("standings", status)
        shape = ruleset.shapes.get(name)
        paths[f"/api/{name}"] = {
            "get": _read_operation(name, parameters, shape.__name__ if shape else {"type": "object"}, public=public)
        }
    if web is not None and web.forms:
        paths["/api/events"] = {"post": _events_operation(ruleset)}
    return {
        "openapi": "3.1.0",
        "info": {
            "title": f"cok: a {ruleset.title} campaign's API",
            "version": API_VERSION,
            "description": (
                "The same documents as `cok … --json`, the history a page at a time, and one event recorded per "
                "POST as a phone's form records it. Compatibility: within a major version a field or an operation "
                "is added, never removed, renamed or given another meaning (docs/api.md)."
            ),
        },
        "paths": paths,
        "components": {
            "schemas": schemas,
            "securitySchemes": {
                "link": {
                    "type": "http",
                    "scheme": "bearer",
                    "description": "A personal link's token (`cok invite NAME` prints the link; its last part).",
                }
            },
        },
    }


def club_document() -> dict[str, Any]:
    """The OpenAPI document of a club's own API (each campaign publishes its own under its path)."""
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "cok: a club's campaigns",
            "version": API_VERSION,
            "description": "Each campaign's own API is at /PATH/api/ (its document: /PATH/api/openapi.json).",
        },
        "paths": {
            "/api/openapi.json": {"get": _openapi_operation()},
            "/api/campaigns": {
                "get": _operation(
                    "campaigns",
                    "The club's campaigns as its page lists them: each one's path, game, period and who leads.",
                    "Campaigns",
                    {
                        "campaigns": [
                            {
                                "path": "example",
                                "name": "Example",
                                "game": "Clash of Kings",
                                "period": "week 5",
                                "leads": "Tim",
                                "problems": [],
                            }
                        ]
                    },
                    public=True,
                    statuses=(),
                )
            },
        },
        "components": {"schemas": _schemas((documents.Campaigns,))},
    }


def _schemas(models: tuple[type[BaseModel], ...]) -> dict[str, Any]:
    _, found = models_json_schema([(m, "serialization") for m in models], ref_template=_REF + "{model}")
    defs: dict[str, Any] = found.get("$defs", {})
    return defs


def _shaped(ruleset: Ruleset, taken: dict[str, Any]) -> dict[str, Any]:
    """The game's reads' documents (`core.shapes`), each under its model's name; a name the
    API's own documents or the events already use for another shape is refused (one would
    hide the other); a shape they share (`Waited`) is the same schema."""
    found = _schemas(tuple(ruleset.shapes.values()))
    clash = sorted(name for name in set(found) & set(taken) if found[name] != taken[name])
    if clash:
        raise ValueError(f"{ruleset.title}'s read shapes reuse the API's names: {', '.join(clash)}")
    return found


def _posted(ruleset: Ruleset) -> dict[str, Any]:
    """The events a client may POST: each type's schema as `cok schema events` makes it, less
    what the ledger sets (`id`, `at`, `by`, `rolled`), with what a phone's form sends besides
    (`roll_dice`, `entropy`, `answers`); the dice' own events are cok's to write."""
    from cok.core.schemas import schema

    events = schema("events", ruleset)
    defs = _moved(events.get("$defs", {}))
    mapping: dict[str, str] = events["items"]["discriminator"]["mapping"]
    posted: dict[str, Any] = {}
    kinds: dict[str, str] = {}
    for kind, ref in mapping.items():
        if kind in DICE_OWN:
            continue
        name = ref.rsplit("/", 1)[-1]
        shape = copy.deepcopy(defs[name])
        for own in ("id", "at", "by", "rolled"):
            shape.get("properties", {}).pop(own, None)
        shape["required"] = [r for r in shape.get("required", []) if r not in ("id", "at", "by", "rolled")]
        shape["properties"].update(
            {
                "roll_dice": {
                    "type": "boolean",
                    "description": "Roll it for me: cok rolls the dice the event needs, fairly (docs/dice.md).",
                },
                "entropy": {
                    "type": "string",
                    "pattern": ENTROPY,
                    "description": "With roll_dice: your own 16 to 64 random bytes, in hex; they roll the dice "
                    "with the period's committed seed.",
                },
                "answers": {
                    "type": "object",
                    "description": "Answers to the rules' questions (409): {FIELD: answer}.",
                },
            }
        )
        posted[f"Posted{name}"] = shape
        kinds[kind] = f"{_REF}Posted{name}"
    kept = {k: v for k, v in defs.items() if k not in {r.rsplit("/", 1)[-1] for r in mapping.values()}}
    posted.update(kept)  # what the events' shapes refer to (a player's mapping, a rolled die…)
    posted["PostedEvent"] = {
        "oneOf": [{"$ref": ref} for ref in kinds.values()],
        "discriminator": {"propertyName": "type", "mapping": kinds},
    }
    return posted


def _moved(node: Any) -> Any:
    """The events' schema's references, from its own `$defs` to the document's components."""
    if isinstance(node, dict):
        return {
            k: (v.replace("#/$defs/", _REF) if k == "$ref" and isinstance(v, str) else _moved(v))
            for k, v in node.items()
        }
    if isinstance(node, list):
        return [_moved(v) for v in node]
    return node


#: A recording's `dry_run` and `again`: yes (1, true, yes) or no (0, false, no); any other
#: value is refused (400), never taken for a no (serve/api.py).
YES, NO = ("1", "true", "yes"), ("0", "false", "no")
YES_OR_NO = {"type": "string", "enum": [*YES, *NO]}
#: A yes-or-no option as a query string gives it (the reads' `flag`).
FLAG = {"type": "string", "enum": ["1", "0", "true", "false", "yes", "no", "on", "off", ""]}

Option = tuple[str, bool, dict[str, Any]]


def _option(parameter: inspect.Parameter) -> dict[str, Any]:
    """What one option of a read takes: a yes-or-no, JSON text (a page's actions), or text."""
    if "bool" in str(parameter.annotation):
        return FLAG
    if isinstance(parameter.default, str) and parameter.default.startswith("["):
        return {"type": "string", "contentMediaType": "application/json"}
    return {"type": "string"}


def _reads(ruleset: Ruleset) -> list[tuple[str, list[Option]]]:
    """Each read the game answers at `GET /api/<name>`, with its options (whether each must
    be given, what it takes: a yes-or-no or text), from the read's own signature: an option
    defaulting to "" (whom a page's read is about) must be given, as the read refuses it."""
    reads: list[tuple[str, list[Option]]] = [("standings", [])]
    for name, query in ruleset.queries.items():
        options = list(inspect.signature(query).parameters.values())[1:]
        reads.append(
            (
                name,
                [
                    (
                        p.name,
                        p.default is inspect.Parameter.empty or p.default == "",  # "": refused (422) until given
                        _option(p),
                    )
                    for p in options
                ],
            )
        )
    return reads


def _json(schema: str | dict[str, Any], example: Any | None = None) -> dict[str, Any]:
    shape = {"$ref": _REF + schema} if isinstance(schema, str) else schema
    media: dict[str, Any] = {"schema": shape}
    if example is not None:
        media["example"] = example
    return {"application/json": media}


def _refusals(statuses: tuple[int, ...]) -> dict[str, Any]:
    return {
        str(s): {
            "description": _SAID[s],
            "content": _json("Problems", _EXAMPLE_PROBLEMS if s == 401 else {"problems": [{"message": _SAID[s]}]}),
            **(
                {
                    "headers": {
                        "WWW-Authenticate": {"required": True, "schema": {"type": "string"}},
                        "Retry-After": {"required": False, "schema": {"type": "string"}},
                    }
                }
                if s == 401
                else {}
            ),
        }
        for s in statuses
    }


def _security(public: bool) -> list[dict[str, list[str]]]:
    return [{}, {"link": []}] if public else [{"link": []}]


def _operation(
    name: str,
    summary: str,
    schema: str | dict[str, Any],
    example: Any,
    *,
    public: bool = False,
    statuses: tuple[int, ...] = (401,),
    parameters: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    return {
        "operationId": name,
        "summary": summary,
        **({"parameters": parameters} if parameters else {}),
        "security": _security(public) if statuses else [],
        "responses": {
            "200": {"description": "The document.", "content": _json(schema, example)},
            **_refusals(statuses),
        },
    }


def _openapi_operation() -> dict[str, Any]:
    return {
        "operationId": "openapi",
        "summary": "This document: what the API accepts and answers (no campaign data).",
        "security": [],
        "responses": {"200": {"description": "An OpenAPI 3.1 document.", "content": _json({"type": "object"})}},
    }


def _log_operation() -> dict[str, Any]:
    entry = {
        "line": 17,
        "id": "cb651feffc15",
        "ref": "cb651feffc15",
        "type": "battle",
        "summary": "week 1 — Tim beats Matt at Ghost Hill, 7 to 5",
        "voided": False,
        "event": {"type": "battle", "id": "cb651feffc15", "players": ["tim", "matt"], "location": "Ghost Hill"},
        "confirmation": {"status": "awaiting", "other_side": ["matt"]},
        "dice": "not verified yet: the seed is revealed when week 1 ends",
    }
    parameters = [
        _query("since", "Only the events after this one (its id or ref, or a unique start of it, as `cok log` shows)."),
        _query(
            "limit",
            "At most this many events (100 when not given).",
            {"type": "integer", "minimum": 1, "maximum": 1000},
        ),
        _query("player", "Only the events about this player (as `cok log --player`)."),
    ]
    return _operation(
        "log",
        "`cok log --json` a page at a time, oldest first: each event in the log's words, with its confirmation "
        "and its dice' verdict. A bot polls with `since` = the last `last` it read.",
        "LogPage",
        {"events": [entry], "more": False, "last": "cb651feffc15"},
        statuses=(400, 401, 422),
        parameters=parameters,
    )


def _query(name: str, description: str, schema: dict[str, Any] | None = None, required: bool = False) -> dict[str, Any]:
    return {
        "name": name,
        "in": "query",
        "required": required,
        "description": description,
        "schema": schema or {"type": "string"},
    }


def _read_operation(name: str, options: list[Option], shape: str | dict[str, Any], *, public: bool) -> dict[str, Any]:
    said = "`cok standings --json`" if name == "standings" else f"the game's read `{name}`, as its command's `--json`"
    return _operation(
        name,
        f"{said}{' (open to anyone)' if public else ''}. Its fields: the game's docs (add, never rename or drop).",
        shape,
        None,
        public=public,
        statuses=(400, 401, 422),
        parameters=[
            _query(option, f"`{option}`, as the command's option of that name (a list: comma-separated).", shape, must)
            for option, must, shape in options
        ],
    )


def _events_operation(ruleset: Ruleset) -> dict[str, Any]:
    return {
        "operationId": "record",
        "summary": "Record one event as the link's holder, as a phone's form records it: who may is decided first, "
        "then the rules (a question: 409, nothing written).",
        "security": _security(False),
        "parameters": [
            _query("dry_run", "1: what would be recorded (200), nothing written.", YES_OR_NO),
            _query("again", "1: the same event again on purpose (the rules ask otherwise: 409).", YES_OR_NO),
            {
                "name": "Idempotency-Key",
                "in": "header",
                "required": False,
                "description": "The same key from the same link with the same body answers the first 201 again.",
                "schema": {"type": "string", "minLength": 1, "maxLength": 200, "pattern": "^[ -~]+$"},
            },
        ],
        "requestBody": {
            "required": True,
            "content": _json("PostedEvent", _example_event(ruleset)),
        },
        "responses": {
            "201": {
                "description": "Recorded: its id, and the event in the log's words.",
                "content": _json("Recorded", {"id": "3fa9c1d2e4b7", "told": "week 5 — Tim beats Matt", "warnings": []}),
            },
            "200": {
                "description": "A dry run: what would be recorded; nothing was written.",
                "content": _json(
                    "Recorded", {"id": None, "told": "week 5 — Tim beats Matt", "warnings": [], "dry_run": True}
                ),
            },
            "409": {
                "description": _SAID[409],
                "content": _json(
                    {"oneOf": [{"$ref": _REF + "Asked"}, {"$ref": _REF + "Problems"}]},
                    {
                        "question": {
                            "kind": "choice",
                            "field": "abandon",
                            "message": "the winner holds too many locations: which does Tim abandon?",
                            "options": ["Ghost Hill", "Sunspear"],
                            "keys": [],
                            "decline_field": None,
                        }
                    },
                ),
            },
            **_refusals((400, 401, 403, 413, 422)),
        },
    }


def _example_event(ruleset: Ruleset) -> dict[str, Any] | None:
    """A painting: the one event every game's example campaign may take from anyone (none: no example)."""
    return {"type": "painting", "player": "tim", "points": 10} if ruleset.id == "clash-of-kings" else None
