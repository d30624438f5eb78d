"""The authorization unit's own Python an approval, in process, on PostgreSQL: what one
`authorize_card` (every channel's unit, here the sandbox's request) costs the service's CPU
without a listener or HTTP in the way, so a change of the unit shows even on a loaded
machine (CPU time, not a rate: docs/performance.md, "The event written with its data").

A migrated database of its own, 16 funded cards of one account; `--warm` authorizations
unmeasured, then `--units` one after another; prints the process's CPU µs and the wall µs
an approval, the answers and the load average. To compare a change with its parent, run it
from two checkouts in turn (`PYTHONPATH=<checkout>/src:<checkout>`; an older checkout gets
a copy of this file).

With `--iso`, the network process's path instead, 16 cards over 16 accounts: each 0100's
frame decoded and answered by the listener's own `Connection._answer` (the answer deadline,
the host's participant, the lanes' unit, the answer encoded and written to a stub writer),
without the socket.

With `--fixed`, a unit's fixed part alone: units of one request each through the lanes
(`network.batches`), under an answer deadline as the listener sets, whose work is one
`SELECT 1` (the events written, as an authorization's) — `BEGIN`, the statement, `COMMIT`
and every layer between the request and its connection, without the request's own work.

    python -m bench.authorization_cpu --units 400
    python -m bench.authorization_cpu --units 400 --iso
    python -m bench.authorization_cpu --units 2000 --fixed
"""

from __future__ import annotations

import argparse
import asyncio
import os
import time
import uuid
from collections import Counter
from typing import Any

import orjson

from bench.iso import _NUMBERS, ADMIN_DSN, KEY, _setup
from cardservice import runtime
from cardservice.acquirer import messages
from cardservice.acquirer.client import transmitted_now
from cardservice.acquirer.simulator import make_cards
from cardservice.config import Settings
from cardservice.infra.outbound import Outbound
from cardservice.network.codec import RESPONSES, decode, encode
from cardservice.network.host import Host
from cardservice.network.listener import Bounds, Connection
from cardservice.security import CardCipher
from cardservice.transactions import authorize_card
from cardservice.transactions.authorize import authorization_of
from tests.fresh_database import create_migrated_database, drop_database

_USER = "SELECT user_uuid FROM cards WHERE uuid = $1"


def _figures(units: int, cpu: float, wall: float, **more: Any) -> dict[str, Any]:
    """A run's figures: CPU and wall µs an approval (a unit with `--fixed`), what the mode
    adds (`more`), the load average."""
    return {
        "units": units, **more, "python_cpu_us_each": round(cpu / units * 1e6),
        "wall_us_each": round(wall / units * 1e6), "load_average": os.getloadavg(),
    }  # fmt: skip


async def measure(units: int, warm: int) -> dict[str, Any]:
    url = await create_migrated_database(ADMIN_DSN, "cs_bench_unit")
    try:
        db = runtime.database(Settings(database_url=url, encryption_key=KEY))
        cipher, http = CardCipher([KEY.encode()]), Outbound()
        try:
            _account, cards = await make_cards(db, cipher, 16)
            card = uuid.UUID(cards[0].uuid)
            user = uuid.UUID(str(await db.reader.value(_USER, card)))

            async def one(i: int) -> str:
                request = authorization_of(
                    uuid.UUID(cards[i % 16].uuid), 100, "USD", "Shop", {}, "sandbox"
                )
                row = await authorize_card(db, http, cipher, user, request, allow_private=True)
                return str(row["status"])

            for i in range(warm):
                await one(i)
            cpu, wall = time.process_time(), time.perf_counter()
            answers = Counter([await one(i) for i in range(units)])
            cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        finally:
            await db.dispose()
            await http.aclose()
    finally:
        await drop_database(ADMIN_DSN, url)
    return _figures(units, cpu, wall, answers=dict(answers))


class _Writer:
    """The listener's writer, without a socket: keeps the answers (read once measured)."""

    def __init__(self) -> None:
        self.sent: list[bytes] = []

    def write(self, data: bytes) -> None:
        self.sent.append(data)

    def codes(self) -> dict[str, int]:
        """Each answer's field 39, counted."""
        return dict(Counter(decode(d[2:], RESPONSES).fields.get(39, "") for d in self.sent))

    def is_closing(self) -> bool:
        return False

    @property
    def transport(self) -> _Writer:  # the listener asks its transport whether to drain
        return self

    def get_write_buffer_size(self) -> int:
        return 0

    async def drain(self) -> None:
        pass

    def get_extra_info(self, _name: str) -> Any:
        return ("127.0.0.1", 0)


async def measure_iso(units: int, warm: int) -> dict[str, Any]:
    url = await create_migrated_database(ADMIN_DSN, "cs_bench_unit")
    try:
        _tokens, cards = await _setup(url, 16)
        settings = Settings(database_url=url, encryption_key=KEY)
        db, http = runtime.database(settings), Outbound()
        try:
            host = Host(db, CardCipher([KEY.encode()]), http, True)
            await host.warm()
            writer = _Writer()
            connection = Connection(host, None, writer, Bounds.of(settings))  # type: ignore[arg-type]

            def frames(count: int) -> list[bytes]:
                return [
                    encode("0100", messages.authorization(
                        cards[i % 16].pan, cards[i % 16].expiry, 100, next(_NUMBERS),
                        transmitted_now(),
                    ))
                    for i in range(count)
                ]  # fmt: skip

            for frame in frames(warm):
                await connection._answer(decode(frame))
            measured = frames(units)
            cpu, wall = time.process_time(), time.perf_counter()
            for frame in measured:
                await connection._answer(decode(frame))
            cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        finally:
            await db.dispose()
            await http.aclose()
    finally:
        await drop_database(ADMIN_DSN, url)
    return _figures(units, cpu, wall, iso=True, answers=writer.codes())


async def measure_fixed(units: int, warm: int) -> dict[str, Any]:
    from cardservice.db import deadlines
    from cardservice.network.batches import Batches

    url = await create_migrated_database(ADMIN_DSN, "cs_bench_unit")
    try:
        db = runtime.database(Settings(database_url=url, encryption_key=KEY))
        lanes, group = Batches(), uuid.uuid4()

        async def work(tx: Any) -> int:
            tx.events_written = True  # as an authorization's unit: no outbox read at COMMIT
            return int(await tx.value("SELECT 1"))

        async def one() -> int:
            deadline = deadlines.Deadline(5.0)
            deadline.watch(lambda: None)
            try:
                with deadlines.within(deadline):
                    return await lanes.transact(db, group, work)
            finally:
                deadline.stop()

        try:
            for _ in range(warm):
                await one()
            cpu, wall = time.process_time(), time.perf_counter()
            for _ in range(units):
                await one()
            cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        finally:
            await db.dispose()
    finally:
        await drop_database(ADMIN_DSN, url)
    return _figures(units, cpu, wall, fixed=True)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--units", type=int, default=400)
    parser.add_argument("--warm", type=int, default=100)
    parser.add_argument("--iso", action="store_true", help="the ISO 8583 listener's path")
    parser.add_argument("--fixed", action="store_true", help="a unit's fixed part alone")
    arguments = parser.parse_args()
    run = measure_fixed if arguments.fixed else measure_iso if arguments.iso else measure
    print(orjson.dumps(asyncio.run(run(arguments.units, arguments.warm))).decode())
