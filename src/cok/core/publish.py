"""Writing what cok makes for people to read — the site, the map picture — only where it
should: never over a campaign's files or a file cok did not make (unless forced), never
through a symlink out of the folder asked for, and each file atomically, so that a full disk
leaves the old file rather than an empty one."""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from cok.core.errors import Problem, Refused, display_path
from cok.core.folders import EVENTS_FILE, SETTINGS_FILE
from cok.core.whole import TEMPORARY, replace_whole

#: The first line of a cok site's record of the files it wrote.
MANIFEST = ".cok-site"
MANIFEST_HEAD = "# the files cok site wrote here; cok rewrites only these\n"

#: The comment every file of a site carries: the proof that cok made it, which the record
#: alone is not (a cloned folder may ship a record naming any file). Only a file holding it
#: is ever removed as stale.
SITE_MARK = "made by cok site: cok may rewrite or remove this file"
_COMMENTS = {".html": ("<!-- ", " -->"), ".htm": ("<!-- ", " -->"), ".svg": ("<!-- ", " -->")}
_COMMENTS |= {".xml": ("<!-- ", " -->"), ".css": ("/* ", " */"), ".js": ("/* ", " */")}
#: What must stay first in a file: a comment before a doctype puts a page in quirks mode.
_FIRST = re.compile(r"\s*(<!doctype[^>]*>|<\?xml[^>]*\?>|@charset[^;]*;)", re.IGNORECASE)


def write_atomically(path: Path, text: str) -> None:
    """The page replaced whole (`core.whole`), or a refusal naming it."""
    try:
        replace_whole(path, text)
    except OSError as error:
        raise Refused(Problem(display_path(path), None, f"cannot write: {error.strerror or error}")) from None


#: The comment that marks an SVG picture as cok's, so that drawing it again may replace it.
SVG_MARK = "<!-- drawn by cok: cok map may draw over this file -->"


@dataclass(frozen=True)
class Own:
    """A campaign's own files, by what they are, found by their resolved paths and by their
    inodes (a hard link or another spelling of the path is the same file)."""

    by_path: dict[Path, str]
    by_inode: dict[tuple[int, int], str]


def campaign_files(folder: Path, map_file: Path) -> Own:
    """A campaign's own files: its settings, log and map, the schemas `cok init` wrote for
    them, the log's lock and journal. Nothing cok draws ever replaces or removes one,
    `--force` or not."""
    from cok.core.append import journal_path, lock_path
    from cok.core.schemas import KINDS, SCHEMA_DIR

    events = folder / EVENTS_FILE
    files = {folder / SETTINGS_FILE: "settings", events: "event log", map_file: "map"}
    files |= {folder / SCHEMA_DIR / f"{kind}.schema.json": f"{kind} schema" for kind in KINDS}
    files |= {lock_path(events): "lock file", journal_path(events): "journal"}
    by_inode = {}
    for file, what in files.items():
        found = _inode(file)
        if found is not None:
            by_inode[found] = what
    return Own({_resolved(file): what for file, what in files.items()}, by_inode)


def campaigns_own(path: Path, own: Own | None) -> str | None:
    """What of the campaign's the file is (`the campaign's event log`), through any symlink
    or other spelling of its path; any campaign's settings, log and YAML files count too."""
    if own is not None:
        found = own.by_path.get(_resolved(path))
        inode = None if found is not None else _inode(path)
        found = found if inode is None else own.by_inode.get(inode)
        if found is not None:
            return f"the campaign's {found}"
    if path.name in (SETTINGS_FILE, EVENTS_FILE) or (
        path.suffix in (".yaml", ".yml") and (path.parent / SETTINGS_FILE).is_file()
    ):
        return "a campaign's file"
    return None


def _resolved(path: Path) -> Path:
    try:
        return path.resolve()
    except (OSError, RuntimeError):  # a loop of symlinks
        return path.absolute()


def _inode(path: Path) -> tuple[int, int] | None:
    try:
        info = path.stat()
    except (OSError, RuntimeError):
        return None
    return (info.st_dev, info.st_ino)


def write_svg(path: Path, svg: str, *, force: bool, own: Own | None = None) -> None:
    """Write an SVG picture to the file the user named. An existing file is replaced only
    when cok drew it or with `force`; a campaign's own files (`own`, see `campaign_files`)
    never, forced or not."""
    declaration, _, rest = svg.partition("\n")
    marked = f"{declaration}\n{SVG_MARK}\n{rest}" if declaration.startswith("<?xml") else f"{SVG_MARK}\n{svg}"
    what = campaigns_own(path, own)
    if what is not None:
        raise Refused(
            Problem(display_path(path), None, f"this is {what}, which cok never draws over; choose another file")
        )
    if not force:
        problem = _why_not(path, SVG_MARK)
        if problem:
            raise Refused(Problem(display_path(path), None, f"{problem}; choose another file, or give --force"))
    write_atomically(path, marked)


def _why_not(path: Path, made_by_cok: str) -> str | None:
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


