"""Every statement of the clearing channel: files, their records, the authorization a
presentment names."""

from __future__ import annotations

import uuid
from collections.abc import Collection, Sequence
from datetime import date, datetime
from typing import Any

from cardservice.db.paging import Offset, paginate
from cardservice.db.sql import Reader, Row, Tx, as_uuid, in_list, insert_sql, row_args
from cardservice.models import ClearingOutgoing, ClearingRecord
from cardservice.models.base import table_of

_RECORDS = table_of(ClearingRecord).name
STAGED_COLUMNS = (
    "file_uuid", "message_number", "kind", "fingerprint", "amount", "currency", "approval_code",
    "arn", "merchant_name", "merchant_city", "merchant_country", "merchant_id", "mcc",
)  # fmt: skip
FILE_COLUMNS = "uuid, file_id, sha256, status, messages, ignored, report, received_at"

_FILE_BY_ID = f"SELECT {FILE_COLUMNS} FROM clearing_files WHERE file_id = $1"  # noqa: S608
_FILE = f"SELECT {FILE_COLUMNS} FROM clearing_files WHERE uuid = $1"  # noqa: S608
_CLAIM = (
    "INSERT INTO clearing_files (uuid, file_id, sha256, status, messages, ignored, received_at)"
    " VALUES ($1, $2, $3, 'staging', 0, 0, $4)"
)
_FORGET_RECORDS = "DELETE FROM clearing_records WHERE file_uuid = $1"
_FORGET_FILE = "DELETE FROM clearing_files WHERE uuid = $1 AND status = 'staging'"
_STAGED = (
    "UPDATE clearing_files SET status = 'booking', messages = $2, ignored = $3"
    " WHERE uuid = $1 AND status = 'staging'"
)
_BOOKED = (
    "UPDATE clearing_files SET status = 'booked', report = $2"
    " WHERE uuid = $1 AND status <> 'booked' RETURNING uuid"
)
_TO_BOOK = (
    "SELECT id, message_number, kind, fingerprint, amount, currency, approval_code, arn,"
    " merchant_name, merchant_city, merchant_country, merchant_id, mcc FROM clearing_records"
    " WHERE file_uuid = $1 AND outcome IS NULL AND id > $2 ORDER BY id LIMIT $3"
)
_BOOK = (
    "UPDATE clearing_records SET outcome = $2, reason = $3, transaction_uuid = $4,"
    " authorized = $5, booked_at = $6 WHERE id = $1 AND outcome IS NULL RETURNING id"
)
_BOOK_PG = (
    "WITH b AS (UPDATE clearing_records r SET outcome = v.outcome, reason = v.reason,"
    " transaction_uuid = v.transaction_uuid, authorized = v.authorized, booked_at = $6"
    " FROM unnest(CAST($1 AS bigint[]), CAST($2 AS text[]), CAST($3 AS text[]),"
    " CAST($4 AS uuid[]), CAST($5 AS bigint[]))"
    " AS v(id, outcome, reason, transaction_uuid, authorized)"
    " WHERE r.id = v.id AND r.outcome IS NULL RETURNING r.id) SELECT count(*) FROM b"
)
_OUTCOMES = (
    "SELECT outcome, kind, currency, count(*) AS records, coalesce(sum(amount), 0) AS amount"
    " FROM clearing_records WHERE file_uuid = $1 GROUP BY outcome, kind, currency"
)
_LISTED = (
    "SELECT message_number, outcome, reason, transaction_uuid, authorized, amount"
    " FROM clearing_records WHERE file_uuid = $1"
    " AND outcome IN ('amount_difference', 'unmatched') ORDER BY message_number"
)
_PAGE = (
    f"SELECT {FILE_COLUMNS} FROM clearing_files WHERE status = 'booked'"  # noqa: S608
    " ORDER BY received_at DESC, uuid DESC LIMIT $1 OFFSET $2"
)
_COUNT = "SELECT count(*) FROM clearing_files WHERE status = 'booked'"

