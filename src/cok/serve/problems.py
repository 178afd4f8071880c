"""The one error document of the API, `{"problems": [{"message": …}, …]}`, made here alone, and
the one mapping from the service's refusals to HTTP statuses: an endpoint raises or hands over
what the service said, and the status follows from what kind of refusal it is."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from starlette.responses import JSONResponse, Response

from cok.contract.documents import Asked as AskedDocument
from cok.contract.documents import Problems, Question
from cok.core.errors import Refused, RuleError
from cok.serve.warm import Asked


class Problem(Exception):
    """A refusal an endpoint raises: its status, its messages, and what the document carries
    besides (`names` of a 404, `retry_after` of a 401 to wait) or the headers it needs."""

    def __init__(self, status: int, *messages: str, headers: Mapping[str, str] | None = None, **more: Any) -> None:
        super().__init__(messages[0] if messages else "")
        self.status = status
        self.messages = messages
        self.headers = dict(headers or {})
        self.more = more


def envelope(messages: Iterable[str], **more: Any) -> dict[str, Any]:
    """The error document: each message a problem, and what else this refusal says."""
    document = Problems(problems=[{"message": m} for m in messages], **more)
    said: dict[str, Any] = document.model_dump(mode="json", exclude_none=True)
    return said


def envelope_bytes(*messages: str) -> bytes:
    """The error document as bytes, for an answer made below Starlette (the body bound)."""
    return json.dumps(envelope(messages)).encode()


def problem(status: int, *messages: str, headers: Mapping[str, str] | None = None, **more: Any) -> Response:
    """The error document with its status."""
    return JSONResponse(envelope(messages, **more), status, headers=dict(headers or {}))


def answered(refusal: BaseException, *, argument: bool = False) -> Response:
    """The service's refusal as the API answers it (the one mapping from errors to statuses):
    a `Problem` as it says; the rules' question 409; a refusal of the rules or the ledger 422;
    a value that cannot be taken (`free=maybe`) 400 — and so is a read's refusal of its
    arguments (`argument`: the read was refused before the rules were asked)."""
    if isinstance(refusal, Problem):
        return problem(refusal.status, *refusal.messages, headers=refusal.headers, **refusal.more)
    if isinstance(refusal, Asked):
        return JSONResponse(asked(refusal), 409)
    if isinstance(refusal, Refused):
        return problem(400 if argument else 422, *(p.message for p in refusal.problems))
    if isinstance(refusal, RuleError):
        return problem(422, str(refusal))
    if isinstance(refusal, (ValueError, TypeError)):
        return problem(400, str(refusal).strip("'\""))
    raise refusal


def asked(refused: Asked) -> dict[str, Any]:
    """The rules' question as the API asks it (409): send the event again with its answer."""
    q = refused.question
    document = AskedDocument(
        question=Question(
            kind=q.kind,
            field=q.field,
            message=q.words,
            options=list(q.options),
            keys=list(q.keys),
            decline_field=q.decline_field,
        )
    )
    said: dict[str, Any] = document.model_dump(mode="json")
    return said
