"""The entries of a purchase's later messages, whatever the channel: capture, reversal,
refund (docs/transactions.md, "Lifecycle"). The sandbox route, `cardservice simulate`, the
ISO 8583 host build one message and call its entry; each runs one unit of work
(lifecycle.py holds the rules and takes the locks). The hold sweep (expiry.py) reverses
through the same `lifecycle.release` as `reverse_purchase`. An authorization enters through
`authorize.authorize_card`.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from cardservice.db.database import Database
from cardservice.db.sql import Tx
from cardservice.models.base import utcnow
from cardservice.transactions import closing, lifecycle


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
    """Reverse a pending purchase: its hold and fee go back to the card."""

    purchase_uuid: uuid.UUID
    channel: str = "sandbox"


@dataclass(frozen=True, slots=True)
class RefundMessage:
    """Refund `amount` (None: what is left) of a completed purchase."""

    purchase_uuid: uuid.UUID
    amount: int | None = None
    channel: str = "sandbox"


async def capture_purchase(
    db: Database, user_uuid: uuid.UUID, message: CaptureMessage
) -> dict[str, Any]:
    """Capture part or all of the user's pending purchase (lifecycle.capture); its row. A
    single_use card closes after its first capture, in the same unit
    (docs/security.md#card-details-cvv2-and-issuer-keys)."""

    return await db.transact(lambda tx: capture(tx, user_uuid, message))


async def capture(tx: Tx, user_uuid: uuid.UUID, message: CaptureMessage) -> dict[str, Any]:
    """The capture inside a channel's own unit (the ISO 8583 host writes its message key in
    it): `lifecycle.capture`, then a single_use card closes after its first capture."""
    purchase = await lifecycle.capture(
        tx, user_uuid, message.purchase_uuid, message.amount, message.final,
        rate=message.rate, presented=message.presented,
    )  # fmt: skip
    await closing.close_single_use_after_capture(tx, user_uuid, purchase, utcnow())
    return purchase


async def reverse_purchase(
    db: Database, user_uuid: uuid.UUID, message: ReversalMessage
) -> dict[str, Any]:
    """Reverse the user's pending purchase (lifecycle.reverse); its row."""
    return await db.transact(lambda tx: lifecycle.reverse(tx, user_uuid, message.purchase_uuid))


async def refund_purchase(
    db: Database, user_uuid: uuid.UUID, message: RefundMessage
) -> dict[str, Any]:
    """Refund the user's completed purchase (lifecycle.refund); the purchase's row."""
    return await db.transact(
        lambda tx: lifecycle.refund(tx, user_uuid, message.purchase_uuid, message.amount)
    )
