"""The entries of a purchase's money after its authorization, whatever the channel: capture,
reverse (whole or partial), refund, a refund naming no purchase (a credit), a presentment at
another amount, the hold sweep (docs/transactions.md, "Lifecycle";
docs/architecture.md#the-use-cases-and-their-single-entries). Each channel — the sandbox route,
`cardservice simulate`, the ISO 8583 host, a clearing file, the demo — builds one message and
calls its entry: `capture_purchase(db, user, message)` runs one unit of work, `capture(tx, user,
message)` runs in the channel's own unit (the ISO host writes its message key in it, a clearing
file its outcomes); a clearing unit's force posts are a set of their own (force_posts.py).
Below them, lifecycle.py takes the locks and holds the state machine, and holds.py writes every
`holds` leg. An authorization enters through `authorize.authorize_card`.

The rules every caller gets: a single_use card closes after its first capture — an online or
presented one, or a force post — in the same unit
(docs/security.md#card-details-cvv2-and-issuer-keys).
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from typing import Any

from cardservice.db.database import Database
from cardservice.db.sql import Tx
from cardservice.models.base import utcnow
from cardservice.transactions import adjustments, closing, lifecycle


@dataclass(frozen=True, slots=True)
class CaptureMessage:
    """Capture `amount` (None: all that is held; a foreign purchase's in the merchant's
    currency, at `rate` or the purchase's); `final` releases what stays held."""

    purchase_uuid: uuid.UUID
    amount: int | None = None
    final: bool = True
    rate: Decimal | None = None
    channel: str = "sandbox"
    presented: bool = False  # a clearing file's presentment: never refused (lifecycle.capture)


@dataclass(frozen=True, slots=True)
class ReversalMessage:
    """Reverse a pending purchase: its hold and fee go back to the card; with `stays` (a
    partial reversal, in the merchant's currency) only what is above it goes back."""

    purchase_uuid: uuid.UUID
    channel: str = "sandbox"
    stays: int | None = None


@dataclass(frozen=True, slots=True)
class RefundMessage:
    """Refund `amount` (None: what is left) of a completed purchase. `columns`: the credit's
    own columns a channel sets (`uuid`, `network`, `clearing`), beside its `channel`."""

    purchase_uuid: uuid.UUID
    amount: int | None = None
    channel: str = "sandbox"
    columns: Mapping[str, Any] | None = None


async def _after_capture(
    tx: Tx, user_uuid: uuid.UUID, purchase: Mapping[str, Any], now: datetime | None = None
) -> None:
    """What follows any capture in its unit: a single_use card closes."""
    await closing.close_single_use_after_capture(tx, user_uuid, purchase, now or utcnow())


async def capture_purchase(
    db: Database, user_uuid: uuid.UUID, message: CaptureMessage
) -> dict[str, Any]:
    """Capture part or all of the user's pending purchase in one unit (`capture`); its row."""
    return await db.transact(lambda tx: capture(tx, user_uuid, message))


async def capture(
    tx: Tx, user_uuid: uuid.UUID, message: CaptureMessage, now: datetime | None = None
) -> dict[str, Any]:
    """The capture (`lifecycle.capture`), then a single_use card closes after its first
    capture; the purchase's row."""
    purchase = await lifecycle.capture(
        tx, user_uuid, message.purchase_uuid, message.amount, message.final, now,
        rate=message.rate, presented=message.presented,
    )  # fmt: skip
    await _after_capture(tx, user_uuid, purchase)
    return dict(purchase)


async def reverse_purchase(
    db: Database, user_uuid: uuid.UUID, message: ReversalMessage
) -> dict[str, Any]:
    """Reverse the user's pending purchase in one unit (`reverse`); its row."""
    return await db.transact(lambda tx: reverse(tx, user_uuid, message))


async def reverse(
    tx: Tx, user_uuid: uuid.UUID, message: ReversalMessage, now: datetime | None = None
) -> dict[str, Any]:
    """The whole hold back (`lifecycle.reverse`), or what is above `stays`
    (`adjustments.shrink_hold`); the purchase's row."""
    now = now or utcnow()
    if message.stays is None:
        purchase = await lifecycle.reverse(tx, user_uuid, message.purchase_uuid, now)
    else:
        purchase = await adjustments.shrink_hold(
            tx, user_uuid, message.purchase_uuid, message.stays, now
        )
    return dict(purchase)


async def refund_purchase(
    db: Database, user_uuid: uuid.UUID, message: RefundMessage
) -> dict[str, Any]:
    """Refund the user's completed purchase in one unit (`refund`); the purchase's row."""
    return await db.transact(lambda tx: refund(tx, user_uuid, message))


async def refund(
    tx: Tx, user_uuid: uuid.UUID, message: RefundMessage, now: datetime | None = None
) -> dict[str, Any]:
    """The refund (`lifecycle.refund`), a `card_refund` credit of the message's channel; the
    purchase's row."""
    columns = None
    if message.columns is not None:
        columns = {"channel": message.channel, **message.columns}
    purchase = await lifecycle.refund(
        tx, user_uuid, message.purchase_uuid, message.amount, now, channel=columns
    )
    return dict(purchase)
