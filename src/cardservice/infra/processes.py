"""The processes `serve` starts (its HTTP workers with `--workers N`, its network processes)
end when the server that started them is gone, even killed: nothing else would stop them, and
an HTTP worker left behind goes on answering on the server's port, which a new server then
cannot bind (seen with `serve --workers 2` SIGKILLed: its network processes ended, its two
HTTP workers served on)."""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import signal
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager


async def until_orphaned(parent: int | None, stop: asyncio.Event) -> None:
    """Sets `stop` once the process `parent` that started this one is gone, even killed (this
    one is then another's child); looked at once a second. `parent` None: never."""
    while parent is not None and os.getppid() == parent:  # noqa: ASYNC110 - no event for it
        await asyncio.sleep(1)
    if parent is not None:
        stop.set()


@asynccontextmanager
async def terminated_when_orphaned() -> AsyncIterator[None]:
    """In a process started by multiprocessing (uvicorn's HTTP workers of `serve --workers
    N`): SIGTERM to itself once its parent is gone, so that it stops as it does when the
    server stops it. Elsewhere (the server's own process, one worker, a test) nothing."""
    parent = multiprocessing.parent_process()
    if parent is None:
        yield
        return
    orphaned = asyncio.Event()

    async def terminate() -> None:
        await until_orphaned(parent.pid, orphaned)
        os.kill(os.getpid(), signal.SIGTERM)

    watch = asyncio.create_task(terminate())
    try:
        yield
    finally:
        watch.cancel()
