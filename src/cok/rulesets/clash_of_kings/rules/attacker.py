"""Who Chooses? The attacking player is the one who chooses the battle's location."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from cok.core.errors import RuleError
from cok.core.text import counted
from cok.rulesets.clash_of_kings.rules.state import State


@dataclass(frozen=True)
class Attack:
    attacker: str | None
    defender: str | None
    decided_by: str  # "brotherhood" | "fewer-territories" | "given" | "roll-needed"


BROTHERHOOD = "brotherhood"


def as_brotherhood(state: State, players: tuple[str, str], named: Collection[str]) -> tuple[str, ...]:
    """The players who fight as the Brotherhood Without Banners: those the battle names, and
    in every battle a player of the Brotherhood faction ("this faction never chooses the
    territory for a battle, and cannot occupy territories, even if they win")."""
    return tuple(p for p in players if p in named or (p in state.players and state.players[p].faction == BROTHERHOOD))


def choose_attacker(
    state: State, a: str, b: str, brotherhood: Collection[str] = (), given: str | None = None
) -> Attack:
    """The Brotherhood never chooses; otherwise fewer occupied territories chooses;
    on equal territories a roll-off decides, and its winner must be given."""
    if given is not None and given not in (a, b):
        raise RuleError(f"the attacker must be {a} or {b}, not {given}")
    fighting_as_bwb = [p for p in (a, b) if p in brotherhood]
    if len(fighting_as_bwb) == 2:
        if given is not None:
            raise RuleError("both fight as the Brotherhood Without Banners, so neither is the attacker")
        return Attack(None, None, "brotherhood")
    if len(fighting_as_bwb) == 1:
        bwb = fighting_as_bwb[0]
        other = b if bwb == a else a
        if given is not None and given != other:
            raise RuleError(
                f"{bwb} fights as the Brotherhood Without Banners, which never chooses the "
                f"location: {other} is the attacker"
            )
        return Attack(other, bwb, "brotherhood")
    na, nb = len(state.territories(a)), len(state.territories(b))
    if na != nb:
        fewer, more = (a, b) if na < nb else (b, a)
        if given is not None and given != fewer:
            raise RuleError(
                f"{fewer} holds {counted(min(na, nb), 'territory', 'territories')} and {more} holds "
                f"{counted(max(na, nb), 'territory', 'territories')}: "
                f"the player with fewer territories, {fewer}, is the attacker"
            )
        return Attack(fewer, more, "fewer-territories")
    if given is None:
        return Attack(None, None, "roll-needed")
    return Attack(given, b if given == a else a, "given")
