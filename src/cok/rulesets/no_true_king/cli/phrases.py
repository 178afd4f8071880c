"""Reading `cok ntk resolve` and `cok ntk combat` words into actions and a combat: the
contract's `--move FROM TO UNITS…` takes a variable number of words, so these commands read
their options themselves."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from cok.core.errors import RuleError

UNIT_WORDS = {
    "footman": "footman",
    "footmen": "footman",
    "knight": "knight",
    "knights": "knight",
    "ship": "ship",
    "ships": "ship",
}


@dataclass
class Words:
    """The options read, in the order given: (name without dashes, its words)."""

    options: list[tuple[str, list[str]]] = field(default_factory=list)

    def all(self, name: str) -> list[list[str]]:
        return [words for n, words in self.options if n == name]

    def one(self, name: str) -> str | None:
        found = self.all(name)
        if not found:
            return None
        if len(found) > 1 or len(found[0]) != 1:
            raise RuleError(f"--{name} takes one value, once")
        return found[0][0]


def split(args: list[str], known: set[str]) -> tuple[list[str], Words]:
    """The leading words (positional), then each `--option` with the words after it."""
    positional: list[str] = []
    words = Words()
    current: list[str] | None = None
    for arg in args:
        if arg.startswith("--"):
            name, eq, value = arg[2:].partition("=")
            if name not in known:
                raise RuleError(f"unknown option --{name}; options: {', '.join('--' + k for k in sorted(known))}")
            current = [value] if eq else []
            words.options.append((name, current))
        elif current is None:
            positional.append(arg)
        else:
            current.append(arg)
    return positional, words


def units(words: list[str]) -> list[str]:
    """`footman knight`, `2 footmen`, `footman footman` → a list of units."""
    found: list[str] = []
    count = 1
    for word in words:
        if word.isdigit():
            count = int(word)
            continue
        unit = UNIT_WORDS.get(word.casefold())
        if unit is None:
            from cok.core.names import one_of

            raise RuleError(f"unit: {one_of(word, UNIT_WORDS)} (e.g. `2 footmen knight`)")
        found += [unit] * count
        count = 1
    return found


def move(words: list[str], option: str) -> dict[str, Any]:
    if len(words) < 3:
        raise RuleError(f"--{option} takes FROM TO UNITS…, e.g. --{option} Winterfell 'Moat Cailin' footman knight")
    return {"from": words[0], "to": words[1], "units": units(words[2:])}


def muster(adds: list[list[str]], promotes: list[list[str]]) -> dict[str, Any]:
    """`--muster AREA=footman,ship:SEA …` and `--promote AREA …` as one muster."""
    found: dict[str, Any] = {}
    for words in adds:
        for word in words:
            area, eq, items = word.partition("=")
            if not eq or not area.strip():
                raise RuleError(f"--muster takes AREA=footman or AREA=ship:SEA (got {word!r})")
            into = found.setdefault(area.strip(), [])
            for item in filter(None, (i.strip() for i in items.split(","))):
                kind, colon, sea = item.partition(":")
                if kind.casefold() == "footman" and not colon:
                    into.append("footman")
                elif kind.casefold() == "ship" and colon and sea.strip():
                    into.append({"ship": sea.strip()})
                else:
                    raise RuleError(f"--muster {area}: add `footman` or `ship:SEA`, not {item!r}")
    promoted = [area for words in promotes for area in words]
    if promoted:
        found["promote"] = promoted
    return found


def actions(words: Words, prefix: str = "") -> list[dict[str, Any]]:
    """The actions in the order their options were given."""
    found: list[dict[str, Any]] = []
    mustered = False
    for name, given in words.options:
        if not name.startswith(prefix) or (prefix == "" and name.startswith("then-")):
            continue
        kind = name[len(prefix) :]
        if kind in ("muster", "promote") and not mustered:
            mustered = True
            found.append({"muster": muster(words.all(prefix + "muster"), words.all(prefix + "promote"))})
        elif kind == "move":
            found.append({"move": move(given, name)})
        elif kind == "draw":
            if given:
                raise RuleError(f"--{name} takes no value")
            found.append({"draw": True})
    return found


def cards(words: Words, prefix: str = "") -> dict[str, str | None]:
    found: dict[str, str | None] = {}
    for given in words.all(prefix + "card"):
        text = " ".join(given)
        player, eq, card = text.partition("=")
        if not eq or not player.strip() or not card.strip():
            raise RuleError(f"--{prefix}card takes PLAYER=CARD, like --card ana='Eddard Stark' (got {text!r})")
        found[player.strip()] = card.strip()
    return found


def combat(words: Words, prefix: str = "") -> dict[str, Any] | None:
    """The combat options (`--card`, `--winner`, `--retreat`, and the effects), if any."""
    found: dict[str, Any] = {}
    played = cards(words, prefix)
    if played:
        found["cards"] = played
    for key in ("winner", "retreat"):
        value = words.one(prefix + key)
        if value is not None:
            found[key] = value
    if not prefix:
        after = actions(words, "then-")
        if after:
            inner = combat(words, "then-") or ({"cards": {}} if words.all("then-combat") else None)
            if inner is not None:
                after[0]["combat"] = inner
            found["after"] = after
        remove = words.one("remove")
        if remove is not None:
            found["remove"] = {"house": "lannister", "space": remove}
        discard = words.one("discard")
        if discard is not None:
            player, eq, house = discard.partition("=")
            if not eq:
                raise RuleError(f"--discard takes PLAYER=HOUSE (got {discard!r})")
            found["discard"] = {"player": player.strip(), "house": house.strip()}
    return found or None


#: The options every recording command takes, which `resolve`'s words may hold too.
COMMON = {"note", "campaign", "dry-run", "json", "no-cache"}


#: What the words after each `resolve` option name, for shell completion: per word after
#: the option (the last kind repeats).
AFTER = {
    "move": ("area", "area", "unit"),
    "muster": ("area=",),
    "promote": ("area",),
    "retreat": ("area",),
    "winner": ("house",),
    "card": ("player=",),
    "remove": ("space",),
    "discard": ("player=",),
}
LEADING = ("player", "house", "space")


def next_kind(words: list[str]) -> str | None:
    """The kind of name the next word of `resolve PLAYER HOUSE SPACE [--option WORDS…]…`
    is (`player`, `house`, `space`, `area`, `unit`; `area=` and `player=` start a pair),
    given the words before it: what shell completion offers there. None: nothing to offer."""
    option, after = None, 0
    for word in words:
        if word.startswith("--"):
            option, after = word[2:].partition("=")[0].removeprefix("then-"), 0
        else:
            after += 1
    if option is None:
        return LEADING[after] if after < len(LEADING) else None
    kinds = AFTER.get(option)
    if not kinds:
        return None
    return kinds[min(after, len(kinds) - 1)]