def site_marked(relative: str, text: str) -> str:
    """The page's text with cok's mark as a comment (after a doctype, an XML declaration or
    a `@charset`, which must stay first); a kind of file without comments is left as it is,
    and so is never removed as stale."""
    comment = _COMMENTS.get(PurePosixPath(relative).suffix.lower())
    if comment is None:
        return text
    mark = f"{comment[0]}{SITE_MARK}{comment[1]}\n"
    first = _FIRST.match(text)
    if first is None:
        return mark + text
    return f"{text[: first.end()]}\n{mark}{text[first.end() :].removeprefix(chr(10))}"


@dataclass(frozen=True)
class Written:
    """What `write_site` did: the files it wrote, and those it left as they were (the same
    text was there already)."""

    written: list[Path]
    unchanged: list[Path]


def write_site(out: Path, pages: Iterable[tuple[str, str]], *, force: bool = False, own: Own | None = None) -> Written:
    """Write the pages (relative path, text), as they come, into `out`, and the record of
    what was written. A page whose file already holds that very text is not written again
    (a rebuild after one new event rewrites the pages it changed). A non-empty folder that
    is not a cok site is refused (unless forced); a symlink inside `out` on the way to a
    page is refused, and so is a page that would be one of the campaign's files (`own`);
    pages of an earlier build no longer made are removed (see `_remove_stale`)."""
    shown = display_path(out)
    if out.exists() and not out.is_dir():
        raise Refused(Problem(shown, None, "this is a file, not a folder for the site"))
    before = _manifest(out)
    if before is None and out.is_dir() and any(out.iterdir()) and not force:
        raise Refused(
            Problem(shown, None, "this folder is not empty and holds no cok site: choose an empty folder, or --force")
        )
    ours = set(before or ())
    done = Written([], [])
    made: list[str] = []
    for relative, page in pages:
        made.append(relative)
        target = out / relative
        _no_symlink_between(out, target.parent, shown)
        what = campaigns_own(target, own)
        if what is not None:
            raise Refused(Problem(shown, None, f"{relative} would be {what}: choose another folder for the site"))
        text = site_marked(relative, page)
        if relative in ours and _holds(target, text):
            done.unchanged.append(target)
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        write_atomically(target, text)
        done.written.append(target)
    for stale in sorted(ours - set(made)):
        if campaigns_own(out / stale, own) is None:
            _remove_stale(out, stale)
    manifest = MANIFEST_HEAD + "".join(f"{r}\n" for r in sorted(made))
    if not _holds(out / MANIFEST, manifest):
        write_atomically(out / MANIFEST, manifest)
    _remove_leftovers(out, {MANIFEST, *made, *ours})
    return done


def _remove_stale(out: Path, relative: str) -> None:
    """Remove a file an earlier build made and this one does not: only a regular file (never
    a symlink, nor anything through a symlinked folder) that holds cok's mark, and never a
    hidden one (cok writes none: `.git/config`, the record itself)."""
    path = out / relative
    if any(part.startswith(".") for part in PurePosixPath(relative).parts) or _symlink_on_the_way(out, path.parent):
        return
    if _made_by_cok(path):
        path.unlink()


def _made_by_cok(path: Path) -> bool:
    """Whether the file is a regular file (not a symlink) whose first 4 KiB hold cok's mark."""
    try:
        if not stat.S_ISREG(path.lstat().st_mode):
            return False
        with open(path, "rb") as handle:
            return SITE_MARK.encode() in handle.read(4096)
    except OSError:
        return False


def _remove_leftovers(out: Path, names: set[str]) -> None:
    """Remove the temporary files a killed build left beside the site's files (the pattern
    `core.whole` writes, `.index.html.4242-1.tmp`, for a file the site has or had): they
    would be published with it. A user's file of another name is never touched."""
    folders: dict[Path, set[str]] = {}
    for relative in names:
        parts = PurePosixPath(relative)
        folders.setdefault(out.joinpath(*parts.parent.parts), set()).add(parts.name)
    for folder, files in folders.items():
        if _symlink_on_the_way(out, folder):
            continue
        try:
            entries = list(os.scandir(folder))
        except OSError:
            continue
        for entry in entries:
            left = TEMPORARY.fullmatch(entry.name)
            if left and left["name"] in files and entry.is_file(follow_symlinks=False):
                Path(entry.path).unlink(missing_ok=True)


def _holds(path: Path, text: str) -> bool:
    """Whether the file (not a symlink) holds exactly this text."""
    try:
        if path.is_symlink() or not path.is_file():
            return False
        return path.read_bytes() == text.encode("utf-8")
    except OSError:
        return False


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
    link = _symlink_on_the_way(out, folder)
    if link is not None:
        raise Refused(Problem(shown, None, f"{link.relative_to(out)} is a symlink; cok writes only inside {shown}"))


def _symlink_on_the_way(out: Path, folder: Path) -> Path | None:
    """The first folder from `out` down to `folder` that is a symlink, if any."""
    here = out
    for part in folder.relative_to(out).parts:
        here = here / part
        if here.is_symlink():
            return here
    return None
