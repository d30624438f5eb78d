"""An acquirer's side of the channel: one connection, many requests in flight, answers
matched by key (32, 11, 7). The simulator, the tests and the bench speak through it."""

from __future__ import annotations

import asyncio
import ssl
from collections import defaultdict, deque
from collections.abc import Iterator
from contextlib import suppress
from datetime import UTC, datetime
from itertools import count

from cardservice.network.codec import RESPONSES, Message, Unreadable, decode, encode
from cardservice.network.listener import framed, read_frame

MatchKey = tuple[str, str, str]


def transmitted_now() -> str:
    """Field 7 for now: MMDDhhmmss, UTC."""
    return datetime.now(UTC).strftime("%m%d%H%M%S")


def stans(start: int = 1) -> Iterator[str]:
    """STANs 000001…999999, then round again."""
    for number in count(start):
        yield f"{(number - 1) % 999_999 + 1:06d}"


def match_key(fields: dict[int, str]) -> MatchKey:
    return fields.get(32, "").lstrip("0"), fields[11].rjust(6, "0"), fields[7]


def _expire(future: asyncio.Future[Message]) -> None:
    if not future.done():
        future.set_exception(TimeoutError())


class NetworkClient:
    """`request` sends a message and waits for its answer; several may wait at once."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer
        # a key's waiters, oldest first (a repeat waits beside its first)
        self.waiting: dict[MatchKey, deque[asyncio.Future[Message]]] = defaultdict(deque)
        self.reading = asyncio.create_task(self._read())

    @classmethod
    async def connect(
        cls, host: str, port: int, tls: ssl.SSLContext | None = None, source: str | None = None
    ) -> NetworkClient:
        """A connection to `host:port`, from the local address `source` when given."""
        local = None if source is None else (source, 0)
        reader, writer = await asyncio.open_connection(host, port, ssl=tls, local_addr=local)
        return cls(reader, writer)

    async def _read(self) -> None:
        try:
            while (frame := await read_frame(self.reader)) is not None:
                message = decode(frame, RESPONSES)
                waiters = self.waiting.get(match_key(message.fields))
                if waiters:
                    future = waiters.popleft()
                    if not future.done():
                        future.set_result(message)
        except (ConnectionError, ssl.SSLError, OSError, Unreadable):
            pass
        finally:
            for waiters in self.waiting.values():
                for future in waiters:
                    if not future.done():
                        future.set_exception(ConnectionResetError("the host closed the line"))
            self.waiting.clear()

    def send_raw(self, payload: bytes) -> None:
        """Bytes as they are, framed (a test's unreadable message)."""
        self.writer.write(framed(payload))

    async def request(self, mti: str, fields: dict[int, str], wait: float = 5.0) -> Message:
        """Send and wait for the answer with the same key (`TimeoutError` after `wait` s).
        The wait is a timer that fails the answer's future, and the writer is drained only
        when the socket did not take the whole message or the connection is closing (what
        `drain` would have waited for or raised): a load's every request paid a timeout's
        context manager and a drain's coroutine for neither
        (docs/performance.md#a-units-fixed-python)."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Message] = loop.create_future()
        key = match_key(fields)
        self.waiting[key].append(future)
        self.writer.write(framed(encode(mti, fields)))
        transport = self.writer.transport
        if transport.is_closing() or transport.get_write_buffer_size():
            await self.writer.drain()
        timer = loop.call_later(wait, _expire, future)
        try:
            return await future
        finally:
            timer.cancel()
            waiters = self.waiting.get(key)
            if waiters and future in waiters:
                waiters.remove(future)

    @property
    def closed(self) -> bool:
        return self.reading.done()

    async def close(self) -> None:
        self.writer.close()
        self.reading.cancel()
        with suppress(ConnectionError, ssl.SSLError, OSError):
            await self.writer.wait_closed()
