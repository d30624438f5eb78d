"""The channel (jPOS's): TCP, optionally mutual TLS, every message preceded by its length
as 2 bytes big-endian; many requests in flight per connection, each answered when ready.

One listener per network process (`network/process.py`), all bound to the same port with
SO_REUSEPORT: the kernel spreads connections over them, and each answers with its own pool.
An unreadable frame or an unknown MTI is logged (no PAN) and closes its connection only.

Every connection is bounded (docs/network.md, "Bounds": `Bounds`, each a setting and
counted on `/metrics`): only an address of the allow-list (`peers`) is served and at most
`max_connections_per_peer` of one address in a network process, which holds at most
`max_connections` (`Admission`; one more is closed on arrival); a connection whose first
message is not complete `frame_seconds` after it opened is closed, and so is one with no
complete message for `idle_seconds`, or whose message's bytes have not all arrived
`frame_seconds` after its length; at most `in_flight` of a connection's requests are worked
on at once — then the connection is not read until one is done, so nothing is dropped and a
peer that pipelines faster than it is answered waits in TCP.

Every request is answered within `answer_seconds` (docs/network.md#the-network-interface-iso-8583,
docs/operations.md#the-fleet-on-one-machine: `91` when the database is unreachable): its work runs
in its request's task under the deadline (`db/deadlines.py`), and when the deadline passes first
its timer answers `91` while the work goes on to its end — a unit is never cut in the middle
(its COMMIT may be waiting for the synchronous standby of a leader just promoted). A unit not
yet committing stops at its next statement (`db/deadlines.py`); an approval that commits after
it releases itself (`authorizations.py`): `91` says nothing was recorded; a decline that commits
late stays, with its key (it moved no money but its decline fee, as any decline; a repeat gets
it). An advice, a reversal or a repeat answered `91` is sent again by the network, and its
repeat gets the answer of the unit that went on. A decision endpoint's wait (up to 2 s) moves
the deadline by as much.
"""

from __future__ import annotations

import asyncio
import functools
import ipaddress
import logging
import ssl
import time
from collections import Counter
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, suppress
from dataclasses import dataclass

from cardservice.config import Network, Settings
from cardservice.db import deadlines
from cardservice.db.database import Database
from cardservice.db.deadlines import Deadline
from cardservice.infra.outbound import Outbound
from cardservice.network import (
    advices,
    authorizations,
    management,
    metrics,
    reversals,
    token_notices,
)
from cardservice.network.codec import Message, Unreadable, decode, encode
from cardservice.network.host import Host, Participant, answer
from cardservice.network.responses import DATABASE_UNREACHABLE, response
from cardservice.security import CardCipher

log = logging.getLogger("cardservice.network")
# how loud a refused connection is: an address off the allow-list or a full process is an
# operator's matter; a peer over its own cap is that peer's (counted on /metrics all the same)
REFUSALS = {"peer": logging.WARNING, "max_connections": logging.WARNING, "per_peer": logging.INFO}

WARM_SECONDS = 10.0  # the longest the listener waits for its pool's warm-up (`Host.warm`)
PARTICIPANTS: dict[str, Participant] = {
    "0100": authorizations.authorization,
    "0101": authorizations.authorization,
    "0120": authorizations.stand_in_advice,
    "0121": authorizations.stand_in_advice,
    "0220": advices.financial_advice,
    "0221": advices.financial_advice,
    "0400": reversals.reversal,
    "0401": reversals.reversal,
    "0420": reversals.reversal,
    "0421": reversals.reversal,
    "0620": token_notices.token_notice,
    "0621": token_notices.token_notice,
    "0800": management.network_management,
}


@dataclass(frozen=True, slots=True)
class Bounds:
    """A connection's bounds (the `CARDSERVICE_ISO8583_*` settings); None: unbounded."""

    max_connections: int | None = None
    max_connections_per_peer: int | None = None
    idle_seconds: float | None = None
    frame_seconds: float | None = None
    in_flight: int | None = None
    answer_seconds: float | None = None

    @classmethod
    def of(cls, settings: Settings) -> Bounds:
        return cls(
            settings.iso8583_max_connections,
            settings.iso8583_max_connections_per_peer,
            settings.iso8583_idle_seconds,
            settings.iso8583_frame_seconds,
            settings.iso8583_in_flight,
            settings.iso8583_answer_seconds,
        )


UNBOUNDED = Bounds()
Address = ipaddress.IPv4Address | ipaddress.IPv6Address


def peer_address(writer: asyncio.StreamWriter) -> Address | None:
    """The connection's remote address (an IPv4 address an IPv6 socket maps, as IPv4); None
    when the peer is already gone."""
    peername = writer.get_extra_info("peername")
    if not peername:
        return None
    address = ipaddress.ip_address(peername[0])
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return address


