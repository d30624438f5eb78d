"""The network's own processes (docs/network.md#isolation-from-other-work: authorizations are never
held up by other work).

`cardservice serve --iso8583-port` answers ISO 8583 in processes of their own, beside the
HTTP workers: a statement PDF, a CSV export, a deep report page or a receipt image runs on an
HTTP worker's event loop, never on the loop that answers the network, and the kernel shares
the cores between them (docs/network.md, "Isolation": both ways measured, this one kept).
`--workers N` starts N of them, every one bound to the port with SO_REUSEPORT, each with its
own pool, card cipher and outbound client. They listen before the HTTP workers start, one
that dies is started again, and they stop with the server (or when their parent dies).
"""

from __future__ import annotations

import asyncio
import gc
import logging
import multiprocessing
import signal
import threading
import time
from contextlib import suppress
from multiprocessing.connection import Connection, wait
from multiprocessing.context import SpawnProcess
from types import TracebackType

import uvloop

from cardservice import runtime
from cardservice.config import Settings
from cardservice.infra.processes import until_orphaned
from cardservice.network.listener import running_listener
from cardservice.observability import metrics
from cardservice.observability.logs import configure_logging

log = logging.getLogger("cardservice.network")

START_SECONDS = 300  # a loaded 2-core machine starts a Python process slowly
STOP_SECONDS = 10


class NetworkNotStarted(RuntimeError):
    """A network process did not listen within `START_SECONDS`."""


def serve_network(ready: Connection) -> None:
    """A network process: the listener on `CARDSERVICE_ISO8583_PORT` until SIGTERM, or until
    the process that started it is gone. SIGINT is the parent's to act on (a terminal's
    Ctrl-C reaches the whole group; the parent then stops this one)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    settings = Settings()
    configure_logging(settings.log_level, settings.log_format)
    # uvloop, as the HTTP workers have through uvicorn: 0.921 against 0.991 ms of the server's
    # CPU an approval at 8 connections, 1.598 against 1.823 at one (`bench.iso --scaling
    # --rounds 3 --against` a checkout on the stdlib loop, 2026-11-28, load 1.0-1.3)
    uvloop.run(_serve(settings, ready))


async def _serve(settings: Settings, ready: Connection) -> None:
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    loop.add_signal_handler(signal.SIGTERM, stop.set)
    parent = multiprocessing.parent_process()
    watch = asyncio.create_task(until_orphaned(parent.pid if parent else None, stop))
    parts = runtime.build(settings)  # no background loop here: its jobs run in `serve`'s
    try:
        async with (
            metrics.flushing(parts.db.connections_in_use),
            running_listener(settings, parts.db, parts.cipher, parts.outbound),
        ):
            gc.collect()  # start-up's objects out of the collector's walks (app.py says why)
            gc.freeze()
            with suppress(OSError):  # a parent gone meanwhile: the watch stops this one
                ready.send(True)
            ready.close()
            await stop.wait()
    finally:
        watch.cancel()
        await parts.aclose()


class NetworkProcesses:
    """`count` network processes for the block's duration: each listening before the block
    starts, each started again if it dies, all stopped when the block ends."""

    def __init__(self, count: int) -> None:
        self.count = count
        self.context = multiprocessing.get_context("spawn")  # no copy of the parent's loop
        self.processes: list[SpawnProcess] = []
        self.stopping = threading.Event()
        self.watcher = threading.Thread(target=self._watch, name="network-watch", daemon=True)

    def __enter__(self) -> NetworkProcesses:
        try:
            self._wait_ready([self._spawn() for _ in range(self.count)])  # side by side
        except BaseException:
            self._stop()
            raise
        if self.count:
            self.watcher.start()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self._stop()

    def _spawn(self) -> Connection:
        """A new network process (kept to be stopped even if it never listens); the pipe
        it says on once it listens (a pipe, not a shared lock: a process killed while
        holding one would leave the other waiting for ever)."""
        ready, said = self.context.Pipe(duplex=False)
        process = self.context.Process(
            target=serve_network, args=(said,), name="cardservice-iso8583", daemon=True
        )
        process.start()
        said.close()
        self.processes.append(process)
        return ready

    @staticmethod
    def _wait_ready(pipes: list[Connection]) -> None:
        deadline = time.monotonic() + START_SECONDS
        for ready in pipes:
            try:
                if not ready.poll(max(0.0, deadline - time.monotonic())) or not ready.recv():
                    raise NetworkNotStarted(f"no ISO 8583 listener within {START_SECONDS} s")
            except EOFError:  # it exited before listening
                raise NetworkNotStarted("an ISO 8583 process exited before listening") from None
            finally:
                ready.close()

    def _watch(self) -> None:
        while not self.stopping.is_set():
            wait([process.sentinel for process in self.processes], timeout=1)
            for process in [p for p in self.processes if not p.is_alive()]:
                if self.stopping.is_set():
                    return
                log.error("ISO 8583 process %s exited (%s): starting another",
                          process.pid, process.exitcode)  # fmt: skip
                self.processes.remove(process)
                try:
                    self._wait_ready([self._spawn()])
                except NetworkNotStarted as failed:
                    log.error("%s", failed)

    def _stop(self) -> None:
        self.stopping.set()
        for process in self.processes:
            process.terminate()
        for process in self.processes:
            process.join(STOP_SECONDS)
            if process.is_alive():
                process.kill()
                process.join()
