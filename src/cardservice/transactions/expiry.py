"""Hold expiry (docs/transactions.md#holds-captures-increments-expiry): a pending purchase not
captured by its `hold_expires_at` (its tag category's `hold_days` after the authorization) is
released by the service itself, as `reverse` does (`holds.void`, `expired`: amount and fee
back; after partial captures, the rest of the hold back and the purchase completed at what was
captured), with its `transaction.updated` event.

Exactly once, with any number of sweepers (`cardservice worker`, the loop inside every
`serve`, `cardservice simulate expire-holds`): each unit claims due holds by locking their
*accounts* — the first lock of the global order (docs/ledger.md) — with `SKIP LOCKED` on
PostgreSQL, so sweepers take disjoint accounts and never wait on a busy one; then it locks
each card and transaction row in order and checks again, under those locks, that the hold is
still pending and due (a capture or a reversal may have committed since the claim). SQLite
has one writer at a time: the writer's turn is the lock. A unit may release holds of several
users: it takes them by user, then account (so the users' counter rows, which the trigger
locks, are met in one order by every sweeper).
"""

from __future__ import annotations

import uuid
from datetime import datetime

from cardservice.db.database import Database
from cardservice.db.sql import Tx, as_datetime, as_uuid
from cardservice.infra.background import Job
from cardservice.models.base import utcnow
from cardservice.transactions import holds, locks

BATCH = 100  # holds released per unit


async def expire_due_holds(tx: Tx, now: datetime, batch: int = BATCH) -> list[uuid.UUID]:
    """Release up to `batch` holds due at `now` in this unit; the purchases released."""
    released: list[uuid.UUID] = []
    for row in await locks.claim_due_holds(tx, now, batch):
        purchase_uuid, user_uuid = as_uuid(row["uuid"]), as_uuid(row["user_uuid"])
        assert purchase_uuid is not None and user_uuid is not None
        purchase, _card_status = await locks.lock_purchase(tx, user_uuid, purchase_uuid)
        expires = as_datetime(purchase["hold_expires_at"])
        if purchase.status != "pending" or expires is None or expires > now:
            continue  # captured or reversed between the claim and the lock
        await holds.void(tx, purchase, "expired", now)
        released.append(purchase_uuid)
    return released


async def sweep_expired_holds(db: Database, now: datetime, batch: int = BATCH) -> int:
    """Release every hold due at `now`, a unit per batch; how many this sweeper released."""
    total = 0
    while True:
        released = await db.transact(lambda tx: expire_due_holds(tx, now, batch))
        total += len(released)
        if len(released) < batch:
            return total


async def _sweep_now(db: Database) -> int:
    return await sweep_expired_holds(db, utcnow())


HOLD_SWEEP_JOB = Job("hold_sweep", lambda settings: settings.hold_sweep_seconds, _sweep_now)
"""Sweep the due holds every `CARDSERVICE_HOLD_SWEEP_SECONDS`: a job of the background loop
(infra/background.py; `cardservice.runtime` lists it)."""
