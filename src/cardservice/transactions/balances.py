"""Locked and fresh reads of the rows money moves through (plain SQL on the write unit's
`Tx`: no ORM identity map to go stale, no unit of work to flush)."""

from __future__ import annotations

import uuid
from collections.abc import Sequence

from cardservice.sql import Row, Tx

# A card as the engine needs it, the columns named as on the table.
CARD_COLUMNS = (
    "c.uuid, c.user_uuid, c.account_uuid, c.currency, c.balance, c.status, c.expiry_month,"
    " c.expiry_year, c.auto_replenish_amount, c.auto_replenish_min_balance, c.spending_controls,"
    " c.card_type, c.locked_merchant"  # issue 29: card types (cards/types.py)
)

# Parameters: $1 card, $2 user, $3 tag.
_LOCK_CARD_ACCOUNT = """
SELECT a.uuid, a.status, a.balance, u.status AS user_status
FROM cards c JOIN accounts a ON a.uuid = c.account_uuid JOIN users u ON u.uuid = c.user_uuid
WHERE c.uuid = $1 AND c.user_uuid = $2
FOR NO KEY UPDATE OF a"""
# The user's decision endpoint (API.md §10), read with the card: no round trip of its own.
_ENDPOINT_COLUMNS = (
    "e.url AS endpoint_url, e.secret_ciphertext AS endpoint_secret,"
    " e.timeout_ms AS endpoint_timeout_ms, e.on_timeout AS endpoint_on_timeout,"
    " e.consecutive_failures AS endpoint_failures, e.stand_in_until AS endpoint_stand_in_until"
)
_CARD_WITH_FEES = f"""
SELECT {CARD_COLUMNS}, o.slug AS fee_slug, o.kind AS fee_kind, o.value AS fee_value,
       {_ENDPOINT_COLUMNS}
FROM cards c LEFT JOIN user_fee_overrides o ON o.user_uuid = $2
             LEFT JOIN authorization_endpoints e ON e.user_uuid = $2
WHERE c.uuid = $1
FOR NO KEY UPDATE OF c"""  # noqa: S608 - constant columns
_CARD_WITH_FEES_AND_TAG = f"""
SELECT {CARD_COLUMNS}, o.slug AS fee_slug, o.kind AS fee_kind, o.value AS fee_value,
       {_ENDPOINT_COLUMNS},
       t.slug AS tag_slug, t.restriction AS tag_restriction, t.hold_days AS tag_hold_days
FROM cards c LEFT JOIN user_fee_overrides o ON o.user_uuid = $2
             LEFT JOIN authorization_endpoints e ON e.user_uuid = $2
             LEFT JOIN transaction_tags t ON t.slug = $3
WHERE c.uuid = $1
FOR NO KEY UPDATE OF c"""  # noqa: S608 - constant columns


async def lock_card_account(tx: Tx, user_uuid: uuid.UUID, card_uuid: uuid.UUID) -> Row | None:
    """The account (uuid, status, balance) of one of the user's cards, locked and read as it
    is now, with the owner's `user_status`; None when the card is not the user's. Only the
    account row is locked."""
    return await tx.row(_LOCK_CARD_ACCOUNT, card_uuid, user_uuid)


async def lock_card_with_fees(
    tx: Tx, user_uuid: uuid.UUID, card_uuid: uuid.UUID, tag: str | None
) -> Sequence[Row]:
    """The card row, locked and read as it is now, joined with the user's fee overrides (one
    row per override, or one row with none), the user's decision endpoint (`endpoint_*`,
    None when there is none) and the merchant tag when one is named (`tag_slug` is None when
    no such tag exists). Only the card row is locked."""
    if tag is None:
        return await tx.rows(_CARD_WITH_FEES, card_uuid, user_uuid)
    return await tx.rows(_CARD_WITH_FEES_AND_TAG, card_uuid, user_uuid, tag)


def overrides_in(rows: Sequence[Row]) -> set[tuple[str, str, int]]:
    """The fee overrides `(slug, kind, value)` carried by the rows of `lock_card_with_fees`."""
    return {
        (r["fee_slug"], r["fee_kind"], r["fee_value"]) for r in rows if r["fee_slug"] is not None
    }
