"""A personal link as a QR code (issue 38: 72 characters no player types): drawn at a terminal
in half blocks, as an SVG the organiser's page shows inline, and as a PNG or SVG file to print.
Drawn from segno's module matrix, so nothing depends on one release's renderers."""

from __future__ import annotations

import functools
from pathlib import Path

import segno
from jinja2 import Environment

BORDER = 4  # the quiet zone the QR standard asks for, in modules


def _matrix(text: str) -> list[list[bool]]:
    code = segno.make(text, error="m", micro=False)
    rows = [[bool(m) for m in row] for row in code.matrix]
    width = len(rows[0]) + 2 * BORDER
    blank = [[False] * width for _ in range(BORDER)]
    return blank + [[False] * BORDER + r + [False] * BORDER for r in rows] + [list(b) for b in blank]


def terminal(text: str) -> str:
    """The code in Unicode half blocks, two rows of modules a line, light modules drawn (read
    on a dark terminal, as `qrencode -t UTF8` draws them); the printed picture is for paper."""
    rows = _matrix(text)
    if len(rows) % 2:
        rows.append([False] * len(rows[0]))
    glyph = {(False, False): "█", (False, True): "▀", (True, False): "▄", (True, True): " "}
    return "\n".join(
        "".join(glyph[(a, b)] for a, b in zip(top, bottom, strict=True))
        for top, bottom in zip(rows[::2], rows[1::2], strict=True)
    )


def svg(text: str, scale: int = 8) -> str:
    """The code as an SVG document: dark modules on white, sharp at any size."""
    rows = _matrix(text)
    size = len(rows) * scale
    path = "".join(
        f"M{x * scale} {y * scale}h{scale}v{scale}h-{scale}z"
        for y, row in enumerate(rows)
        for x, dark in enumerate(row)
        if dark
    )
    return _templates().get_template("qr.svg").render(size=size, path=path)


@functools.cache
def _templates() -> Environment:
    """The server's own templates (`qr.svg`), made once."""
    from cok.render import markup

    return markup.environment(["cok.serve"])


def write(text: str, path: Path) -> None:
    """The code as a picture to print: PNG or SVG by the file's suffix, readable by this user only
    (it signs a phone in)."""
    import os

    if path.suffix.lower() not in (".png", ".svg"):
        raise ValueError(f"{path.name}: a picture is a .png or an .svg")
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as handle:
        if path.suffix.lower() == ".svg":
            handle.write(svg(text).encode())
        else:
            segno.make(text, error="m", micro=False).save(handle, kind="png", scale=10, border=BORDER)
