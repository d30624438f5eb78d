"""Every statement of the ledger's chain, day totals and balances at an instant (the writes
of `post_entry` itself stay in `ledger.entries`, the hot path)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime
from typing import Any

from cardservice.db.sql import Reader, Row, Tx, as_datetime, take_turn

# --- the chain (ledger.chain.seal_batch) --------------------------------------------------

SEALER_LOCK = 15_002  # pg_advisory_xact_lock key: one sealer at a time (events' is 15_001)

_ENTRY_COLUMNS = (
    "e.id, e.kind, e.reference, e.created_at,"
    " p.account_uuid, p.card_uuid, p.system_book, p.currency, p.amount"
)
# `ORDER BY id` in the inner select: `ix_journal_entries_unsealed` is then the plan, as the
# events' sequencer reads `ix_events_unsequenced` (events/repository.py)
_UNSEALED_ENTRIES = f"""
SELECT {_ENTRY_COLUMNS}
FROM (SELECT id FROM journal_entries WHERE chain_seq IS NULL ORDER BY id LIMIT $1) u
JOIN journal_entries e ON e.id = u.id JOIN postings p ON p.entry_id = e.id
ORDER BY e.id, p.id"""  # noqa: S608


async def take_sealer(tx: Tx, wait: bool) -> bool:
    """The sealer's turn until the unit ends: PostgreSQL's advisory lock, waited for or
    tried (False: another sealer has it); SQLite's writer's turn is one already."""
    return await take_turn(tx, SEALER_LOCK, wait=wait)


_ANY_UNSEALED = "SELECT 1 FROM journal_entries WHERE chain_seq IS NULL ORDER BY id LIMIT 1"


async def any_unsealed(reader: Reader) -> bool:
    """Whether a committed entry waits for its seal (`ix_journal_entries_unsealed`)."""
    return await reader.value(_ANY_UNSEALED) is not None


async def unsealed_entries(tx: Tx, limit: int) -> Sequence[Row]:
    """Up to `limit` committed entries without a place, in id order, with their postings
    (by entry, then posting)."""
    return await tx.rows(_UNSEALED_ENTRIES, limit)


# Bump the head by the batch's count (the sealer's turn is held: nobody else writes it).
_TAKE_HEAD = """
INSERT INTO ledger_chain_head (id, seq, hash) VALUES (1, $1, $2)
ON CONFLICT (id) DO UPDATE SET seq = ledger_chain_head.seq + $1 RETURNING seq, hash"""


async def take_head(tx: Tx, count: int, genesis: str) -> tuple[int, str]:
    """Lock the chain head for `count` new entries: the last seq and hash before them
    (`genesis` for the first entries of the database)."""
    row = await tx.row(_TAKE_HEAD, count, genesis)
    assert row is not None
    return int(row["seq"]) - count, str(row["hash"])


_WRITE_CHAIN_PG = """
WITH chained AS (
    UPDATE journal_entries SET chain_seq = v.seq, hash = v.hash
    FROM unnest(CAST($1 AS bigint[]), CAST($2 AS bigint[]), CAST($3 AS text[]))
         AS v(id, seq, hash)
    WHERE journal_entries.id = v.id RETURNING 1
), days AS (
    INSERT INTO ledger_day_totals (day, holder_class, kind, currency, amount, postings)
    SELECT * FROM unnest(CAST($4 AS date[]), CAST($5 AS text[]), CAST($6 AS text[]),
                         CAST($7 AS text[]), CAST($8 AS bigint[]), CAST($9 AS bigint[]))
    ON CONFLICT (day, holder_class, kind, currency) DO UPDATE
    SET amount = ledger_day_totals.amount + EXCLUDED.amount,
        postings = ledger_day_totals.postings + EXCLUDED.postings
    RETURNING 1
), holders AS (
    INSERT INTO ledger_holder_days (holder, day, currency, amount)
    SELECT * FROM unnest(CAST($12 AS text[]), CAST($13 AS date[]), CAST($14 AS text[]),
                         CAST($15 AS bigint[]))
    ON CONFLICT (holder, day, currency) DO UPDATE
    SET amount = ledger_holder_days.amount + EXCLUDED.amount
    RETURNING 1
)
UPDATE ledger_chain_head SET hash = $10
WHERE id = 1 AND seq = $11"""
_SET_HASH = "UPDATE journal_entries SET chain_seq = $2, hash = $3 WHERE id = $1"
_ADD_DAY = """
INSERT INTO ledger_day_totals (day, holder_class, kind, currency, amount, postings)
VALUES ($1, $2, $3, $4, $5, $6)
ON CONFLICT (day, holder_class, kind, currency) DO UPDATE
SET amount = ledger_day_totals.amount + excluded.amount,
    postings = ledger_day_totals.postings + excluded.postings"""
_ADD_HOLDER_DAY = """
INSERT INTO ledger_holder_days (holder, day, currency, amount) VALUES ($1, $2, $3, $4)
ON CONFLICT (holder, day, currency) DO UPDATE
SET amount = ledger_holder_days.amount + excluded.amount"""
_SET_HEAD = "UPDATE ledger_chain_head SET hash = $1 WHERE id = 1 AND seq = $2"

DayTotals = dict[tuple[date, str, str, str], tuple[int, int]]
HolderDays = dict[tuple[str, date, str], int]


async def write_chain(
    tx: Tx,
    ids: Sequence[int],
    seqs: Sequence[int],
    hashes: Sequence[str],
    totals: DayTotals,
    holders: HolderDays,
    head_seq: int,
    head_hash: str,
) -> None:
    """Write the entries' places and hashes, add their day totals (per class and per
    holder), set the head's hash."""
    if tx.dialect == "postgresql":
        keys, holder_keys = list(totals), list(holders)
        await tx.execute(
            _WRITE_CHAIN_PG,
            list(ids),
            list(seqs),
            list(hashes),
            [k[0] for k in keys],
            [k[1] for k in keys],
            [k[2] for k in keys],
            [k[3] for k in keys],
            [totals[k][0] for k in keys],
            [totals[k][1] for k in keys],
            head_hash,
            head_seq,
            [k[0] for k in holder_keys],
            [k[1] for k in holder_keys],
            [k[2] for k in holder_keys],
            [holders[k] for k in holder_keys],
        )
        return
    for entry_id, seq, digest in zip(ids, seqs, hashes, strict=True):
        await tx.execute(_SET_HASH, entry_id, seq, digest)
    for key, (amount, count) in totals.items():
        await tx.execute(_ADD_DAY, *key, amount, count)
    for (holder, day, currency), amount in holders.items():
        await tx.execute(_ADD_HOLDER_DAY, holder, day, currency, amount)
    await tx.execute(_SET_HEAD, head_hash, head_seq)


