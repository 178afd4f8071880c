"""The dice the ledger rolls for a player who asks it to ("roll it for me"): one injected
source, so that a phone and the command line roll alike and a test rolls what it chooses.
Every game's intents roll through it, and nowhere else (issue #36); the dice of a campaign
are committed before and revealed after (`core/fairdice.py`, docs/dice.md)."""

from __future__ import annotations

import random
from typing import Protocol

#: The one answer meaning "roll it for me", for every game: `"roll_dice": true` in the API's
#: answers, "Roll for me" on a page, and at the terminal each game's flag (Mighty Kingdoms'
#: `--roll-dice`; No True King's `ntk begin --roll`, as its contract names it).
ROLL = "roll_dice"
#: The answer holding the asker's own random bytes (hex): the phone's browser sends them
#: (crypto.getRandomValues), the terminal makes its own.
ENTROPY = "entropy"


class Dice(Protocol):
    """Rolls dice for one thing at a time: `rolling(what)` names it (the event's identity in
    the fair dice' derivation, e.g. `battle 2026-5 kingsford ana bo`), `roll(sides)` rolls
    its next die, a whole number from 1 to `sides`."""

    def roll(self, sides: int = 6) -> int: ...

    def rolling(self, what: str) -> Dice: ...


class RandomDice:
    """Dice from the operating system's randomness (what a test or an offline tool rolls;
    a campaign's own rolls go through the fair dice)."""

    def __init__(self) -> None:
        self._random = random.SystemRandom()

    def roll(self, sides: int = 6) -> int:
        return self._random.randint(1, sides)

    def rolling(self, what: str) -> Dice:
        return self


class FixedDice:
    """Dice that roll the given numbers in turn (for tests and for dice rolled at the table).
    Each `rolling` starts again from the first number: an event built twice (a question
    answered in between) rolls the same dice, as the fair dice do."""

    def __init__(self, *rolls: int) -> None:
        self._given = rolls
        self._rolls = list(rolls)

    def roll(self, sides: int = 6) -> int:
        if not self._rolls:
            raise ValueError("no more rolls were given")
        value = self._rolls.pop(0)
        if not 1 <= value <= sides:
            raise ValueError(f"a die of {sides} sides cannot roll {value}")
        return value

    def rolling(self, what: str) -> Dice:
        return FixedDice(*self._given)
