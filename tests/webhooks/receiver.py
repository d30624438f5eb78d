"""A real HTTP receiver on loopback for webhook tests: a tiny asyncio server that records
every request (headers, body, arrival instant) and answers as told (`answer(n)` → a status,
or None to hang until the connection is closed)."""

from __future__ import annotations

import asyncio
import random
import socket
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime

from cardservice.models.base import utcnow

PORTS = range(18400, 18500)  # this worktree's port range


@dataclass
class Received:
    headers: dict[str, str]
    body: bytes
    at: datetime  # utcnow(), the clock the service plans its retries by


@dataclass
class Receiver:
    answer: Callable[[int], int | None] = lambda _n: 200
    received: list[Received] = field(default_factory=list)
    port: int = 0
    _server: asyncio.Server | None = None
    _writers: list[asyncio.StreamWriter] = field(default_factory=list)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/hook"

    async def start(self) -> None:
        for port in random.sample(PORTS, len(PORTS)):  # parallel runs rarely collide
            try:
                self._server = await asyncio.start_server(self._serve, "127.0.0.1", port)
            except OSError:
                continue
            self.port = port
            return
        raise RuntimeError("no free port in 18400-18499")

    async def close(self) -> None:
        if self._server is not None:
            self._server.close()
            for writer in self._writers:
                writer.close()
            await self._server.wait_closed()

    def ids(self) -> list[str]:
        return [r.headers["webhook-id"] for r in self.received]

    async def wait_for(self, count: int, seconds: float = 30) -> None:
        """Until `count` requests have arrived (fails after `seconds`)."""
        async with asyncio.timeout(seconds):
            while len(self.received) < count:  # noqa: ASYNC110 - polling a plain list
                await asyncio.sleep(0.05)

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self._writers.append(writer)
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                lines = head.decode("latin-1").split("\r\n")
                headers = {
                    k.strip().lower(): v.strip()
                    for k, _, v in (line.partition(":") for line in lines[1:] if line)
                }
                body = await reader.readexactly(int(headers.get("content-length", "0")))
                self.received.append(Received(headers, body, utcnow()))
                status = self.answer(len(self.received))
                if status is None:
                    await asyncio.sleep(3600)
                writer.write(f"HTTP/1.1 {status} X\r\ncontent-length: 0\r\n\r\n".encode("latin-1"))
                await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError, asyncio.CancelledError):
            pass
        finally:
            writer.close()


def free_port() -> int:
    """A free port of this worktree's range (for a server started in a subprocess)."""
    for port in random.sample(PORTS, len(PORTS)):  # parallel runs rarely collide
        with socket.socket() as sock:
            try:
                sock.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise RuntimeError("no free port in 18400-18499")
