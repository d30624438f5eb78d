"""The 45-day sweep (docs/disputes.md#deadlines): a chargeback or pre-arbitration the other side
did not answer by its deadline is `won`, each in a unit of its own, exactly once whoever else
sweeps (the dispute's row is locked and its status read again). Run by the background loop
(`DISPUTE_SWEEP_JOB`, listed in `cardservice.runtime`) and by `cardservice disputes sweep`."""

from __future__ import annotations

import uuid
from datetime import datetime

from cardservice.db.database import Database
from cardservice.db.sql import Tx
from cardservice.disputes import repository
from cardservice.disputes.network import win_if_unanswered
from cardservice.infra.background import Job
from cardservice.models.base import utcnow


async def sweep_unanswered(db: Database, now: datetime) -> int:
    """Win every dispute unanswered at its deadline as of `now`; how many this sweep won."""
    won = 0
    for found in await repository.due(db.reader, now):
        dispute = found if isinstance(found, uuid.UUID) else uuid.UUID(str(found))

        async def unit(tx: Tx, dispute: uuid.UUID = dispute) -> bool:
            return await win_if_unanswered(tx, dispute, now)

        won += await db.transact(unit)
    return won


async def _sweep_now(db: Database) -> int:
    return await sweep_unanswered(db, utcnow())


DISPUTE_SWEEP_JOB = Job("dispute_sweep", lambda settings: settings.hold_sweep_seconds, _sweep_now)
"""Win the unanswered disputes as often as the hold sweep runs
(`CARDSERVICE_HOLD_SWEEP_SECONDS`)."""
