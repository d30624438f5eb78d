"""A process for test_sealer.py, on the database of `CARDSERVICE_DATABASE_URL`:

* `write N`: N journal entries, one unit each, through `post_entry` (a writer of the service);
* `hold`: one unit that takes the sealer's turn, seals a batch and prints `sealed <n>`, then
  waits, uncommitted, until it is killed (a sealer killed mid-batch).
"""

from __future__ import annotations

import asyncio
import sys

from cardservice import runtime
from cardservice.config import Settings
from cardservice.db.database import Database
from cardservice.db.sql import Tx
from cardservice.ledger.chain import seal_batch
from cardservice.ledger.entries import SystemBook, book_leg, post_entry
from cardservice.ledger.sealer import BATCH

LEGS = [book_leg(SystemBook.FEES, "USD", 3), book_leg(SystemBook.FUNDING, "USD", -3)]


async def _write(db: Database, count: int) -> None:
    async def unit(tx: Tx) -> None:
        await post_entry(tx, "written", LEGS)

    for _ in range(count):
        await db.transact(unit)


async def _hold(db: Database) -> None:
    async def unit(tx: Tx) -> None:
        sealed = await seal_batch(tx, BATCH, wait=True)
        print(f"sealed {sealed}", flush=True)
        await asyncio.Event().wait()  # killed here, before COMMIT

    await db.transact(unit)


async def main(mode: str, *args: str) -> None:
    db = runtime.database(Settings())
    try:
        if mode == "write":
            await _write(db, int(args[0]))
        else:
            await _hold(db)
    finally:
        await db.dispose()


if __name__ == "__main__":
    asyncio.run(main(*sys.argv[1:]))
