"""Matching names typed by people: case, spaces and punctuation do not matter."""

from __future__ import annotations

import difflib
from collections.abc import Iterable

from cok.core.errors import RuleError


def normalize(name: str) -> str:
    """`Vulture's Roost`, `vultures roost` and `VULTURES-ROOST` all become `vulturesroost`."""
    return "".join(ch for ch in name.casefold() if ch.isalnum())


def suggest(name: str, known: Iterable[str], n: int = 3) -> list[str]:
    """The closest known names, best first."""
    by_key: dict[str, str] = {}
    for k in known:
        by_key.setdefault(normalize(k), k)
    keys = difflib.get_close_matches(normalize(name), list(by_key), n=n, cutoff=0.6)
    return [by_key[k] for k in keys]


def did_you_mean(name: str, known: Iterable[str]) -> str:
    """A ' (did you mean …?)' suffix, or '' when nothing is close."""
    close = suggest(name, known)
    if not close:
        return ""
    return " (did you mean " + " or ".join(repr(c) for c in close) + "?)"


class NameIndex:
    """Finds the canonical spelling of a name, however it was typed."""

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
            raise RuleError(f"unknown {self.what} {typed!r}{did_you_mean(typed, self.names)}")
        return found

    def __contains__(self, typed: object) -> bool:
        return isinstance(typed, str) and normalize(typed) in self._by_key
