"""Card rows → card records (the API shape is not the table's shape)."""

from __future__ import annotations

from cardservice.cards.numbers import mask
from cardservice.cards.schemas import AutoReplenish, CardRecord, HolderAddress
from cardservice.ledger.money import from_minor
from cardservice.models import Card


def card_record(card: Card) -> CardRecord:
    amount, min_balance = card.auto_replenish_amount, card.auto_replenish_min_balance
    return CardRecord(
        uuid=card.uuid,
        account_uuid=card.account_uuid,
        bin=card.bin,
        brand=card.brand,
        mask=mask(card.bin, card.last4),
        last4=card.last4,
        expiry_month=card.expiry_month,
        expiry_year=card.expiry_year,
        currency=card.currency,
        balance=from_minor(card.balance),
        status=card.status,
        is_favorite=card.is_favorite,
        sort_order=card.sort_order,
        description=card.description,
        external_id=card.external_id,
        holder_name=card.holder_name,
        holder_address=HolderAddress(**card.holder_address) if card.holder_address else None,
        auto_replenish=AutoReplenish(
            enabled=amount is not None,
            amount=from_minor(amount) if amount is not None else None,
            min_balance=from_minor(min_balance) if min_balance is not None else None,
        ),
        created_at=card.created_at,
        updated_at=card.updated_at,
    )