class Admission:
    """Which connections this network process serves: those from an address of `peers`,
    at most `max_connections_per_peer` from one address and `max_connections` in all."""

    def __init__(self, peers: list[Network], bounds: Bounds) -> None:
        self.peers, self.bounds = peers, bounds
        self.open: Counter[Address] = Counter()

    def refusal(self, address: Address) -> str | None:
        """The bound (`metrics.BOUNDS`) a new connection from `address` breaks; None: it is
        served, and counted until `release`."""
        if not any(address in network for network in self.peers):
            return "peer"
        per_peer, most = self.bounds.max_connections_per_peer, self.bounds.max_connections
        if per_peer is not None and self.open[address] >= per_peer:
            return "per_peer"
        if most is not None and self.open.total() >= most:
            return "max_connections"
        self.open[address] += 1
        return None

    def release(self, address: Address) -> None:
        self.open[address] -= 1
        if not self.open[address]:
            del self.open[address]


class OutOfBounds(Exception):
    """A connection that broke a bound (`metrics.BOUNDS`): closed."""

    def __init__(self, bound: str) -> None:
        super().__init__(bound)
        self.bound = bound


async def read_frame(reader: asyncio.StreamReader, bounds: Bounds = UNBOUNDED) -> bytes | None:
    """The next message's bytes; None at the end of the stream. `OutOfBounds` when no
    length arrives within `idle_seconds`, or its bytes not within `frame_seconds` after it."""
    try:
        async with asyncio.timeout(bounds.idle_seconds):
            head = await reader.readexactly(2)
    except asyncio.IncompleteReadError:
        return None
    except TimeoutError:
        raise OutOfBounds("idle") from None
    size = int.from_bytes(head, "big")
    if size == 0:
        raise Unreadable("empty frame")
    try:
        async with asyncio.timeout(bounds.frame_seconds):
            return await reader.readexactly(size)
    except asyncio.IncompleteReadError:
        raise Unreadable("frame cut short") from None
    except TimeoutError:
        raise OutOfBounds("frame") from None


def framed(payload: bytes) -> bytes:
    return len(payload).to_bytes(2, "big") + payload


def tls_context(settings: Settings) -> ssl.SSLContext | None:
    """Server TLS when a certificate is configured; mutual when a client CA is too."""
    if settings.iso8583_tls_cert is None:
        return None
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    context.load_cert_chain(settings.iso8583_tls_cert, settings.iso8583_tls_key)
    if settings.iso8583_tls_client_ca is not None:
        context.load_verify_locations(settings.iso8583_tls_client_ca)
        context.verify_mode = ssl.CERT_REQUIRED
    return context


