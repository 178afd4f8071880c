"""Colours for categories — players, kingdoms, houses — on every game's map: Okabe and Ito's
eight (made to stay apart for colour-blind readers too), black last, then Paul Tol's muted set
for a ninth player and more."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

ORANGE, SKY, GREEN, YELLOW, BLUE, VERMILLION, PURPLE, BLACK = (
    "#e69f00",
    "#56b4e9",
    "#009e73",
    "#f0e442",
    "#0072b2",
    "#d55e00",
    "#cc79a7",
    "#000000",
)
OKABE_ITO = (ORANGE, SKY, GREEN, YELLOW, BLUE, VERMILLION, PURPLE, BLACK)
TOL_MUTED = ("#882255", "#44aa99", "#999933", "#aa4499", "#332288", "#ddcc77", "#117733", "#88ccee", "#cc6677")
CATEGORIES = OKABE_ITO + TOL_MUTED


def assign(
    keys: Iterable[str], wanted: Mapping[str, str] | None = None, palette: tuple[str, ...] = CATEGORIES
) -> dict[str, str]:
    """A colour for each key, in order: the one `wanted` for it while no earlier key took it,
    else the first of the palette nobody has; past the palette's end, around again."""
    wanted = wanted or {}
    taken: set[str] = set()
    out: dict[str, str] = {}
    for n, key in enumerate(keys):
        colour = wanted.get(key)
        if colour is None or colour in taken:
            colour = next((c for c in palette if c not in taken), palette[n % len(palette)])
        taken.add(colour)
        out[key] = colour
    return out


def ink(fill: str) -> str:
    """Black or white, whichever reads better on `fill` (#rrggbb)."""
    red, green, blue = (int(fill[i : i + 2], 16) for i in (1, 3, 5))
    return "#1d1d1d" if 0.299 * red + 0.587 * green + 0.114 * blue > 140 else "#ffffff"


def initials(names: Mapping[str, str]) -> dict[str, str]:
    """A short mark for each key — the first letter of its name, or as many as set it apart
    from the others (at most three) — written on its holdings, so a map is read without colour."""
    out: dict[str, str] = {}
    for key, name in names.items():
        word = "".join(c for c in name if c.isalnum()) or key
        for size in (1, 2, 3):
            mark = word[:size].capitalize()
            others = ("".join(c for c in n if c.isalnum()) or k for k, n in names.items() if k != key)
            if not any(o[:size].capitalize() == mark for o in others):
                break
        out[key] = mark
    return out