# The authorization a presentment names: the card's purchase (or ATM withdrawal) with that
# approval code.
_AUTHORIZATION_COLUMNS = (
    "SELECT uuid, user_uuid, card_uuid, auth_code, type, status, currency, captured_amount,"
    " merchant_currency, merchant_captured_amount FROM transactions"
)
_AUTHORIZATION_KIND = (
    " AND parent_uuid IS NULL AND status <> 'declined' ORDER BY created_at DESC, uuid DESC"
)
_AUTHORIZATION = (
    f"{_AUTHORIZATION_COLUMNS} WHERE card_uuid = $1 AND auth_code = $2 AND type = $3"
    f"{_AUTHORIZATION_KIND} LIMIT 1"
)
# The purchase a refund presentment names by its ARN: one an earlier record booked.
_CLEARED_BY_ARN = (
    "SELECT r.transaction_uuid FROM clearing_records r WHERE r.arn = $1 AND r.kind = 'purchase'"
    " AND r.transaction_uuid IS NOT NULL AND r.outcome <> 'unmatched'"
    " ORDER BY r.id DESC LIMIT 1"
)
# A refund presentment's online twin: a refund of the purchase an 0220 credited at the same
# amount that no record has cleared yet, claimed by the record (its `clearing` set) so that a
# second presentment of the same amount finds the next one. The purchase's card bounds the
# search (its index); a refund that went to a replacement card is not found.
_CLEAR_ONLINE_REFUND = (
    "UPDATE transactions SET clearing = $3 WHERE clearing IS NULL AND uuid = ("
    "SELECT c.uuid FROM transactions p JOIN transactions c ON c.card_uuid = p.card_uuid"
    " AND c.parent_uuid = p.uuid WHERE p.uuid = $1 AND c.type = 'card_refund'"
    " AND c.amount = $2 AND c.currency = $4 AND c.channel <> 'clearing' AND c.clearing IS NULL"
    " ORDER BY c.created_at, c.uuid LIMIT 1) RETURNING uuid"
)
_ACCOUNTS_OF = "SELECT pan_fingerprint, account_uuid FROM cards WHERE pan_fingerprint IN "
_SET_CLEARING = "UPDATE transactions SET clearing = $2 WHERE uuid = $1"
_SET_CLEARINGS_PG = (
    "UPDATE transactions t SET clearing = v.clearing"
    " FROM unnest(CAST($1 AS uuid[]), CAST($2 AS text[])) AS v(uuid, clearing)"
    " WHERE t.uuid = v.uuid"
)


async def file_by_id(reader: Reader | Tx, file_id: str) -> Row | None:
    return await reader.row(_FILE_BY_ID, file_id)


async def file_row(reader: Reader, file_uuid: uuid.UUID) -> Row | None:
    return await reader.row(_FILE, file_uuid)


async def claim(tx: Tx, file_uuid: uuid.UUID, file_id: str, sha256: str, now: datetime) -> None:
    """The file's row, `staging` (written under the ingest's lock on its id)."""
    await tx.execute(_CLAIM, file_uuid, file_id, sha256, now)


async def forget_staged(tx: Tx, file_uuid: uuid.UUID, *, keep_file: bool) -> None:
    """A staged file's records (and its row unless `keep_file`): read again or refused."""
    await tx.execute(_FORGET_RECORDS, file_uuid)
    if not keep_file:
        await tx.execute(_FORGET_FILE, file_uuid)


async def stage(tx: Tx, rows: Sequence[dict[str, Any]]) -> None:
    """Presentments of a file being read, in one statement."""
    await tx.execute(
        insert_sql(_RECORDS, STAGED_COLUMNS, len(rows)), *row_args(STAGED_COLUMNS, rows)
    )


async def staged(tx: Tx, file_uuid: uuid.UUID, messages: int, ignored: int) -> None:
    """The whole file was read and found good: its records may be booked."""
    await tx.execute(_STAGED, file_uuid, messages, ignored)


async def booked(tx: Tx, file_uuid: uuid.UUID, report: str) -> bool:
    """The file booked with its report; False when it was booked already."""
    return await tx.value(_BOOKED, file_uuid, report) is not None