# --- verify and export (ledger.verify), in the sealer's turn ------------------------------

_CHAIN_BATCH = f"""
SELECT e.chain_seq, e.hash, {_ENTRY_COLUMNS}
FROM journal_entries e JOIN postings p ON p.entry_id = e.id
WHERE e.chain_seq > $1 AND e.chain_seq <= $2 ORDER BY e.chain_seq, p.id"""  # noqa: S608


async def chain_batch(reader: Reader | Tx, after: int, until: int) -> Sequence[Row]:
    """Entries with `after < chain_seq <= until` and their postings, in chain order."""
    return await reader.rows(_CHAIN_BATCH, after, until)


_HEAD = "SELECT seq, hash FROM ledger_chain_head WHERE id = 1"
_LAST_SEQ = "SELECT coalesce(max(chain_seq), 0) FROM journal_entries"
_UNSEALED = (
    "SELECT count(*) AS waiting, min(created_at) AS oldest FROM journal_entries"
    " WHERE chain_seq IS NULL"
)
_UNSEALED_UNTIL = "SELECT 1 FROM journal_entries WHERE chain_seq IS NULL AND created_at <= $1"
_ORPHANS = (
    "SELECT min(p.entry_id) FROM postings p"
    " LEFT JOIN journal_entries e ON e.id = p.entry_id WHERE e.id IS NULL"
)
_LAST_UNTIL = "SELECT coalesce(max(chain_seq), 0) FROM journal_entries WHERE created_at <= $1"