class Connection:
    """One peer: reads frames, answers each in a task of its own (at most `in_flight` at
    once, each within `answer_seconds`), writes answers as they come (a client matches them
    by key)."""

    def __init__(
        self,
        host: Host,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        bounds: Bounds,
    ) -> None:
        self.host, self.reader, self.writer, self.bounds = host, reader, writer, bounds
        self.pending: set[asyncio.Task[None]] = set()
        self.slots = asyncio.Semaphore(bounds.in_flight or 2**31)
        self.peer = str(writer.get_extra_info("peername"))

    async def serve(self) -> None:
        try:
            message = await self._first()
            while message is not None:
                task = asyncio.create_task(self._answer(message))
                self.pending.add(task)
                task.add_done_callback(self._done)
                message = await self._next()
            if self.pending:  # the peer stopped sending: its answers still leave
                await asyncio.wait(set(self.pending))
        except Unreadable as exc:
            metrics.count_unreadable()
            log.warning("ISO 8583 connection from %s closed: %s", self.peer, exc)
        except OutOfBounds as exc:
            metrics.count_closed(exc.bound)
            log.info("ISO 8583 connection from %s closed: %s bound", self.peer, exc.bound)
        except (ConnectionError, ssl.SSLError) as exc:
            log.info("ISO 8583 connection from %s lost: %s", self.peer, type(exc).__name__)
        finally:
            self.writer.close()

    def _done(self, task: asyncio.Task[None]) -> None:
        self.pending.discard(task)
        self.slots.release()

    async def _first(self) -> Message | None:
        """The first request, complete within `frame_seconds` of the connection's opening
        (else `OutOfBounds`: a connection that says nothing holds no place for long)."""
        try:
            async with asyncio.timeout(self.bounds.frame_seconds):
                return await self._next()
        except TimeoutError:
            raise OutOfBounds("first_frame") from None

    async def _next(self) -> Message | None:
        """The next request, once a slot is free (until then the connection is not read)."""
        if self.slots.locked():
            metrics.count_in_flight_full()
        await self.slots.acquire()
        try:
            frame = await read_frame(self.reader, self.bounds)
            message = None if frame is None else decode(frame)
        except BaseException:
            self.slots.release()
            raise
        if message is None:
            self.slots.release()
        return message

    async def _answer(self, message: Message) -> None:
        """Answer `message` within the deadline; its slot is held until its work has ended.
        The work runs in this task; past the deadline the deadline's timer answers `91`
        (`_late`) while the work goes on to its end."""
        started = time.perf_counter()
        if self.bounds.answer_seconds is None:
            mti, fields = await answer(self.host, message, PARTICIPANTS)
        else:
            deadline = Deadline(self.bounds.answer_seconds)
            deadline.watch(functools.partial(self._late, message, started))
            try:
                with deadlines.within(deadline):
                    mti, fields = await answer(self.host, message, PARTICIPANTS)
            finally:
                in_time = deadline.stop()
            if not in_time:  # answered `91` already
                _log_late(message, fields.get(39))
                await self._drained()
                return
        self._send(message.mti, mti, fields, started)
        await self._drained()

    def _late(self, message: Message, started: float) -> None:
        """The answer deadline passed: `91` now (drained when the work ends)."""
        mti, fields = response(message, {"39": DATABASE_UNREACHABLE})
        metrics.count_late(message.mti)
        self._send(message.mti, mti, fields, started)

    def _send(self, request_mti: str, mti: str, fields: dict[int, str], started: float) -> None:
        metrics.record_answer(request_mti, fields.get(39, ""), time.perf_counter() - started)
        if not self.writer.is_closing():  # else the money moved (or not) all the same
            self.writer.write(framed(encode(mti, fields)))

    async def _drained(self) -> None:
        """Wait while the peer reads slower than it is answered: only when the socket did not
        take every answer at once (`drain` returns at once otherwise; skipped, it costs an
        answer nothing: docs/performance.md#a-units-fixed-python)."""
        transport = self.writer.transport
        if not transport.is_closing() and transport.get_write_buffer_size():
            with suppress(ConnectionError):
                await self.writer.drain()


def _log_late(message: Message, late: str | None) -> None:
    """What became of a request answered `91` at its deadline (no PAN: the key and the MTI)."""
    log.warning(
        "ISO 8583 %s key %s/%s/%s answered 91 at its deadline; its work ended with %s",
        message.mti, message.fields.get(32), message.fields.get(11), message.fields.get(7), late,
    )  # fmt: skip


@asynccontextmanager
async def running_listener(
    settings: Settings, db: Database, cipher: CardCipher, http: Outbound
) -> AsyncIterator[asyncio.Server]:
    """The ISO 8583 listener of this process, on `CARDSERVICE_ISO8583_HOST:PORT`, with the
    zone PIN key loaded into the key backend first."""
    assert settings.iso8583_port is not None
    if settings.iso8583_zpk:  # into the token now (docs/cards.md#pin-keys)
        cipher.load_zone_pin_key()
    host = Host(db, cipher, http, settings.private_urls_allowed)
    with suppress(TimeoutError):  # a database slow to come is the first request's to find
        await asyncio.wait_for(host.warm(), WARM_SECONDS)
    bounds, tls = Bounds.of(settings), tls_context(settings)
    admission = Admission(settings.iso8583_peer_networks, bounds)
    connections: set[asyncio.Task[None]] = set()

    async def accept(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        address = peer_address(writer)
        if address is None:  # reset before it was accepted
            writer.close()
            return
        refused = admission.refusal(address)
        if refused is not None:
            metrics.count_closed(refused)
            log.log(REFUSALS[refused], "ISO 8583 connection from %s refused: %s bound (%s open)",
                    address, refused, len(connections))  # fmt: skip
            writer.close()
            return
        task = asyncio.current_task()
        assert task is not None
        connections.add(task)
        metrics.connection_opened()
        try:
            await Connection(host, reader, writer, bounds).serve()
        except asyncio.CancelledError:
            writer.close()  # the listener stops: asyncio's callback must not see it raise
        finally:
            connections.discard(task)
            admission.release(address)
            metrics.connection_ended()

    server = await asyncio.start_server(
        accept,
        settings.iso8583_host,
        settings.iso8583_port,
        ssl=tls,
        ssl_handshake_timeout=None if tls is None else bounds.frame_seconds,
        reuse_port=True,
    )
    log.info("ISO 8583 listener on %s:%s", settings.iso8583_host, settings.iso8583_port)
    try:
        yield server
    finally:
        server.close()
        for task in list(connections):
            task.cancel()
        await server.wait_closed()
