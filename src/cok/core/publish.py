"""Writing what cok makes for people to read — the site, the map picture — only where it
should: never over a campaign's files or a file cok did not make (unless forced), never
through a symlink out of the folder asked for, and each file atomically, so that a full disk
leaves the old file rather than an empty one."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from cok.core.errors import Problem, Refused, display_path
from cok.core.folders import EVENTS_FILE, SETTINGS_FILE

#: The first line of a cok site's record of the files it wrote.
MANIFEST = ".cok-site"
MANIFEST_HEAD = "# the files cok site wrote here; cok rewrites only these\n"


def write_atomically(path: Path, text: str) -> None:
    """Write a temporary file beside `path`, then rename it over `path` (a symlink at `path`
    is replaced, never written through)."""
    temp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with open(temp, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temp, path)
    except OSError as error:
        temp.unlink(missing_ok=True)
        raise Refused(Problem(display_path(path), None, f"cannot write: {error.strerror or error}")) from None


#: The comment that marks an SVG picture as cok's, so that drawing it again may replace it.
SVG_MARK = "<!-- drawn by cok: cok map may draw over this file -->"


def write_svg(path: Path, svg: str, *, force: bool) -> None:
    """Write an SVG picture to the file the user named. An existing file is replaced only
    when cok drew it or with `force`; a campaign's own files never without it."""
    declaration, _, rest = svg.partition("\n")
    marked = f"{declaration}\n{SVG_MARK}\n{rest}" if declaration.startswith("<?xml") else f"{SVG_MARK}\n{svg}"
    if not force:
        problem = _why_not(path, SVG_MARK)
        if problem:
            raise Refused(Problem(display_path(path), None, f"{problem}; choose another file, or give --force"))
    write_atomically(path, marked)


def _why_not(path: Path, made_by_cok: str) -> str | None:
    if path.name in (SETTINGS_FILE, EVENTS_FILE) or (
        (path.parent / SETTINGS_FILE).is_file() and path.suffix == ".yaml"
    ):
        return "this is a campaign's file, which cok never overwrites"
    if path.is_symlink():
        return "this is a symlink: writing would change the file it points to"
    if path.is_dir():
        return "this is a folder"
    if path.exists():
        try:
            with open(path, encoding="utf-8", errors="replace") as handle:
                head = handle.read(4096)
        except OSError as error:
            return f"it cannot be read ({error.strerror})"
        if made_by_cok not in head:
            return "it exists and cok did not make it"
    return None


def write_site(out: Path, pages: Mapping[str, str], *, force: bool = False) -> list[Path]:
    """Write the pages (relative path → text) into `out`, and the record of what was written.
    A non-empty folder that is not a cok site is refused (unless forced); a symlink inside
    `out` on the way to a page is refused; pages of an earlier build no longer made are removed."""
    shown = display_path(out)
    if out.exists() and not out.is_dir():
        raise Refused(Problem(shown, None, "this is a file, not a folder for the site"))
    before = _manifest(out)
    if before is None and out.is_dir() and any(out.iterdir()) and not force:
        raise Refused(
            Problem(shown, None, "this folder is not empty and holds no cok site: choose an empty folder, or --force")
        )
    written = []
    for relative, text in pages.items():
        target = out / relative
        _no_symlink_between(out, target.parent, shown)
        target.parent.mkdir(parents=True, exist_ok=True)
        write_atomically(target, text)
        written.append(target)
    for stale in sorted(set(before or ()) - set(pages)):
        path = out / stale
        if path.is_file() or path.is_symlink():
            path.unlink()
    write_atomically(out / MANIFEST, MANIFEST_HEAD + "".join(f"{r}\n" for r in sorted(pages)))
    return written


def _manifest(out: Path) -> list[str] | None:
    """The files a previous `cok site` wrote into `out`; None when it is not a cok site."""
    try:
        text = (out / MANIFEST).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    if not text.startswith(MANIFEST_HEAD):
        return None
    names = [line for line in text.splitlines()[1:] if line]
    safe = [n for n in names if not Path(n).is_absolute() and ".." not in Path(n).parts]
    return safe


def _no_symlink_between(out: Path, folder: Path, shown: str) -> None:
    """Refuse a page whose folder below `out` is a symlink (it would lead out of `out`)."""
    here = out
    for part in folder.relative_to(out).parts:
        here = here / part
        if here.is_symlink():
            raise Refused(Problem(shown, None, f"{here.relative_to(out)} is a symlink; cok writes only inside {shown}"))
