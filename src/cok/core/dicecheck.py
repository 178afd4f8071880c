"""Checking the campaign's dice from its log alone (`cok check`, docs/dice.md): every die
`cok` rolled recomputed from the seed revealed for it, every reveal against its commitment;
what is refused is refused at its line, and a period whose seed is not revealed yet is only
listed."""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from cok.core.errors import Problem, RuleError
from cok.core.fairdice import dice as derived
from cok.core.fairdice import digest
from cok.core.history import Told

#: A game's word on whether an event's own fields say what its rolled dice gave (its
#: `dice_agree`): a sentence when they do not.
Agree = Callable[[str, dict[str, Any], list[int]], "str | None"]


class Twice(Problem):
    """A second commitment for a period whose dice are committed already, neither revealed
    nor lost: one commitment a period (a seed could else be chosen after the fact)."""


class CommittedTwice(RuleError):
    """The ledger's refusal of a second commitment for a period: what a process that lost
    the race to commit a period's dice is told (`service/dice.py`'s `Meanwhile` catches it by
    this type, never by its words)."""


def refusal(problems: Sequence[Problem]) -> RuleError:
    """The ledger's refusal of events that would make this check fail (nothing is written):
    `CommittedTwice` when one of them commits a period a second time."""
    said = "; ".join(p.message for p in problems)
    kind = CommittedTwice if any(isinstance(p, Twice) for p in problems) else RuleError
    return kind(f"{said} (`cok check` would refuse the log with it: nothing was written)")


@dataclass
class Commitment:
    """A dice-commit as the log holds it, and what became of it."""

    id: str
    line: int
    period: str
    sha256: str
    rolls: list[Told] = field(default_factory=list)
    closed: str = ""  # "revealed" or "lost"
    closed_line: int = 0
    seed: str | None = None


@dataclass
class Audit:
    problems: list[Problem] = field(default_factory=list)
    commitments: dict[str, Commitment] = field(default_factory=dict)
    verified: set[str] = field(default_factory=set)  # refs of the events whose dice are checked
    entropies: dict[str, int] = field(default_factory=dict)  # each entropy used, with its first line

    def open(self, period: str | None = None) -> Commitment | None:
        """The last commitment neither revealed nor lost (of `period`, when given): the one
        the period's rolls use."""
        return next(
            (c for c in reversed(self.commitments.values()) if not c.closed and period in (None, c.period)), None
        )

    def pending(self) -> list[str]:
        """The periods whose dice wait for their seed, in words (not a problem); a commitment
        no roll used has nothing to verify."""
        return [
            f"the dice of {c.period} (committed on line {c.line}): {len(c.rolls)} roll(s) not verified yet, "
            "the seed is revealed when the period ends"
            for c in self.commitments.values()
            if not c.closed and c.rolls
        ]


def audit(rows: Iterable[Told], shown: str, agree: Agree | None = None) -> Audit:
    """Every dice event and rolled die of the history, in order (voided events left out)."""
    done = Audit()
    for row in rows:
        _see(done, row, shown, agree)
    return done


def brought(
    rows: Iterable[Told],
    added: Iterable[Told],
    shown: str,
    agree: Agree | None = None,
    voided: Collection[str] = (),
) -> list[Problem]:
    """What `cok check` would refuse once the rows `added` follow the log's `rows` (and the
    events `voided` are voided by them), and did not before: the ledger appends no event that
    makes the check fail (a replayed entropy, a second commitment for a period, a roll with a
    seed revealed, a commitment voided under its rolls…)."""
    rows = list(rows)
    before = {(p.line, p.message) for p in audit(rows, shown, agree).problems}
    kept = [replace(r, voided=True) if {r.id, r.ref} & set(voided) else r for r in rows]
    after = audit([*kept, *added], shown, agree).problems
    return [p for p in after if (p.line, p.message) not in before]


def dice_in(fields: dict[str, Any], type: str) -> bool:
    """Whether an event is one the dice' check reads: a dice event, or one with `rolled`."""
    return type in ("dice-commit", "dice-reveal", "dice-lost") or isinstance(fields.get("rolled"), dict)


