"""Dice anyone can check (issue #40, docs/dice.md): each die `cok` rolls comes from a seed the
campaign committed to before the roll was asked for (only its SHA-256 in the log), what is
rolled (the roll's identity) and the asker's own random bytes; the seed is revealed once the
period is over, and then every die can be recomputed from the log alone.

    block(j) = HMAC-SHA256(key=seed, msg="cok-dice-1|<what>|<entropy>|<n>|<j>")
    a die of S sides: the first 4 bytes of each block as a big-endian number x, blocks
    j = 0, 1, … until x < 2**32 - 2**32 % S (no modulo bias); the die is x % S + 1.

`n` counts the dice of one roll from 0; `seed` is the 32 bytes whose hex the reveal shows."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass, field

from cok.core.events import Rolled

#: Bytes of a seed, and of the entropy the terminal makes (a phone's: 16 from the browser).
SEED_BYTES = 32
ENTROPY_BYTES = 16
#: The derivation's name, in every message it hashes: a later scheme would change it.
SCHEME = "cok-dice-1"


def new_seed() -> str:
    return secrets.token_hex(SEED_BYTES)


def new_entropy() -> str:
    return secrets.token_hex(ENTROPY_BYTES)


def digest(seed: str) -> str:
    """The commitment to a seed: the SHA-256 of its 32 bytes, in hex."""
    return hashlib.sha256(bytes.fromhex(seed)).hexdigest()


def die(seed: str, what: str, entropy: str, n: int, sides: int) -> int:
    """The `n`th die (from 0) of `sides` faces of a roll: rejection sampling over an
    HMAC-SHA256 stream, so that every face is exactly as likely."""
    key = bytes.fromhex(seed)
    limit = 2**32 - 2**32 % sides
    j = 0
    while True:
        block = hmac.new(key, f"{SCHEME}|{what}|{entropy}|{n}|{j}".encode(), hashlib.sha256).digest()
        x = int.from_bytes(block[:4], "big")
        if x < limit:
            return x % sides + 1
        j += 1


def dice(seed: str, what: str, entropy: str, sides: list[int]) -> list[int]:
    """Every die of a roll, as the seed gives them."""
    return [die(seed, what, entropy, n, s) for n, s in enumerate(sides)]


@dataclass
class Roll:
    """One roll as it is made (what it is for, its entropy, its dice so far)."""

    what: str
    entropy: str
    sides: list[int] = field(default_factory=list)
    dice: list[int] = field(default_factory=list)


class Uncommitted(Exception):
    """A die was asked for, and the campaign has no commitment open: one must be written
    before the asker's entropy is made (docs/dice.md)."""


class FairDice:
    """The campaign's dice: the `Dice` every game's intents roll with. Each `rolling(what)`
    starts a roll of its own (an event built twice, a question answered in between, rolls
    the same dice); the rolls made are kept for the event's `rolled` record."""

    def __init__(
        self, commit: str | None, seed: str | None, entropy: str, pinned: dict[str, str] | None = None
    ) -> None:
        self.commit, self.seed, self.entropy = commit, seed, entropy
        self.pinned = dict(pinned or {})  # the entropy first sent for a roll, by what it is for
        self.rolls: list[Roll] = []

    def rolling(self, what: str) -> _Stream:
        roll = Roll(what, self.pinned.get(what, self.entropy))
        self.rolls.append(roll)
        return _Stream(self, roll)

    def roll(self, sides: int = 6) -> int:
        return self.rolling("a die").roll(sides)

    def record(self, since: int) -> Rolled | None:
        """The `rolled` record of the rolls made since the `since`th (one event's build)."""
        made = [r for r in self.rolls[since:] if r.dice]
        if not made or self.commit is None:
            return None
        first = made[0]
        return Rolled(commit=self.commit, what=first.what, entropy=first.entropy, sides=first.sides, dice=first.dice)


class _Stream:
    def __init__(self, owner: FairDice, roll: Roll) -> None:
        self.owner, self.made = owner, roll

    def roll(self, sides: int = 6) -> int:
        owner, made = self.owner, self.made
        if owner.seed is None or owner.commit is None:
            raise Uncommitted(made.what)
        owner.pinned.setdefault(made.what, made.entropy)
        value = die(owner.seed, made.what, made.entropy, len(made.dice), sides)
        made.sides.append(sides)
        made.dice.append(value)
        return value

    def rolling(self, what: str) -> _Stream:
        return self.owner.rolling(what)
