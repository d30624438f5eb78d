"""Every statement of the ledger's chain, day totals and balances at an instant (the writes
of `post_entry` itself stay in `ledger.entries`, the hot path)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime
from typing import Any

from cardservice.db.sql import Reader, Row, Tx, in_list

# --- the chain (ledger.chain.seal) --------------------------------------------------------

_ENTRY_COLUMNS = (
    "e.id, e.kind, e.reference, e.created_at,"
    " p.account_uuid, p.card_uuid, p.system_book, p.currency, p.amount"
)
_UNIT_ENTRIES = (
    f"SELECT {_ENTRY_COLUMNS} FROM journal_entries e JOIN postings p ON p.entry_id = e.id"  # noqa: S608
    " WHERE e.id IN "
)
_UNIT_ENTRIES_PG = (
    f"SELECT {_ENTRY_COLUMNS} FROM journal_entries e JOIN postings p ON p.entry_id = e.id"  # noqa: S608
    " WHERE e.id = ANY(CAST($1 AS bigint[])) ORDER BY e.id, p.id"
)


async def unit_entries(tx: Tx, ids: Sequence[int]) -> Sequence[Row]:
    """The unit's entries that still exist, with their postings, by entry then posting."""
    if tx.dialect == "postgresql":
        return await tx.rows(_UNIT_ENTRIES_PG, list(ids))
    return await tx.rows(_UNIT_ENTRIES + in_list(len(ids)) + " ORDER BY e.id, p.id", *ids)


# Bump the head by the unit's count. The upsert waits for the unit holding the row, then
# works on the row as that unit committed it; the row stays locked until this unit commits.
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


# --- verify and export (ledger.verify) ----------------------------------------------------

_CHAIN_BATCH = f"""
SELECT e.chain_seq, e.hash, {_ENTRY_COLUMNS}
FROM journal_entries e JOIN postings p ON p.entry_id = e.id
WHERE e.chain_seq > $1 AND e.chain_seq <= $2 ORDER BY e.chain_seq, p.id"""  # noqa: S608


async def chain_batch(reader: Reader, after: int, until: int) -> Sequence[Row]:
    """Entries with `after < chain_seq <= until` and their postings, in chain order."""
    return await reader.scan(_CHAIN_BATCH, after, until)


_HEAD = "SELECT seq, hash FROM ledger_chain_head WHERE id = 1"
_LAST_SEQ = "SELECT coalesce(max(chain_seq), 0) FROM journal_entries"
_UNCHAINED = "SELECT min(id) FROM journal_entries WHERE chain_seq IS NULL"
_ORPHANS = (
    "SELECT min(p.entry_id) FROM postings p"
    " LEFT JOIN journal_entries e ON e.id = p.entry_id WHERE e.id IS NULL"
)
_LAST_UNTIL = "SELECT coalesce(max(chain_seq), 0) FROM journal_entries WHERE created_at <= $1"


async def head(reader: Reader) -> tuple[int, str] | None:
    row = await reader.row(_HEAD)
    return None if row is None else (int(row["seq"]), str(row["hash"]))


async def last_seq(reader: Reader) -> int:
    return int(await reader.value(_LAST_SEQ))


async def last_seq_until(reader: Reader, until: datetime) -> int:
    """The chain's last place holding an entry created at or before `until`."""
    return int(await reader.value(_LAST_UNTIL, until))


async def unchained(reader: Reader) -> int | None:
    """The first entry that carries no place in the chain (written around the service)."""
    value = await reader.value(_UNCHAINED)
    return None if value is None else int(value)


async def orphan_postings(reader: Reader) -> int | None:
    """The entry id of the first posting whose entry is gone."""
    value = await reader.value(_ORPHANS)
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


async def balance_mismatches(reader: Reader) -> Sequence[Row]:
    """Accounts and cards whose cached balance differs from the sum of their postings."""
    return await reader.scan(_BALANCE_MISMATCHES)


_STORED_DAYS = (
    "SELECT day, holder_class, kind, currency, amount, postings FROM ledger_day_totals"
    " WHERE amount <> 0 OR postings <> 0"
)


async def stored_day_totals(reader: Reader) -> Sequence[Row]:
    return await reader.scan(_STORED_DAYS)


_STORED_HOLDER_DAYS = (
    "SELECT holder, day, currency, amount FROM ledger_holder_days WHERE amount <> 0"
)


async def stored_holder_days(reader: Reader) -> Sequence[Row]:
    return await reader.scan(_STORED_HOLDER_DAYS)


# --- balances at an instant (ledger.books) ------------------------------------------------

# A holder at an instant: its day totals before the instant's day, plus its postings of
# that day up to the instant. The day's entries are taken first (by `created_at`); the
# holder's postings among them are read from its (holder, entry_id, amount) index within
# the range of those entries' ids, so the work is bounded by one day, not the history.
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
                   AND p.entry_id IN (SELECT id FROM d)), 0)"""


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
# day up to the instant (entries found by `ix_journal_entries_created_at`).
_CLASSES_AS_OF = """
SELECT holder_class, currency, sum(amount) AS amount FROM (
    SELECT holder_class, currency, amount FROM ledger_day_totals WHERE day < $1
    UNION ALL
    SELECT CASE WHEN p.account_uuid IS NOT NULL THEN 'account'
                WHEN p.card_uuid IS NOT NULL THEN 'card' ELSE p.system_book END,
           p.currency, p.amount
    FROM journal_entries e JOIN postings p ON p.entry_id = e.id
    WHERE e.created_at >= $2 AND e.created_at <= $3
) t GROUP BY holder_class, currency"""


async def class_totals_as_of(
    reader: Reader, day: date, day_start: datetime, as_of: datetime
) -> Sequence[Row]:
    """(holder_class, currency, amount) of every posting up to `as_of`."""
    return await reader.rows(_CLASSES_AS_OF, day, day_start, as_of)


_DAY_CLASS = """
SELECT kind, currency, amount, postings FROM ledger_day_totals
WHERE day = $1 AND holder_class = $2"""


async def day_class_totals(reader: Reader, day: date, holder_class: str) -> Sequence[Row]:
    """(kind, currency, amount, postings) of one class's postings on one UTC day."""
    return await reader.rows(_DAY_CLASS, day, holder_class)
