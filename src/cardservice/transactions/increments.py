"""Incremental authorization (docs/transactions.md#holds-captures-increments-expiry): a merchant
raises a pending purchase's hold.

The increment is an authorization message for the same card and merchant, decided by the
one engine (`engine.decide`/`record`, with `parent_uuid` set) and, when the user has one, by
their decision endpoint: it enters through `authorize.authorize_card` like any other (see
engine.py for what it writes). The parent is read here only to address the message; the
engine locks it and checks again that it is still pending.
"""

from __future__ import annotations

import uuid
from typing import Any

from cardservice.db.database import Database
from cardservice.infra.outbound import Outbound
from cardservice.security import CardCipher
from cardservice.transactions.authorize import authorization_of, authorize_card
from cardservice.transactions.holds import InvalidTransition
from cardservice.transactions.reports import one_transaction


async def increment_purchase(
    db: Database,
    http: Outbound,
    cipher: CardCipher,
    user_uuid: uuid.UUID,
    purchase_uuid: uuid.UUID,
    amount: int,
    *,
    allow_private: bool,
    channel: str = "sandbox",
) -> dict[str, Any]:
    """Raise the hold of the user's pending purchase by `amount` (a foreign-currency
    purchase's: in the merchant's currency, converted at the table's rate). Returns the
    purchase's row (approved) or the declined child's; another user's is 404."""
    parent = await one_transaction(db.reader, user_uuid, purchase_uuid)
    if parent["type"] != "card_purchase" or parent["status"] != "pending":
        raise InvalidTransition(
            f"A {parent['status']} {parent['type']} cannot make this transition."
        )
    merchant = parent["merchant"] or {}
    details = {
        "mcc": merchant.get("mcc"),
        "merchant_country": merchant.get("country"),
        "merchant_city": merchant.get("city"),
        "tag": parent["tag"],
        "parent_uuid": purchase_uuid,
    }
    currency = parent["merchant_currency"] or parent["currency"]
    card, name = uuid.UUID(parent["card_uuid"]), merchant.get("name") or ""
    message = authorization_of(card, amount, currency, name, details, channel)
    return await authorize_card(db, http, cipher, user_uuid, message, allow_private=allow_private)