async def head(tx: Tx) -> tuple[int, str] | None:
    row = await tx.row(_HEAD)
    return None if row is None else (int(row["seq"]), str(row["hash"]))


async def last_seq(tx: Tx) -> int:
    return int(await tx.value(_LAST_SEQ))


async def last_seq_until(tx: Tx, until: datetime) -> int:
    """The chain's last place holding an entry created at or before `until`."""
    return int(await tx.value(_LAST_UNTIL, until))


async def unsealed(reader: Reader | Tx) -> tuple[int, datetime | None]:
    """How many committed entries wait for their seal, and the oldest one's `created_at`."""
    row = await reader.row(_UNSEALED)
    assert row is not None
    return int(row["waiting"]), as_datetime(row["oldest"])


async def any_unsealed_until(tx: Tx, until: datetime) -> bool:
    """Whether a committed entry created at or before `until` waits for its seal."""
    return await tx.value(_UNSEALED_UNTIL, until) is not None


async def orphan_postings(tx: Tx) -> int | None:
    """The entry id of the first posting whose entry is gone."""
    value = await tx.value(_ORPHANS)
    return None if value is None else int(value)


_BALANCE_MISMATCHES = """
SELECT 'account' AS holder, a.uuid, a.balance, coalesce(s.total, 0) AS total
FROM accounts a LEFT JOIN (
    SELECT account_uuid, sum(amount) AS total FROM postings
    WHERE account_uuid IS NOT NULL GROUP BY account_uuid
) s ON s.account_uuid = a.uuid
WHERE a.balance <> coalesce(s.total, 0)
UNION ALL
SELECT 'card' AS holder, c.uuid, c.balance, coalesce(s.total, 0) AS total
FROM cards c LEFT JOIN (
    SELECT card_uuid, sum(amount) AS total FROM postings
    WHERE card_uuid IS NOT NULL GROUP BY card_uuid
) s ON s.card_uuid = c.uuid
WHERE c.balance <> coalesce(s.total, 0)"""


async def balance_mismatches(tx: Tx) -> Sequence[Row]:
    """Accounts and cards whose cached balance differs from the sum of their postings."""
    return await tx.rows(_BALANCE_MISMATCHES)


_STORED_DAYS = (
    "SELECT day, holder_class, kind, currency, amount, postings FROM ledger_day_totals"
    " WHERE amount <> 0 OR postings <> 0"
)


async def stored_day_totals(tx: Tx) -> Sequence[Row]:
    return await tx.rows(_STORED_DAYS)


_STORED_HOLDER_DAYS = (
    "SELECT holder, day, currency, amount FROM ledger_holder_days WHERE amount <> 0"
)


async def stored_holder_days(tx: Tx) -> Sequence[Row]:
    return await tx.rows(_STORED_HOLDER_DAYS)


# --- balances at an instant (ledger.books) ------------------------------------------------

# Every report below reads the day totals, which hold the sealed entries, and in the same
# statement (one snapshot: an entry the sealer moves into the totals meanwhile is counted
# once) the unsealed tail: the postings of the committed entries still waiting for the
# sealer (`ix_journal_entries_unsealed`; a few, the seal lag's worth). So a report is exact
# as of its statement, whether the sealer has run or not.

# A posting's holder class in the day totals: `account`, `card` or its book.
_CLASS_OF = (
    "CASE WHEN p.account_uuid IS NOT NULL THEN 'account'"
    " WHEN p.card_uuid IS NOT NULL THEN 'card' ELSE p.system_book END"
)

