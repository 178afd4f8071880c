"""The dice the ledger rolls for a player who asks it to ("roll it for me"): one injected
source, random by default, so that a phone and the command line roll alike and a test
rolls what it chooses."""

from __future__ import annotations

import random
from typing import Protocol


class Dice(Protocol):
    """Rolls one die of `sides` faces: a whole number from 1 to `sides`."""

    def roll(self, sides: int = 6) -> int: ...


class RandomDice:
    """Fair dice from the operating system's randomness."""

    def __init__(self) -> None:
        self._random = random.SystemRandom()

    def roll(self, sides: int = 6) -> int:
        return self._random.randint(1, sides)


class FixedDice:
    """Dice that roll the given numbers in turn (for tests and for dice rolled at the table)."""

    def __init__(self, *rolls: int) -> None:
        self._rolls = list(rolls)

    def roll(self, sides: int = 6) -> int:
        if not self._rolls:
            raise ValueError("no more rolls were given")
        value = self._rolls.pop(0)
        if not 1 <= value <= sides:
            raise ValueError(f"a die of {sides} sides cannot roll {value}")
        return value
