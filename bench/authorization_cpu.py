"""The authorization unit's own Python an approval, in process, on PostgreSQL: what one
`authorize_card` (every channel's unit, here the sandbox's request) costs the service's CPU
without a listener or HTTP in the way, so a change of the unit shows even on a loaded
machine (CPU time, not a rate: docs/performance.md, "The event written with its data").

A migrated database of its own, 16 funded cards of one account; `--warm` authorizations
unmeasured, then `--units` one after another; prints the process's CPU µs and the wall µs
an approval, the answers and the load average. To compare a change with its parent, run it
from two checkouts in turn (`PYTHONPATH=<checkout>/src:<checkout>`; an older checkout gets
a copy of this file).

    python -m bench.authorization_cpu --units 400
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

from bench.iso import ADMIN_DSN, KEY
from cardservice import runtime
from cardservice.acquirer.simulator import make_cards
from cardservice.config import Settings
from cardservice.infra.outbound import Outbound
from cardservice.security import CardCipher
from cardservice.transactions import authorize_card
from cardservice.transactions.authorize import authorization_of
from tests.fresh_database import create_migrated_database, drop_database

_USER = "SELECT user_uuid FROM cards WHERE uuid = $1"


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
    return {
        "units": units, "python_cpu_us_each": round(cpu / units * 1e6),
        "wall_us_each": round(wall / units * 1e6), "answers": dict(answers),
        "load_average": os.getloadavg(),
    }  # fmt: skip


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--units", type=int, default=400)
    parser.add_argument("--warm", type=int, default=100)
    arguments = parser.parse_args()
    print(orjson.dumps(asyncio.run(measure(arguments.units, arguments.warm))).decode())