# A holder at an instant: its day totals before the instant's day, plus its postings of
# that day up to the instant, plus its unsealed postings before that day. The day's entries
# are taken first (by `created_at`); the holder's postings among them are read from its
# (holder, entry_id, amount) index within the range of those entries' ids, so the work is
# bounded by one day, not the history.
_HOLDER_AS_OF = """
WITH d AS MATERIALIZED (
    SELECT id FROM journal_entries WHERE created_at >= $3 AND created_at <= $4
)
SELECT coalesce((SELECT sum(amount) FROM ledger_holder_days
                 WHERE holder = $1 AND day < $2), 0)
     + coalesce((SELECT sum(p.amount) FROM postings p
                 WHERE p.{column} = $5
                   AND p.entry_id >= (SELECT min(id) FROM d)
                   AND p.entry_id <= (SELECT max(id) FROM d)
                   AND p.entry_id IN (SELECT id FROM d)), 0)
     + coalesce((SELECT sum(p.amount) FROM journal_entries u
                 JOIN postings p ON p.entry_id = u.id
                 WHERE u.chain_seq IS NULL AND u.created_at < $3 AND p.{column} = $5), 0)"""


async def holder_balance_as_of(
    reader: Reader,
    column: str,
    holder: str,
    key: Any,
    day: date,
    day_start: datetime,
    as_of: datetime,
) -> int:
    """One account's or card's balance at `as_of` (`holder` its name in the day totals,
    `key` its uuid)."""
    assert column in ("account_uuid", "card_uuid")
    sql = _HOLDER_AS_OF.format(column=column)
    return int(await reader.value(sql, holder, day, day_start, as_of, key))


# Classes at an instant: the day totals of the days before its day, plus the postings of its
# day up to the instant (entries found by `ix_journal_entries_created_at`), plus the
# unsealed postings before its day.
_CLASSES_AS_OF = f"""
SELECT holder_class, currency, sum(amount) AS amount FROM (
    SELECT holder_class, currency, amount FROM ledger_day_totals WHERE day < $1
    UNION ALL
    SELECT {_CLASS_OF}, p.currency, p.amount
    FROM journal_entries e JOIN postings p ON p.entry_id = e.id
    WHERE e.created_at >= $2 AND e.created_at <= $3
    UNION ALL
    SELECT {_CLASS_OF}, p.currency, p.amount
    FROM journal_entries e JOIN postings p ON p.entry_id = e.id
    WHERE e.chain_seq IS NULL AND e.created_at < $2
) t GROUP BY holder_class, currency"""  # noqa: S608


async def class_totals_as_of(
    reader: Reader, day: date, day_start: datetime, as_of: datetime
) -> Sequence[Row]:
    """(holder_class, currency, amount) of every posting up to `as_of`."""
    return await reader.rows(_CLASSES_AS_OF, day, day_start, as_of)


# One class's day: its day totals, plus the unsealed postings of that day ($3 ≤ created_at
# < $4), a row per kind and currency each.
_DAY_CLASS = f"""
SELECT kind, currency, amount, postings FROM ledger_day_totals
WHERE day = $1 AND holder_class = $2
UNION ALL
SELECT e.kind, p.currency, sum(p.amount), count(*)
FROM journal_entries e JOIN postings p ON p.entry_id = e.id
WHERE e.chain_seq IS NULL AND e.created_at >= $3 AND e.created_at < $4
  AND {_CLASS_OF} = $2
GROUP BY e.kind, p.currency"""  # noqa: S608


async def day_class_totals(
    reader: Reader, day: date, holder_class: str, day_start: datetime, day_end: datetime
) -> Sequence[Row]:
    """(kind, currency, amount, postings) of one class's postings on one UTC day (from
    `day_start` to before `day_end`); a kind and currency may come in two rows."""
    return await reader.rows(_DAY_CLASS, day, holder_class, day_start, day_end)
