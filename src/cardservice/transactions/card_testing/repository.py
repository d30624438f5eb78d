"""The card-testing guard's statements: a card's failures and freeze, a merchant's row, a
BIN's row."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from cardservice.db.sql import Reader, Row, Tx

_LOCK_CARD = (
    "SELECT status, frozen_reason, verification_failures FROM cards WHERE uuid = $1"
    " FOR NO KEY UPDATE"
)
_SET_FAILURES = "UPDATE cards SET verification_failures = $2 WHERE uuid = $1"
_FREEZE = (
    "UPDATE cards SET status = 'frozen', frozen_reason = $3, verification_failures = $2,"
    " updated_at = $4 WHERE uuid = $1"
)
_SET_PIN_FAILURES = "UPDATE cards SET pin_failures = $2 WHERE uuid = $1"
_BLOCK_PIN = (
    "UPDATE cards SET pin_failures = $2, pin_blocked = true, updated_at = $3 WHERE uuid = $1"
)
# `pin_blocked` is not a column the database's event trigger watches: its `card.updated` is
# written here, its data filled with the card record by the unit of work as every event's
_PIN_BLOCKED_EVENT = (
    "INSERT INTO events (uuid, type, user_uuid, object_type, object_uuid, created_at)"
    " SELECT $2, 'card.updated', user_uuid, 'card', uuid, $3 FROM cards WHERE uuid = $1"
)
# Takes (or creates) the merchant's row and its lock in one statement.
_LOCK_MERCHANT = (
    "INSERT INTO card_testing_merchants (acquirer_id, merchant_id, failures) VALUES ($1, $2, '[]')"
    " ON CONFLICT (acquirer_id, merchant_id)"
    " DO UPDATE SET failures = card_testing_merchants.failures"
    " RETURNING failures, blocked_until"
)
_SET_MERCHANT = (
    "UPDATE card_testing_merchants SET failures = $3, blocked_until = $4"
    " WHERE acquirer_id = $1 AND merchant_id = $2"
)


async def lock_card(tx: Tx, card_uuid: Any) -> Row | None:
    """The card's status and the guard's columns, the card locked (None: no such card)."""
    return await tx.row(_LOCK_CARD, card_uuid)


async def set_card_failures(tx: Tx, card_uuid: Any, failures: str | None) -> None:
    await tx.execute(_SET_FAILURES, card_uuid, failures)


async def freeze_card(tx: Tx, card_uuid: Any, failures: str, reason: str, now: datetime) -> None:
    """Frozen by the guard: a status change, so the database writes its `card.updated`."""
    await tx.execute(_FREEZE, card_uuid, failures, reason, now)


async def set_pin_failures(tx: Tx, card_uuid: Any, failures: int) -> None:
    await tx.execute(_SET_PIN_FAILURES, card_uuid, failures)


async def block_pin(tx: Tx, card_uuid: Any, failures: int, now: datetime) -> None:
    """The PIN blocked after its last wrong try, with the card's `card.updated` event."""
    await tx.execute(_BLOCK_PIN, card_uuid, failures, now)
    await tx.execute(_PIN_BLOCKED_EVENT, card_uuid, uuid.uuid4(), now)


async def lock_merchant(tx: Tx, acquirer_id: str, merchant_id: str) -> Row:
    row = await tx.row(_LOCK_MERCHANT, acquirer_id, merchant_id)
    assert row is not None, "an upsert returns its row"
    return row


async def set_merchant(
    tx: Tx, acquirer_id: str, merchant_id: str, failures: str, blocked_until: datetime | None
) -> None:
    await tx.execute(_SET_MERCHANT, acquirer_id, merchant_id, failures, blocked_until)


# Takes (or creates) a BIN's row and its lock in one statement, for a BIN the service issues
# from only (a BIN of 8 digits issues under its first 6): none of ours → no row.
_LOCK_BIN = (
    "INSERT INTO card_testing_bins (bin, unknown, unknown_numbers)"
    " SELECT b.bin, '[]', 0 FROM (SELECT CAST($1 AS TEXT) AS bin) b"
    " WHERE EXISTS (SELECT 1 FROM bins WHERE substr(bins.bin, 1, 6) = b.bin)"
    " ON CONFLICT (bin) DO UPDATE SET unknown = card_testing_bins.unknown"
    " RETURNING unknown, locked_until, unknown_numbers"
)
_SET_BIN = (
    "UPDATE card_testing_bins SET unknown = $2, locked_until = $3, unknown_numbers = $4"
    " WHERE bin = $1"
)
_MERCHANTS_BLOCKED = (
    "SELECT acquirer_id, merchant_id, blocked_until FROM card_testing_merchants"
    " WHERE blocked_until > $1 ORDER BY blocked_until, acquirer_id, merchant_id"
)
_BINS_LOCKED = (
    "SELECT bin, unknown_numbers, locked_until FROM card_testing_bins"
    " WHERE locked_until > $1 ORDER BY locked_until, bin"
)


async def lock_bin(tx: Tx, bin_: str) -> Row | None:
    """The BIN's row, locked (created on its first unknown number); None: not our BIN."""
    return await tx.row(_LOCK_BIN, bin_)


async def set_bin(
    tx: Tx, bin_: str, unknown: str, locked_until: datetime | None, unknown_numbers: int
) -> None:
    await tx.execute(_SET_BIN, bin_, unknown, locked_until, unknown_numbers)


async def merchants_blocked(reader: Reader, now: datetime) -> Sequence[Row]:
    return await reader.rows(_MERCHANTS_BLOCKED, now)


async def bins_locked(reader: Reader, now: datetime) -> Sequence[Row]:
    return await reader.rows(_BINS_LOCKED, now)
