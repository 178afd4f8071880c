"""The members every game keeps in the same file under the same name (the skeleton:
docs/architecture.md), named once: a game's class subclasses `Skeleton` and says only what
is its own. Each is a `Lazy` of the game's own package (the class's module), so a game that
keeps one elsewhere names it itself."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cok.core.ruleset import Game, Lazy

if TYPE_CHECKING:
    from cok.core.events import EventBase


class Skeleton(Game):
    """A game whose files are the skeleton's: its events, rules, intents, chat and reports."""

    events = Lazy("events:EVENT_TYPES")
    involved = Lazy("events:involved")  # the players an event is about (`cok log --player`)
    apply = Lazy("rules.apply:apply")
    decide = Lazy("rules.apply:decide")  # a recording decides once, then commits
    commit = Lazy("rules.apply:commit")
    build = Lazy("intents:build")  # an event from what a user gave (names as typed, answers, dice)
    period = Lazy("intents:period")  # whose dice are committed and revealed together (docs/dice.md)
    dice_agree = Lazy("intents:dice_agree")  # its fields say what the dice cok rolled gave
    named = Lazy("intents:named")  # whom a draft names (who may record it)
    notify_kinds = Lazy("notify:KINDS")  # which events are posted in the club's chat
    notify_waits = Lazy("notify:waits")  # whom the ledger waits for (a nudge)
    report = Lazy("reports:recording_report")
    standings = Lazy("reports:standings_report")
    shapes = Lazy("shapes:SHAPES")  # each read's document as a model: the API's published schema


def by_type(*events: type[EventBase]) -> dict[str, type[EventBase]]:
    """A game's `EVENT_TYPES` (its `events.py`): each event model by its `type`, read from the
    model itself, so that a type's name is written once; two models of one type are refused."""
    found: dict[str, type[EventBase]] = {}
    for model in events:
        name = model.model_fields["type"].default
        if name in found:
            raise ValueError(f"two event models of type {name!r}: {found[name].__name__} and {model.__name__}")
        found[name] = model
    return found
