"""Older shapes of Mighty Kingdoms events, read as today's (the log file is never rewritten).
Light: the ruleset's module imports it at start."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from cok.core.ruleset import Upcast


def bonus_as_points(item: dict[str, Any]) -> dict[str, Any]:
    """A quest written before the hero's `points` typed `bonus: N`, the +1s to the roll for
    every full 100 points the hero costs: it reads as `points: N×100`, which gives the same
    bonus. With `points` also given, or a `bonus` that is no count, it is left for the event's
    model to refuse in words."""
    if "bonus" not in item or "points" in item:
        return item
    bonus = item["bonus"]
    if isinstance(bonus, bool) or not isinstance(bonus, int) or bonus < 0:
        return item
    read = {k: v for k, v in item.items() if k != "bonus"}
    read["points"] = bonus * 100
    return read


UPCASTS: Mapping[str, Sequence[Upcast]] = {"quest": (bonus_as_points,)}
