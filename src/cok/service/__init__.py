"""The application layer: what every interface (the command line, the server) calls to
record and to read a campaign. It knows no interface: no Typer, Rich, `cok.cli`,
`cok.serve` or `cok.render` here (tests/service/test_imports.py fails if it does).

    record(folder, drafts, by=…, answers=…, dry_run=…)   drafts → events → the ledger
    void(folder, target, reason, cascade=…, by=…)        an event named as typed, voided (and what stands on it)
    may_record(folder, draft, who)                       who may record what
    Ledger(folder)                                        a campaign kept warm (the server)
    queries.standings / check / status                    the `--json` documents
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from cok.service.access import may_record
    from cok.service.drafts import Draft, Who
    from cok.service.ledger import Ledger
    from cok.service.questions import Asked, Question
    from cok.service.recording import Recording, Refusal, record
    from cok.service.voiding import Dependent, Takes, event_ref, takes, void

#: Where each name lives: imported on first use, so that a query (a warm `cok standings`)
#: loads no recording, no ledger and no threads.
_HOME = {
    "may_record": "access",
    "Draft": "drafts",
    "Who": "drafts",
    "Ledger": "ledger",
    "Asked": "questions",
    "Question": "questions",
    "Recording": "recording",
    "Refusal": "recording",
    "record": "recording",
    "Dependent": "voiding",
    "Takes": "voiding",
    "event_ref": "voiding",
    "takes": "voiding",
    "void": "voiding",
}

__all__ = [
    "Asked",
    "Dependent",
    "Draft",
    "Ledger",
    "Question",
    "Recording",
    "Refusal",
    "Takes",
    "Who",
    "event_ref",
    "may_record",
    "record",
    "takes",
    "void",
]


def __getattr__(name: str) -> Any:
    if name not in _HOME:
        raise AttributeError(f"module 'cok.service' has no attribute {name!r}")
    return getattr(__import__(f"cok.service.{_HOME[name]}", fromlist=[name]), name)
