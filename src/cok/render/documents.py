"""The `--json` documents. Field names are a contract: add, never rename or drop."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterable, Iterator
from typing import Any

from cok.core.errors import Problem
from cok.core.plain import json_default


def dumps(document: Any) -> str:
    return json.dumps(document, ensure_ascii=False, indent=2, default=json_default)


def dumps_list(key: str, items: Iterable[Any], per_piece: int = 1024) -> Iterator[str]:
    """`dumps({key: list(items)})`, in pieces, never holding the items all at once (the
    history of a long campaign): the very same text."""
    pieces: list[str] = []
    first = True
    for item in items:
        body = json.dumps(item, ensure_ascii=False, indent=2, default=json_default).replace("\n", "\n    ")
        pieces.append(("{\n  " + json.dumps(key) + ": [\n    " if first else ",\n    ") + body)
        first = False
        if len(pieces) >= per_piece:
            yield "".join(pieces)
            pieces.clear()
    pieces.append("{\n  " + json.dumps(key) + ": []\n}" if first else "\n  ]\n}")
    yield "".join(pieces)


def plain(value: Any) -> dict[str, Any]:
    """A dataclass (an outcome, a mode) as a JSON-ready mapping."""
    return dataclasses.asdict(value) if dataclasses.is_dataclass(value) and not isinstance(value, type) else {}


def problems_doc(problems: list[Problem]) -> dict[str, Any]:
    return {
        "errors": [
            {"file": p.file, "line": p.line, "message": p.message, **({"follows_from": p.cause} if p.cause else {})}
            for p in problems
        ]
    }