async def records_to_book(
    reader: Reader, file_uuid: uuid.UUID, after: int, limit: int
) -> Sequence[Row]:
    """The file's records not booked yet, in file order, after record id `after`."""
    return await reader.rows(_TO_BOOK, file_uuid, after, limit)


BookedRow = tuple[int, str, str | None, uuid.UUID | None, int | None]


async def book_many(tx: Tx, rows: Sequence[BookedRow], now: datetime) -> int:
    """The records' outcomes `(id, outcome, reason, transaction_uuid, authorized)`, written
    in the unit that moves their money (one statement on PostgreSQL); how many were written
    (fewer than `rows`: another unit booked some of them already)."""
    if tx.dialect == "sqlite":
        booked = 0
        for row in rows:
            booked += await tx.value(_BOOK, *row, now) is not None
        return booked
    columns = list(zip(*rows, strict=True))
    return int(await tx.value(_BOOK_PG, *(list(column) for column in columns), now))


async def outcomes(reader: Reader, file_uuid: uuid.UUID) -> Sequence[Row]:
    """Per outcome, kind and currency: how many records and their amount."""
    return await reader.rows(_OUTCOMES, file_uuid)


async def listed(reader: Reader, file_uuid: uuid.UUID) -> Sequence[Row]:
    """The records the report lists one by one: amount differences and unmatched."""
    return await reader.rows(_LISTED, file_uuid)


async def page(reader: Reader, limit: int, offset: int) -> tuple[Sequence[Row], int]:
    """Booked files, newest first, and how many there are."""
    return await reader.rows(_PAGE, limit, offset), int(await reader.value(_COUNT))


Named = tuple[uuid.UUID, str, str]  # a card, an approval code, a transaction type


async def authorization(tx: Tx, card_uuid: uuid.UUID, approval_code: str, type_: str) -> Row | None:
    """The card's latest authorization of type `type_` (not declined) with this approval
    code."""
    return await tx.row(_AUTHORIZATION, card_uuid, approval_code, type_)


async def authorizations(tx: Tx, named: Collection[Named]) -> dict[Named, Row]:
    """`authorization` of several (card, approval code, type) in one statement; one with
    none is left out."""
    if not named:
        return {}
    cards = sorted({card for card, _code, _type in named}, key=str)
    codes = sorted({code for _card, code, _type in named})
    types = sorted({type_ for _card, _code, type_ in named})
    sql = (
        f"{_AUTHORIZATION_COLUMNS} WHERE card_uuid IN {in_list(len(cards))}"
        f" AND auth_code IN {in_list(len(codes), len(cards) + 1)}"
        f" AND type IN {in_list(len(types), len(cards) + len(codes) + 1)}{_AUTHORIZATION_KIND}"
    )
    found: dict[Named, Row] = {}
    for row in await tx.rows(sql, *cards, *codes, *types):
        card = as_uuid(row["card_uuid"])
        key = (card, str(row["auth_code"]), str(row["type"])) if card is not None else None
        if key is not None and key in named and key not in found:  # the latest first
            found[key] = row
    return found


async def cleared_by_arn(tx: Tx, arn: str) -> uuid.UUID | None:
    """The purchase an earlier presentment with this ARN booked."""
    return as_uuid(await tx.value(_CLEARED_BY_ARN, arn))


async def clear_online_refund(
    tx: Tx, purchase: uuid.UUID, amount: int, currency: str, clearing: str
) -> uuid.UUID | None:
    """The purchase's refund of `amount` `currency` an 0220 credited, now shown cleared by
    the record (`clearing`); None when there is none left to clear."""
    return as_uuid(await tx.value(_CLEAR_ONLINE_REFUND, purchase, amount, clearing, currency))


