"""The sealer: chains the committed entries that wait for their seal, after their units
committed, so that no unit of unrelated accounts waits on another through its COMMIT
(docs/ledger.md, "The hash chain").

A job of the background loop of `cardservice serve` and `cardservice worker`
(`infra.background`), every `CARDSERVICE_SEAL_SECONDS` (0.2 s): one batch of up to `BATCH`
entries a unit (`ledger.chain.seal_batch`: the places, the hashes, the day totals and the
head together, or none of them), batch after batch while they come full. One sealer at a
time: on PostgreSQL the sealer's advisory lock, tried (a fleet's other loops skip their
turn); on SQLite the writer's turn. A sealer killed mid-batch leaves its unit rolled back:
the next one seals the same entries. `cardservice ledger verify` and `export` seal what
waits themselves, waiting for the lock (ledger.verify).
"""

from __future__ import annotations

from datetime import datetime

from cardservice.db.database import Database
from cardservice.db.sql import Reader, Tx
from cardservice.infra.background import Job
from cardservice.ledger import repository
from cardservice.ledger.chain import seal_batch
from cardservice.models.base import utcnow

BATCH = 1_000  # entries a unit


async def seal_in_turn(tx: Tx) -> int:
    """In this unit, waiting for the sealer's turn (held then to the unit's end): seal batch
    after batch while they come full (each sees what committed before it, and what the unit
    wrote itself: a bulk loader's entries); how many sealed."""
    sealed = 0
    while (count := await seal_batch(tx, BATCH, wait=True)) is not None:
        sealed += count
        if count < BATCH:
            break
    return sealed


async def seal_waiting(db: Database) -> int:
    """Seal the committed entries that wait, a unit a batch, until a batch comes short or
    another sealer has the turn; how many sealed. Nothing is written while none waits."""
    sealed = 0
    while await repository.any_unsealed(db.reader):

        async def batch(tx: Tx) -> int | None:
            return await seal_batch(tx, BATCH, wait=False)

        count = await db.transact(batch)
        if count is None:  # another sealer's turn: it seals them
            break
        sealed += count
        if count < BATCH:
            break
    return sealed


async def seal_lag(reader: Reader, now: datetime | None = None) -> float:
    """The oldest committed entry waiting for its seal: its age in seconds (0 when none)."""
    _count, oldest = await repository.unsealed(reader)
    if oldest is None:
        return 0.0
    return max(0.0, ((now or utcnow()) - oldest).total_seconds())


SEAL_JOB = Job("ledger_seal", lambda settings: settings.seal_seconds, seal_waiting)
"""The sealer, a job of the background loop (the composition root, `cardservice.runtime`,
lists it)."""
