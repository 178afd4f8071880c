"""Sync work sent off the event loop, one way: every call to the campaign may wait on its lock
(a recording holds it; a page is made under it), so a route hands it to the thread pool and
the loop goes on serving the other phones meanwhile."""

from __future__ import annotations

from collections.abc import Callable
from typing import ParamSpec, TypeVar

from starlette.concurrency import run_in_threadpool

P = ParamSpec("P")
T = TypeVar("T")


async def in_thread(work: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> T:
    """`work(*args, **kwargs)` run in Starlette's thread pool: no lambda to wrap it in."""
    return await run_in_threadpool(work, *args, **kwargs)
