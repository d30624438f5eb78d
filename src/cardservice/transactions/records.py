"""Transaction rows → transaction records."""

from __future__ import annotations

from cardservice.ledger.money import from_minor
from cardservice.models import Transaction
from cardservice.transactions.schemas import Merchant, TransactionRecord


def transaction_record(row: Transaction) -> TransactionRecord:
    merchant = None
    if row.merchant_name is not None:
        merchant = Merchant(
            name=row.merchant_name,
            mcc=row.merchant_mcc,
            country=row.merchant_country,
            city=row.merchant_city,
        )
    return TransactionRecord(
        uuid=row.uuid,
        type=row.type,
        status=row.status,
        amount=from_minor(row.amount),
        currency=row.currency,
        direction=row.direction,
        card_uuid=row.card_uuid,
        account_uuid=row.account_uuid,
        merchant=merchant,
        tag=row.tag_slug,
        error=row.error_slug,
        fee=from_minor(row.fee),
        refunded_amount=from_minor(row.refunded_amount),
        flagged=row.flagged,
        description=row.description,
        parent_uuid=row.parent_uuid,
        created_at=row.created_at,
        updated_at=row.updated_at,
    )