def _see(done: Audit, row: Told, shown: str, agree: Agree | None) -> None:
    """One row of the history met by the check, in order."""

    def problem(line: int, message: str, kind: type[Problem] = Problem) -> None:
        done.problems.append(kind(shown, line, message))

    entropies = done.entropies
    if not row.voided:
        fields, line = row.event, row.line
        if row.type == "dice-commit":
            earlier = done.open(str(fields.get("period")))
            if earlier is not None:  # a second seed for the same period: one could be chosen after the fact
                problem(
                    line,
                    f"dice-commit: the dice of {earlier.period} were committed on line {earlier.line} and are "
                    "neither revealed nor lost: one commitment a period",
                    Twice,
                )
            ref = str(row.id or row.ref)
            done.commitments[ref] = Commitment(ref, line, str(fields.get("period")), str(fields.get("sha256")))
        elif row.type in ("dice-reveal", "dice-lost"):
            _close(done, row, problem)
        elif isinstance(fields.get("rolled"), dict):
            _roll(done, row, fields["rolled"], entropies, problem, agree)


def _roll(
    done: Audit,
    row: Told,
    rolled: dict[str, Any],
    entropies: dict[str, int],
    problem: Callable[[int, str], None],
    agree: Agree | None,
) -> None:
    line = row.line
    commitment = _commitment(done, line, "rolled", rolled.get("commit"), problem)
    if commitment is None:
        return
    _closed(commitment, line, "rolled", problem, ": anyone could have chosen these dice")
    entropy = str(rolled.get("entropy"))
    if entropy in entropies:
        problem(line, f"rolled: the entropy was already used on line {entropies[entropy]}: a replayed entropy")
    entropies.setdefault(entropy, line)
    if agree is not None:
        said = agree(row.type, row.event, [int(d) for d in rolled.get("dice", [])])
        if said:
            problem(line, f"rolled: {said}")
    commitment.rolls.append(row)


def _commitment(
    done: Audit, line: int, kind: str, commit: Any, problem: Callable[[int, str], None]
) -> Commitment | None:
    """The commitment a roll or a reveal names; a problem where none stands before it."""
    commitment = done.commitments.get(str(commit))
    if commitment is None:
        problem(line, f"{kind}: no dice-commit {commit!r} before this line")
    return commitment


def _closed(commitment: Commitment, line: int, kind: str, problem: Callable[[int, str], None], why: str = "") -> bool:
    """Whether the seed was already revealed or lost (a problem if so): its dice are known to all."""
    if commitment.closed:
        problem(
            line,
            f"{kind}: the seed committed on line {commitment.line} was already {commitment.closed} "
            f"on line {commitment.closed_line}{why}",
        )
    return bool(commitment.closed)


def _close(done: Audit, row: Told, problem: Callable[[int, str], None]) -> None:
    fields, line = row.event, row.line
    commitment = _commitment(done, line, row.type, fields.get("commit"), problem)
    if commitment is None or _closed(commitment, line, row.type, problem):
        return
    if row.type == "dice-lost":
        commitment.closed, commitment.closed_line = "lost", line
        return
    seed = str(fields.get("seed"))
    commitment.closed, commitment.closed_line, commitment.seed = "revealed", line, seed
    if digest(seed) != commitment.sha256:
        problem(
            line,
            f"dice-reveal: this seed does not match the commitment on line {commitment.line} "
            "(its SHA-256 differs): a swapped seed",
        )
        return
    if not commitment.rolls:
        problem(line, f"dice-reveal: no die was rolled with the seed committed on line {commitment.line}")
    for rolled_row in commitment.rolls:
        rolled = rolled_row.event["rolled"]
        sides = [int(s) for s in rolled.get("sides", [])]
        given = [int(d) for d in rolled.get("dice", [])]
        expected = derived(seed, str(rolled.get("what")), str(rolled.get("entropy")), sides)
        if given != expected:
            problem(
                rolled_row.line,
                f"rolled: the dice {given} do not follow from the seed revealed on line {line}, "
                f"which gives {expected}: a forged roll",
            )
        else:
            done.verified.add(str(rolled_row.ref))