async def set_clearings(tx: Tx, clearings: dict[uuid.UUID, str]) -> None:
    """Each transaction shows the record that booked it (one statement on PostgreSQL)."""
    if tx.dialect == "sqlite":
        for transaction_uuid, clearing in clearings.items():
            await tx.execute(_SET_CLEARING, transaction_uuid, clearing)
        return
    await tx.execute(_SET_CLEARINGS_PG, list(clearings), list(clearings.values()))


async def accounts_of(reader: Reader, fingerprints: Collection[str]) -> dict[str, str]:
    """The account of the card with each fingerprint, in one statement (the fingerprint
    itself for a number that is no card's)."""
    ordered = sorted(fingerprints)
    if not ordered:
        return {}
    rows = await reader.rows(_ACCOUNTS_OF + in_list(len(ordered)), *ordered)
    found = {fingerprint: fingerprint for fingerprint in ordered}
    found.update({str(row["pan_fingerprint"]): str(row["account_uuid"]) for row in rows})
    return found


# --- the issuer's outgoing files and the second presentments (docs/disputes.md) -----------

_OUTGOING = table_of(ClearingOutgoing).name
OUTGOING_COLUMNS = (
    "uuid", "date", "file_id", "messages", "sha256", "content_ciphertext", "created_at",
)  # fmt: skip
_INSERT_OUTGOING = insert_sql(_OUTGOING, OUTGOING_COLUMNS)
_OUTGOING_SHOWN = "uuid, date, file_id, messages, sha256, created_at"
_OUTGOING_BY_DATE = f"SELECT {_OUTGOING_SHOWN}, content_ciphertext FROM {_OUTGOING} WHERE date = $1"  # noqa: S608
_OUTGOING_PAGE = f"SELECT {_OUTGOING_SHOWN}, $TOTAL AS total FROM {_OUTGOING} ORDER BY date DESC"  # noqa: S608
_OUTGOING_COUNT = f"SELECT count(*) FROM {_OUTGOING}"  # noqa: S608
_FILE_ID = "SELECT file_id FROM clearing_files WHERE uuid = $1"
_TEXT = "UPDATE clearing_records SET message = $3 WHERE file_uuid = $1 AND message_number = $2"
_MESSAGE = "SELECT message FROM clearing_records WHERE id = $1"
_EXCEPTIONS = (
    "SELECT message_number, reason, transaction_uuid FROM clearing_records"
    " WHERE file_uuid = $1 AND kind = 'second' AND outcome = 'exception' ORDER BY message_number"
)


async def outgoing_of(reader: Reader | Tx, day: date) -> Row | None:
    """The outgoing file of the date (its record's columns and `content_ciphertext`), or None."""
    return await reader.row(_OUTGOING_BY_DATE, day)


async def insert_outgoing(tx: Tx, row: dict[str, Any]) -> None:
    """Keep an outgoing file (every column of `OUTGOING_COLUMNS`)."""
    await tx.execute(_INSERT_OUTGOING, *(row[column] for column in OUTGOING_COLUMNS))


async def outgoing_page(reader: Reader, offset: int, limit: int) -> tuple[Sequence[Row], int]:
    """A page of the outgoing files, newest date first, and how many there are."""
    return await paginate(reader, _OUTGOING_PAGE, [], Offset(offset, limit), count=_OUTGOING_COUNT)


async def file_id_of(tx: Tx, file_uuid: uuid.UUID) -> str:
    """PDS 0105 of an ingested file."""
    return str(await tx.value(_FILE_ID, file_uuid))


async def keep_texts(tx: Tx, file_uuid: uuid.UUID, texts: dict[int, str]) -> None:
    """The merchants' messages (DE 72) of the second presentments staged, by message number."""
    for number, text in texts.items():
        await tx.execute(_TEXT, file_uuid, number, text)


async def message_of(tx: Tx, record_id: int) -> str | None:
    """A staged second presentment's DE 72."""
    text = await tx.value(_MESSAGE, record_id)
    return None if text is None else str(text)


async def exceptions(reader: Reader, file_uuid: uuid.UUID) -> Sequence[Row]:
    """The second presentments of the file refused as exceptions, in file order."""
    return await reader.rows(_EXCEPTIONS, file_uuid)
