"""The application layer: what every interface (the command line, the server) calls to
record and to read a campaign. It knows no interface: no Typer, Rich, `cok.cli`,
`cok.serve` or `cok.render` here (tests/service/test_imports.py fails if it does).

    record(folder, drafts, by=…, answers=…, dry_run=…)   drafts → events → the ledger
    may_record(folder, draft, who)                       who may record what
    Ledger(folder)                                        a campaign kept warm (the server)
    queries.standings / check / status                    the `--json` documents
"""

from __future__ import annotations

from cok.service.access import may_record
from cok.service.drafts import Draft, Who
from cok.service.ledger import Ledger
from cok.service.questions import Asked, Question
from cok.service.recording import Recording, Refusal, record

__all__ = [
    "Asked",
    "Draft",
    "Ledger",
    "Question",
    "Recording",
    "Refusal",
    "Who",
    "may_record",
    "record",
]
