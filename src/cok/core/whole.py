"""A file replaced whole: written beside itself under a name of its own, then renamed over the
old one, so that a reader, a crash or a full disk finds the old file or the new, never half of
one (a symlink at the path is replaced, never written through)."""

from __future__ import annotations

import os
import re
from pathlib import Path

#: The name the new text is written under first: `.index.html.4242-1.tmp` (a process and a
#: thread of its own, so that two writers never share one); the older `.index.html.4242.tmp`
#: is matched too, for what a build killed before this name left behind.
TEMPORARY = re.compile(r"\.(?P<name>.+)\.\d+(?:-\d+)?\.tmp")


def replace_whole(path: Path, data: bytes | str, *, sync: bool = True, mode: int | None = None) -> None:
    """Put `data` at `path` whole. `sync`: on the disk before the rename (the user's files, a
    seed); a cache, which is only ever rebuilt, skips it. `mode`: the new file's permissions,
    exactly (0600 for a secret, the old mode for a file the user keeps); else the usual ones.
    An OSError is the caller's to word: nothing is left beside the file."""
    import threading  # here, not at the top: a warm `cok standings` loads no threading (test_startup)

    temporary = path.with_name(f".{path.name}.{os.getpid()}-{threading.get_ident()}.tmp")
    try:
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600 if mode is not None else 0o666)
        with os.fdopen(fd, "wb") as handle:
            if mode is not None:
                os.chmod(temporary, mode)
            handle.write(data.encode("utf-8") if isinstance(data, str) else data)
            if sync:
                handle.flush()
                os.fsync(handle.fileno())
        os.replace(temporary, path)
    finally:
        temporary.unlink(missing_ok=True)
