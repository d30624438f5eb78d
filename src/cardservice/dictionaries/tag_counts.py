"""The tag counter: a tag's `transactions_count` kept after commit, so that no unit of a
popular merchant's tag waits for another account's through its COMMIT (docs/ledger.md,
"Counters kept after commit").

A transaction inserted with a tag writes one row into `tag_counts_waiting` (the database's
trigger on the insert of transactions, migrations 20261127_43 and 20261128_01: insert only, no
row shared with another unit). A job of the background loop of `cardservice serve` and
`cardservice worker`, beside the ledger's sealer and as often (`CARDSERVICE_SEAL_SECONDS`),
adds the committed ones to their tags and deletes them in one statement
(`repository.fold_tag_counts`), one counter at a time (PostgreSQL's advisory lock, tried;
SQLite's writer's turn). Each waiting row is added exactly once: the statement adds what it
deletes, and a row committed meanwhile waits for the next run. Reads add what still waits
(`repository.popular_tag_rows`), so the counts are exact as of the read.
"""

from __future__ import annotations

from cardservice.db.database import Database
from cardservice.db.sql import Tx
from cardservice.dictionaries import repository
from cardservice.infra.background import Job


async def fold_waiting(db: Database) -> bool:
    """Add the waiting counts to their tags (nothing is written while none waits); False
    when another tag counter had the turn."""
    if not await repository.any_tag_count_waiting(db.reader):
        return True

    async def fold(tx: Tx) -> bool:
        return await repository.fold_tag_counts(tx, wait=False)

    return await db.transact(fold)


# the tag counter, a job of every background loop beside the sealer (runtime.JOBS)
TAG_COUNT_JOB = Job("tag_counts", lambda settings: settings.seal_seconds, fold_waiting)
