"""Matching names typed by people: case, spaces and punctuation do not matter."""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from cok.core.errors import RuleError
from cok.core.text import quoted

if TYPE_CHECKING:
    from cok.core.events import EventBase

S = TypeVar("S")


def normalize(name: str) -> str:
    """`Vulture's Roost`, `vultures roost` and `VULTURES-ROOST` all become `vulturesroost`."""
    return "".join(ch for ch in name.casefold() if ch.isalnum())


#: How much less alike than the best match another may be and still be suggested: beside
#: 'Last Hearth' for 'last hearh', 'Ashemark' is no help.
MARGIN = 0.1

#: A typed name longer than this is close to no known one.
LONGEST = 200

#: At most this many known names are listed in full when a typed one is unknown.
LISTED = 30


def suggest(name: str, known: Iterable[str], n: int = 3) -> list[str]:
    """The closest known names, best first: only those nearly as close as the best one."""
    import difflib  # only for a name typed wrong: every command matches names, few miss

    by_key: dict[str, str] = {}
    for k in known:
        by_key.setdefault(normalize(k), k)
    typed = normalize(name)
    keys = difflib.get_close_matches(typed, list(by_key), n=n, cutoff=0.6)
    if not keys:
        return []
    best = difflib.SequenceMatcher(None, typed, keys[0]).ratio()
    return [by_key[k] for k in keys if difflib.SequenceMatcher(None, typed, k).ratio() >= best - MARGIN]


def did_you_mean(name: str, known: Iterable[str]) -> str:
    """A ' (did you mean …?)' suffix, or '' when nothing is close."""
    if len(name) > LONGEST:  # no name is that long: nothing is close, and comparing would be slow
        return ""
    close = suggest(name, known)
    if not close:
        return ""
    return " (did you mean " + " or ".join(repr(c) for c in close) + "?)"


def one_of(typed: object, choices: Iterable[str]) -> str:
    """ "'marshall' is not one of maester, marshal, lord (did you mean 'marshal'?)": a value
    outside a fixed set (an agent's space, an order, a symbol) gets the help a name gets."""
    listed = list(dict.fromkeys(choices))
    return f"{typed!r} is not one of {', '.join(listed)}{did_you_mean(str(typed), listed)}"


def choose(typed: str, choices: Iterable[str]) -> str:
    """The choice typed, however it was typed (`Marshal`, `MARSHAL`); RuleError saying what
    may be typed, with "did you mean", for anything else."""
    listed = list(choices)
    for choice in listed:
        if normalize(choice) == normalize(typed):
            return choice
    raise RuleError(one_of(typed, listed))


def allowed(known: Iterable[str], what: str) -> str:
    """'; known factions: a, b, c' — what may be typed instead, when few enough to list."""
    names = list(dict.fromkeys(known))
    if not names:
        return f"; there are no {what}s yet"
    if len(names) > LISTED:
        return ""
    return f"; known {what}s: {', '.join(names)}"


def unknown(typed: str, known: Iterable[str], what: str) -> str:
    """ "unknown faction 'x' (did you mean …?); known factions: …" — the sentence for a name
    that matches nothing: the close match when there is one, and what is allowed."""
    names = list(known)
    return f"unknown {what} {quoted(typed)}{did_you_mean(typed, names)}{allowed(names, what)}"


def find(typed: str, known: Collection[str], what: str, spellings: Iterable[tuple[str, str]] = ()) -> str:
    """The known name meant by `typed` however it was typed (case, spaces, punctuation), or by
    another of its `spellings` (pairs of spelling and known name: a player's display name, a
    card's older spelling); else RuleError in the one wording every game uses (`unknown`):
    "unknown player 'bobby' (did you mean 'bob'?); known players: tim, bob"."""
    if typed in known:  # the usual case: typed as the log or the map spells it
        return typed
    key = normalize(typed)
    for name in known:
        if normalize(name) == key:
            return name
    for spelling, name in spellings:
        if normalize(spelling) == key:
            return name
    raise RuleError(unknown(typed, known, what))


class NameIndex:
    """Finds the canonical spelling of a name, however it was typed: `find` for a fixed set of
    names looked up again and again (a map's locations), indexed once."""

    def __init__(self, names: Iterable[str], what: str) -> None:
        self.what = what
        self.names = list(names)
        self._by_key = {normalize(n): n for n in self.names}
        self._exact = set(self.names)

    def find(self, typed: str) -> str:
        if typed in self._exact:  # the usual case: the log holds the map's own spelling
            return typed
        found = self._by_key.get(normalize(typed))
        if found is None:
            raise RuleError(unknown(typed, self.names, self.what))
        return found

    def __contains__(self, typed: object) -> bool:
        return isinstance(typed, str) and normalize(typed) in self._by_key


def spelled_by(
    spellings: Mapping[type[EventBase], Callable[[S, Any], EventBase]], state: S, event: EventBase
) -> EventBase:
    """The event with every name it gives in the map's or the campaign's own spelling, by its
    type's spelling in a game's table: the SAME object when it already is (the usual case, so
    a long fold copies nothing); RuleError with "did you mean" for a name that matches none."""
    spell = spellings.get(type(event))
    return event if spell is None else spell(state, event)
